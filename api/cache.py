"""The API's one cache abstraction, per worker process, bounded in bytes.

`Store` holds every kept value of a worker under one byte bound (API_CACHE_MAX_BYTES,
core/api_limits.py): least recently used entries go first when a new one would pass it, and an
entry larger than `1/ENTRY_FRACTION` of the bound is not kept at all (it is served, then freed:
one answer must not empty the cache of everything else). An entry's size is its value's estimate
(`estimate`: an `Answer` counts its body, encoded variants and header blocks; any other value its
objects, walked), its key's, and `ENTRY_OVERHEAD`. A TTL entry counts until it is evicted or
looked up after it expired.

`Cache` is one use's namespace of a store, with single-flight fills (concurrent misses of one
key await one computation; a failure reaches each of them and is not remembered) and `memo` for
values computed synchronously. Its uses, all in the worker's `STORE`:

- `app.ctx.cache`, the answers of snapshot routes (api/prepared.py `Answer`), exactly as first sent
  (identical requests between two snapshots get identical bytes): no TTL, the key holds
  snapshotAt, so a new snapshot changes every key and the byte bound drops the old ones;
- `app.ctx.memo` (api/app.py), values kept for a TTL: memoized non-snapshot answers, the /api/v1
  vault book and answers, the /api/stats/live/* chain reads;
- api/pipeline.py: validated query strings and 304 header blocks per route;
- api/compression.py: Accept-Encoding negotiations and encoded variants of uncached responses;
- api/coverage.py: coverages of multichain routes; api/stats/flow_windows.py: flow-window objects.

A store belongs to its worker's event loop thread (no lock on the path of every cached answer):
steps run off the loop (api/offload.py) are pure functions of their inputs and keep nothing here.
"""
from __future__ import annotations

import asyncio
import sys
import time
from collections import OrderedDict
from typing import Any, Awaitable, Callable, Hashable

from ..core.api_limits import DEFAULT_CACHE_MAX_BYTES

# Bytes an entry costs besides its key and value: its OrderedDict node (~100), its `_Entry`
# record (72) and the namespaced key tuple (56), rounded up.
ENTRY_OVERHEAD = 256
ENTRY_FRACTION = 16  # an entry above max_bytes / 16 (16 MiB of the default 256 MiB) is not kept
CacheKey = tuple[str, Hashable, Hashable]  # (route name, normalized parameters, snapshotAt or coverage key)
_WALK_LIMIT = 100_000  # objects `estimate` visits at most; past it the remainder is guessed from the mean


