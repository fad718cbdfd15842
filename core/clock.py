"""The product's one "now": the wall clock, unless a test or demo setting shifts or freezes it.

Every read of "now" for data or freshness (snapshot times, partition keys, ages, coverage,
envelopes) goes through `now()`; durations and timeouts keep the monotonic clock. Times that
Dagster supplies on its own wall clock (a run's creation or start, a schedule tick) are put on
this clock with `from_wall()`.

- `VEA_CLOCK_OFFSET_SECONDS` (float): a running clock that many seconds from the wall clock
  (negative: in the past). Every process of a stack that reads it agrees on "now".
- `VEA_CLOCK_FROZEN_AT` (Unix seconds or ISO 8601 UTC): a clock stopped at that instant; it wins
  over the offset.

Both are read from the environment on each call (the values are parsed once per distinct text),
so a process and the processes it starts agree. Production leaves them unset.
"""
from __future__ import annotations

import os
import time
from datetime import datetime, timezone
from functools import lru_cache

OFFSET_ENV = "VEA_CLOCK_OFFSET_SECONDS"
FROZEN_ENV = "VEA_CLOCK_FROZEN_AT"


def parse_instant(text: str) -> float:
    """Unix seconds (`1764201900`) or ISO 8601 (`2026-11-26T00:05:00Z`; without a zone: UTC)."""
    text = text.strip()
    try:
        return float(text)
    except ValueError:
        pass
    try:
        at = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise ValueError(f"{text!r} is neither Unix seconds nor an ISO 8601 instant") from None
    return (at if at.tzinfo else at.replace(tzinfo=timezone.utc)).timestamp()


@lru_cache(maxsize=8)  # a process sees one or two distinct values in its life
def _parsed(offset: str, frozen: str) -> tuple[float, float | None]:
    try:
        shift = float(offset) if offset else 0.0
    except ValueError:
        raise ValueError(f"{OFFSET_ENV}={offset!r} is not a number of seconds") from None
    try:
        stop = parse_instant(frozen) if frozen else None
    except ValueError as exc:
        raise ValueError(f"{FROZEN_ENV}: {exc}") from None
    return shift, stop


def _setting() -> tuple[float, float | None]:
    return _parsed(os.environ.get(OFFSET_ENV, ""), os.environ.get(FROZEN_ENV, ""))


def now() -> float:
    """Unix seconds on the product's clock."""
    shift, frozen = _setting()
    return frozen if frozen is not None else time.time() + shift


def from_wall(wall_ts: float) -> float:
    """A wall-clock instant (Dagster's run creation or start, a schedule tick) on the product's clock."""
    shift, frozen = _setting()
    return frozen if frozen is not None else wall_ts + shift

