"""Time buckets of the simulation (the devnet's own: it imports nothing from the product).

An epoch is a 7-day week that starts Thursday 00:00 UTC; 1970-01-01 was a Thursday, so epoch
starts are exactly the multiples of WEEK.
"""
from __future__ import annotations

from datetime import datetime, timezone

HOUR = 3600
DAY = 86400
WEEK = 7 * DAY


def epoch_start(ts: int) -> int:
    return ts - ts % WEEK


def hour_start(ts: int) -> int:
    return ts - ts % HOUR


def iso(ts: int | float) -> str:
    """ISO 8601 UTC with a Z suffix, second precision."""
    return datetime.fromtimestamp(ts, tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
