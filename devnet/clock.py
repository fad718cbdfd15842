"""Clocks: the wall clock for `make up` (optionally shifted: a stack pinned to an instant in the past
runs on from it), a manual clock for tests (fixed, advanced on demand)."""
from __future__ import annotations

import threading
import time

from devnet.config import clock_offset_from_env


class WallClock:
    """The wall clock `offset` seconds away (default DEVNET_CLOCK_OFFSET, else 0; negative: the past)."""

    manual = False

    def __init__(self, offset: float | None = None):
        self.offset = clock_offset_from_env() if offset is None else float(offset)

    def now(self) -> int:
        return int(time.time() + self.offset)


class ManualClock:
    """A fixed "now" that only moves through `advance` / `set`."""

    manual = True

    def __init__(self, now: int):
        self._now = int(now)
        self._lock = threading.Lock()

    def now(self) -> int:
        return self._now

    def advance(self, seconds: int) -> int:
        if seconds < 0:
            raise ValueError("the clock only moves forward")
        with self._lock:
            self._now += int(seconds)
            return self._now

    def set(self, now: int) -> int:
        with self._lock:
            if now < self._now:
                raise ValueError("the clock only moves forward")
            self._now = int(now)
            return self._now
