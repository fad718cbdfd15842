"""Epoch and time-bucket math, in one place.

An epoch is a 7-day week that starts Thursday 00:00 UTC, identified by its start in Unix
seconds. 1970-01-01 was a Thursday, so epoch starts are exactly the multiples of WEEK.
"""
from __future__ import annotations

from datetime import datetime, timezone

HOUR = 3600
DAY = 86400
WEEK = 7 * DAY
QUARTER_HOUR = 900
# The warehouse's time arithmetic ends with 32-bit Unix time (2106-02-07 06:28:15 UTC): the last
# epoch it can place is the one starting on or before that second (2106-02-04).
MAX_UNIX_TIME = 2**32 - 1


def epoch_start(ts: int) -> int:
    """Start of the epoch containing `ts` (Unix seconds)."""
    return ts - ts % WEEK


LAST_EPOCH_START = epoch_start(MAX_UNIX_TIME)


def is_epoch_start(ts: int) -> bool:
    return ts >= 0 and ts % WEEK == 0


def next_epoch_start(ts: int) -> int:
    return epoch_start(ts) + WEEK


def floor_to(ts: int, step: int) -> int:
    return ts - ts % step


def hour_start(ts: int) -> int:
    return floor_to(ts, HOUR)


def day_start(ts: int) -> int:
    return floor_to(ts, DAY)


def to_datetime(ts: int | float) -> datetime:
    return datetime.fromtimestamp(ts, tz=timezone.utc)


def iso(ts: int | float | datetime) -> str:
    """ISO 8601 UTC with a Z suffix, second precision (the form every route prints)."""
    dt = ts if isinstance(ts, datetime) else to_datetime(ts)
    return dt.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
