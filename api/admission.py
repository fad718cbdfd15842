"""Admission of warehouse work, per worker: at most `concurrency` route computations (a cache
miss of a snapshot route, any run of a non-snapshot route's handler) at once, at most `queue`
more waiting; past that a request is answered at once with 503 `overloaded` and Retry-After,
so uncached work cannot pile up in memory nor starve cached answers (which never pass here).
Refusals are logged as one line per LOG_EVERY_SECONDS with their count, not one per request: a
flood would otherwise write a log line for each.
Limits: API_WAREHOUSE_CONCURRENCY, API_WAREHOUSE_QUEUE, API_RETRY_AFTER_SECONDS (core/api_limits.py).
"""
from __future__ import annotations

import asyncio
import logging
import time
from contextlib import asynccontextmanager
from typing import AsyncIterator

from .errors import ApiError

log = logging.getLogger("api")

OVERLOADED = "overloaded"
LOG_EVERY_SECONDS = 10


class Gate:
    def __init__(self, concurrency: int, queue: int, retry_after_seconds: int = 1):
        if concurrency < 1 or queue < 0:
            raise ValueError("concurrency must be >= 1 and queue >= 0")
        self.concurrency, self.queue, self.retry_after = concurrency, queue, retry_after_seconds
        self._slots = asyncio.Semaphore(concurrency)  # FIFO among waiters
        self.running = 0
        self.waiting = 0
        self.rejected = 0
        self._logged_at, self._logged_count = float("-inf"), 0

    def _overloaded(self) -> ApiError:
        self.rejected += 1
        now = time.monotonic()
        if now - self._logged_at >= LOG_EVERY_SECONDS:
            since = "" if self._logged_at == float("-inf") else f" in the last {now - self._logged_at:.0f} s"
            log.warning("refused %d uncached computation%s%s: 503 %s (%d running, %d waiting)",
                        self.rejected - self._logged_count, "" if self.rejected - self._logged_count == 1 else "s",
                        since, OVERLOADED, self.running, self.waiting)
            self._logged_at, self._logged_count = now, self.rejected
        return ApiError(503, OVERLOADED, f"this server is at its limit of {self.concurrency} uncached computations "
                        f"with {self.queue} waiting; cached answers are unaffected; retry after {self.retry_after} s",
                        headers={"retry-after": str(self.retry_after)})

    def refuse_if_full(self) -> None:
        """ApiError 503 `overloaded` now when `admit` would refuse: before the work of starting a
        computation that could not run."""
        if self._slots.locked() and self.waiting >= self.queue:
            raise self._overloaded()

    @asynccontextmanager
    async def admit(self) -> AsyncIterator[None]:
        """Hold one computation slot for the block; ApiError 503 `overloaded` when none is free
        and the queue is full."""
        if self._slots.locked():
            if self.waiting >= self.queue:
                raise self._overloaded()
            self.waiting += 1
            try:
                await self._slots.acquire()
            finally:
                self.waiting -= 1
        else:
            await self._slots.acquire()  # free: returns without suspending
        self.running += 1
        try:
            yield
        finally:
            self.running -= 1
            self._slots.release()
