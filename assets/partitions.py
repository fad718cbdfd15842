"""Partitions: daily, for the 15-minute snapshots and for the history.

- snapshots: one partition per UTC day D holds the 96 snapshots taken at the ends of its 15-minute
  windows, D 00:15 .. D+1 00:00. A run of a partition (range) takes the snapshot times of its
  days between its `ve/snapshots_from` and `ve/snapshots_until` tags (default: up to the last
  15-minute boundary before the run was created), skipping the ones already published unless
  tagged `ve/force=true`. The schedule runs the current day every 15 minutes for the one
  boundary that just passed. The window starts `snapshot_partition_days` (92 by default) before
  today's UTC midnight. Why daily and not one partition per 15 minutes: Dagster stores one
  materialization event per asset and partition, which made the bookkeeping of a 90-day
  backfill (8,640 partitions x 9 assets) cost more than reading and writing the data; daily
  partitions keep it at 92 per asset.
- history: one partition per UTC day from HISTORY_START (default: the same start date) that
  writes that day's 24 hourly buckets and its daily rollups.
Both include the current UTC day (end_offset=1): its runs write what has ended so far.
"""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from dagster import DailyPartitionsDefinition

from ve_analytics.core.config import Settings
from ve_analytics.core.epochs import DAY, QUARTER_HOUR, floor_to, iso

DAILY_FMT = "%Y-%m-%d"
SNAPSHOTS_FROM_TAG = "ve/snapshots_from"  # ISO 8601 UTC, inclusive
SNAPSHOTS_UNTIL_TAG = "ve/snapshots_until"  # ISO 8601 UTC, inclusive
FORCE_TAG = "ve/force"  # "true": re-materialize snapshots that are already published


def snapshot_window_start(settings: Settings, now: float | None = None) -> datetime:
    now_ts = int(now if now is not None else datetime.now(timezone.utc).timestamp())
    return datetime.fromtimestamp(floor_to(now_ts, DAY), tz=timezone.utc) - timedelta(
        days=settings.snapshot_partition_days
    )


def history_start(settings: Settings, now: float | None = None) -> datetime:
    """HISTORY_START (YYYY-MM-DD, UTC) or the snapshot window's start date."""
    if settings.history_start:
        return datetime.strptime(settings.history_start[:10], DAILY_FMT).replace(tzinfo=timezone.utc)
    return snapshot_window_start(settings, now)


def snapshot_partitions(settings: Settings, now: float | None = None) -> DailyPartitionsDefinition:
    return DailyPartitionsDefinition(
        start_date=snapshot_window_start(settings, now), timezone="UTC", fmt=DAILY_FMT, end_offset=1
    )


def daily_partitions(settings: Settings, now: float | None = None) -> DailyPartitionsDefinition:
    return DailyPartitionsDefinition(
        start_date=history_start(settings, now), timezone="UTC", fmt=DAILY_FMT, end_offset=1
    )


# -- keys <-> times --------------------------------------------------------------------------
def _parse(key: str, fmt: str) -> int:
    return int(datetime.strptime(key, fmt).replace(tzinfo=timezone.utc).timestamp())


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


def day_key(ts: int) -> str:
    return datetime.fromtimestamp(floor_to(ts, DAY), tz=timezone.utc).strftime(DAILY_FMT)


def day_start_of(key: str) -> int:
    return _parse(key, DAILY_FMT)


def latest_snapshot_at(now: float | None = None) -> int:
    """The newest 15-minute boundary at or before `now`: the snapshot that has just been due."""
    now_ts = int(now if now is not None else datetime.now(timezone.utc).timestamp())
    return floor_to(now_ts, QUARTER_HOUR)


def latest_day_key(now: float | None = None) -> str:
    """The daily partition containing the newest hour that has ended by `now`."""
    now_ts = int(now if now is not None else datetime.now(timezone.utc).timestamp())
    return day_key(floor_to(now_ts, 3600) - 3600)
