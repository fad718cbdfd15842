"""Partition keys, snapshot times and the run tags that bound a snapshot run: plain time math,
shared by the assets, the orchestration and the API's cron trigger (which imports no Dagster).

- A daily partition key is a UTC day `YYYY-MM-DD`.
- The snapshot taken at a 15-minute boundary T belongs to the day partition of T - 15 minutes:
  a day D holds the 96 snapshots D 00:15 .. D+1 00:00.
- A snapshot run takes the snapshot times of its day(s) between its `ve/snapshots_from` and
  `ve/snapshots_until` tags (ISO 8601 UTC, inclusive); `ve/force=true` re-materializes times
  that are already published.
"""
from __future__ import annotations

from datetime import datetime, timezone

from . import clock
from .epochs import DAY, HOUR, QUARTER_HOUR, floor_to, iso

DAILY_FMT = "%Y-%m-%d"
SNAPSHOTS_FROM_TAG = "ve/snapshots_from"  # ISO 8601 UTC, inclusive
SNAPSHOTS_UNTIL_TAG = "ve/snapshots_until"  # ISO 8601 UTC, inclusive
FORCE_TAG = "ve/force"  # "true": re-materialize snapshots that are already published
# Dagster's own run tags (system tags, part of its documented run metadata)
PARTITION_TAG = "dagster/partition"
BACKFILL_TAG = "dagster/backfill"
RANGE_START_TAG = "dagster/asset_partition_range_start"
RANGE_END_TAG = "dagster/asset_partition_range_end"


def _now(now: float | None) -> int:
    return int(now if now is not None else clock.now())


def day_key(ts: int) -> str:
    return datetime.fromtimestamp(floor_to(ts, DAY), tz=timezone.utc).strftime(DAILY_FMT)


def day_start_of(key: str) -> int:
    return int(datetime.strptime(key, DAILY_FMT).replace(tzinfo=timezone.utc).timestamp())


def snapshot_day_key(snapshot_at: int) -> str:
    """Key of the daily partition holding the snapshot taken at `snapshot_at` (a 15-minute boundary)."""
    if snapshot_at % QUARTER_HOUR:
        raise ValueError(f"{snapshot_at} is not a 15-minute boundary")
    return day_key(snapshot_at - QUARTER_HOUR)


def snapshot_tags(first: int, last: int, *, force: bool = False) -> dict[str, str]:
    """Run tags bounding a snapshot run to the snapshot times [first, last]."""
    tags = {SNAPSHOTS_FROM_TAG: iso(first), SNAPSHOTS_UNTIL_TAG: iso(last)}
    if force:
        tags[FORCE_TAG] = "true"
    return tags


def parse_tag_time(value: str) -> int:
    return int(datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp())


def latest_snapshot_at(now: float | None = None) -> int:
    """The newest 15-minute boundary at or before `now`: the snapshot that has just been due."""
    return floor_to(_now(now), QUARTER_HOUR)


def latest_day_key(now: float | None = None) -> str:
    """The daily partition containing the newest hour that has ended by `now`."""
    return day_key(floor_to(_now(now), HOUR) - HOUR)


def snapshot_window_start_ts(partition_days: int, now: float | None = None) -> int:
    """Start of the first snapshot partition: `partition_days` before today's UTC midnight."""
    return floor_to(_now(now), DAY) - partition_days * DAY