def estimate(value: Any) -> int:
    """The bytes `value` holds: its objects walked (containers, `__slots__` and `__dict__`
    attributes; each object once), an object with a `cache_bytes()` method counting what it says."""
    seen: set[int] = set()
    todo, total = [value], 0
    while todo:
        obj = todo.pop()
        if id(obj) in seen or obj is None or obj is True or obj is False:
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        if len(seen) >= _WALK_LIMIT:
            return total + len(todo) * (total // len(seen))
        if isinstance(obj, (str, bytes, int, float)):
            continue
        stated = None if isinstance(obj, (dict, list, tuple, type)) else getattr(obj, "cache_bytes", None)
        if stated is not None:
            total += stated() - sys.getsizeof(obj)
        elif isinstance(obj, dict):
            todo.extend(obj.keys())
            todo.extend(obj.values())
        elif isinstance(obj, (list, tuple, set, frozenset)):
            todo.extend(obj)
        else:
            for klass in type(obj).__mro__:
                todo.extend(getattr(obj, name) for name in getattr(klass, "__slots__", ()) if hasattr(obj, name))
            if hasattr(obj, "__dict__"):
                todo.append(obj.__dict__)
    return total


class _Entry:
    __slots__ = ("expiry", "value", "size")

    def __init__(self, expiry: float | None, value: Any, size: int):
        self.expiry, self.value, self.size = expiry, value, size


class Store:
    """Every kept value of a worker, at most `max_bytes` of them (see the module docstring)."""

    def __init__(self, max_bytes: int = DEFAULT_CACHE_MAX_BYTES, clock: Callable[[], float] = time.monotonic):
        self.clock = clock
        self._entries: OrderedDict[Hashable, _Entry] = OrderedDict()
        self.bytes = 0
        self.evicted = 0  # entries dropped to make room
        self.refused = 0  # values above the per-entry limit, not kept
        self.bound(max_bytes)

    def bound(self, max_bytes: int) -> None:
        """Set the byte bound (the app does, from its settings) and evict down to it."""
        self.max_bytes = max(0, int(max_bytes))
        self.max_entry_bytes = self.max_bytes // ENTRY_FRACTION
        self._evict()

    def get(self, key: Hashable) -> Any | None:
        entry = self._entries.get(key)
        if entry is None:
            return None
        if entry.expiry is not None and self.clock() >= entry.expiry:
            self._drop(key)
            return None
        self._entries.move_to_end(key)
        return entry.value

    def put(self, key: Hashable, value: Any, size: int, ttl: float | None = None) -> bool:
        """Keep `value` (of `size` bytes besides the overhead) for `ttl` seconds (None: until
        evicted); False when it is not kept (above the per-entry limit, or ttl <= 0)."""
        size += ENTRY_OVERHEAD
        if ttl is not None and ttl <= 0:
            return False
        if size > self.max_entry_bytes:
            self.refused += self.max_bytes > 0
            return False
        if key in self._entries:
            self._drop(key)
        self._entries[key] = _Entry(None if ttl is None else self.clock() + ttl, value, size)
        self.bytes += size
        self._evict()
        return True

    def resize(self, key: Hashable, value: Any, size: int) -> bool:
        """`key`'s entry, still holding `value`, now holds `size` bytes; False (unchanged) when
        it is gone or that is above the per-entry limit."""
        entry = self._entries.get(key)
        size += ENTRY_OVERHEAD
        if entry is None or entry.value is not value or size > self.max_entry_bytes:
            return False
        self.bytes += size - entry.size
        entry.size = size
        self._entries.move_to_end(key)
        self._evict()
        return True

    def _drop(self, key: Hashable) -> None:
        self.bytes -= self._entries.pop(key).size

    def _evict(self) -> None:
        while self.bytes > self.max_bytes and self._entries:
            _, entry = self._entries.popitem(last=False)
            self.bytes -= entry.size
            self.evicted += 1

    def __len__(self) -> int:
        return len(self._entries)


# The worker's store: one per process (a worker is a process); create_app sets its bound.
STORE = Store()


class Cache:
    """One use's namespace of a `Store` (default: the worker's), with single-flight fills."""

    def __init__(self, name: Hashable = "memo", store: Store | None = None, clock: Callable[[], float] | None = None):
        self.name = name
        self.store = store if store is not None else Store(clock=clock) if clock is not None else STORE
        self._inflight: dict[Hashable, asyncio.Task] = {}  # bounded by the admission gate (api/admission.py)

    def computing(self, key: Hashable) -> bool:
        """Whether a computation of `key` is in flight (a caller of `get` would join it)."""
        return key in self._inflight

    def peek(self, key: Hashable) -> Any | None:
        """The fresh value of `key`, or None."""
        return self.store.get((self.name, key))

    def put(self, key: Hashable, value: Any, ttl: float | None = None) -> Any:
        """Keep `value` for `ttl` seconds (None: until evicted) unless `key` already has a fresh
        value; return the value that is kept (or `value`, when it is not), which callers then use."""
        kept = self.peek(key)
        return kept if kept is not None else self.set(key, value, ttl)

    def set(self, key: Hashable, value: Any, ttl: float | None = None) -> Any:
        """Keep `value` under `key` in place of any value it had; return it."""
        self.store.put((self.name, key), value, estimate(value) + estimate(key), ttl)
        return value

    def resize(self, key: Hashable, value: Any) -> bool:
        """Count `value` (kept under `key`, grown since) anew; False when it is no longer kept or
        would now pass the per-entry limit."""
        return self.store.resize((self.name, key), value, estimate(value) + estimate(key))

    def memo(self, key: Hashable, make: Callable[[], Any]) -> Any:
        """The kept value of `key`, else `make()`'s, kept (no TTL)."""
        found = self.store.get((self.name, key))
        if found is None:
            found = self.put(key, make())
        return found

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
