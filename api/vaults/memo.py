"""Server-side memoization with single-flight, per worker.

`await memo.get(key, ttl, compute)` returns the value computed less than `ttl` seconds ago, or
runs `compute()` once however many requests ask at the same time (they all await the same
task). Failures are not remembered: the next request tries again.
"""
from __future__ import annotations

import asyncio
import time
from typing import Any, Awaitable, Callable, Hashable

MAX_ENTRIES = 1024


class Memo:
    def __init__(self, clock: Callable[[], float] = time.monotonic):
        self.clock = clock
        self._values: dict[Hashable, tuple[float, Any]] = {}
        self._inflight: dict[Hashable, asyncio.Task] = {}

    async def get(self, key: Hashable, ttl: float, compute: Callable[[], Awaitable[Any]]) -> Any:
        hit = self._values.get(key)
        if hit is not None and self.clock() - hit[0] < ttl:
            return hit[1]
        task = self._inflight.get(key)
        if task is None:
            task = asyncio.ensure_future(compute())
            self._inflight[key] = task
            task.add_done_callback(lambda t, k=key: self._settle(k, t))
        return await asyncio.shield(task)

    def _settle(self, key: Hashable, task: asyncio.Task) -> None:
        if self._inflight.get(key) is task:
            del self._inflight[key]
        if not task.cancelled() and task.exception() is None:
            if len(self._values) >= MAX_ENTRIES:
                self._values.clear()  # keys are route + validated parameters: a full table is rare
            self._values[key] = (self.clock(), task.result())
