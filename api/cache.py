"""The API's one cache, per worker process: keyed entries, each fresh for a time-to-live or until
evicted, at most `max_entries` of them (least recently used dropped first; 0 keeps none), and
single-flight fills (concurrent misses of one key await one computation).

Its users:

- `ResponseCache`, the answers of snapshot routes (api/prepared.py `Answer`): no TTL, the key holds
  snapshotAt, so a new snapshot changes every key and the size bound drops the old ones;
- the per-worker memo `app.ctx.memo` (api/app.py), values kept for a TTL: the /api/v1 vault book
  and answers, the /api/stats/live/* chain reads.
"""
from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from typing import Any, Awaitable, Callable, Hashable

from .prepared import Answer

DEFAULT_MAX_ENTRIES = 2048
CacheKey = tuple[str, Hashable, str]  # (route name, normalized parameters, snapshotAt)


class Cache:
    def __init__(self, max_entries: int = DEFAULT_MAX_ENTRIES, clock: Callable[[], float] = time.monotonic):
        self.max_entries = max_entries
        self.clock = clock
        self._entries: OrderedDict[Hashable, tuple[float | None, Any]] = OrderedDict()  # key -> (expiry, value)
        self._inflight: dict[Hashable, asyncio.Task] = {}

    def peek(self, key: Hashable) -> Any | None:
        """The fresh value of `key`, or None."""
        entry = self._entries.get(key)
        if entry is None:
            return None
        expiry, value = entry
        if expiry is not None and self.clock() >= expiry:
            del self._entries[key]
            return None
        self._entries.move_to_end(key)
        return value

    def put(self, key: Hashable, value: Any, ttl: float | None = None) -> Any:
        """Store `value` for `ttl` seconds (None: until evicted) unless `key` already has a fresh
        value; return the value that is kept, which every caller then uses."""
        kept = self.peek(key)
        if kept is not None:
            return kept
        if self.max_entries > 0 and (ttl is None or ttl > 0):
            self._entries[key] = (None if ttl is None else self.clock() + ttl, value)
            while len(self._entries) > self.max_entries:
                self._entries.popitem(last=False)
        return value

    async def get(self, key: Hashable, ttl: float | None, compute: Callable[[], Awaitable[Any]]) -> Any:
        """The fresh value of `key`, else the value of `compute()`, run once for all the callers
        that miss while it runs. A failure is raised to each of them and not remembered."""
        hit = self.peek(key)
        if hit is not None:
            return hit
        task = self._inflight.get(key)
        if task is None:
            task = asyncio.ensure_future(compute())
            self._inflight[key] = task
            task.add_done_callback(lambda done, k=key: self._settle(k, ttl, done))
        # shield: a caller that goes away does not cancel the computation the others await
        return await asyncio.shield(task)

    def _settle(self, key: Hashable, ttl: float | None, task: asyncio.Task) -> None:
        if self._inflight.get(key) is task:
            del self._inflight[key]
        if not task.cancelled() and task.exception() is None:
            self.put(key, task.result(), ttl)

    def __len__(self) -> int:
        return len(self._entries)


class ResponseCache:
    """The answers of snapshot routes, exactly as first sent, so identical requests between two
    snapshots get identical bytes (`meta.generatedAt` included)."""

    def __init__(self, max_entries: int = DEFAULT_MAX_ENTRIES):
        self._cache = Cache(max_entries)

    def get(self, key: CacheKey) -> Answer | None:
        return self._cache.peek(key)

    def put(self, key: CacheKey, answer: Answer) -> Answer:
        return self._cache.put(key, answer)

    async def fill(self, key: CacheKey, compute: Callable[[], Awaitable[Answer]]) -> Answer:
        """The cached answer of `key`, else the one `compute()` encodes (single-flight)."""
        return await self._cache.get(key, None, compute)

    def __len__(self) -> int:
        return len(self._cache)
