"""Partitions: 15-minute snapshots over a bounded recent window, daily partitions for history.

- `snapshot15m`: one partition per 15-minute window; the partition keyed by its start S holds the
  snapshot taken at its end T = S + 15 min. The window starts `snapshot_partition_days` (92 by
  default, ~8.8k partitions) before today's UTC midnight and so moves forward daily. Why bounded:
  Dagster's UI and daemon slow down with tens of thousands of partitions per asset, and older
  observations are served from hourly/daily history rather than from 15-minute snapshots.
- `daily`: one partition per UTC day from HISTORY_START (default: the same start date) that
  writes that day's 24 hourly buckets and its daily rollups; years of history stay in the
  hundreds of partitions. The current UTC day is included (end_offset=1): its run writes the hours
  that have ended so far.
"""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from dagster import DailyPartitionsDefinition, TimeWindowPartitionsDefinition

from core.config import Settings
from core.epochs import DAY, QUARTER_HOUR, floor_to

SNAPSHOT_FMT = "%Y-%m-%d-%H:%M"
DAILY_FMT = "%Y-%m-%d"


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


def snapshot_partitions(settings: Settings, now: float | None = None) -> TimeWindowPartitionsDefinition:
    return TimeWindowPartitionsDefinition(
        cron_schedule="*/15 * * * *",
        start=snapshot_window_start(settings, now),
        fmt=SNAPSHOT_FMT,
        timezone="UTC",
    )


def daily_partitions(settings: Settings, now: float | None = None) -> DailyPartitionsDefinition:
    return DailyPartitionsDefinition(
        start_date=history_start(settings, now), timezone="UTC", fmt=DAILY_FMT, end_offset=1
    )


# -- keys <-> times --------------------------------------------------------------------------
def _parse(key: str, fmt: str) -> int:
    return int(datetime.strptime(key, fmt).replace(tzinfo=timezone.utc).timestamp())


def snapshot_key(snapshot_at: int) -> str:
    """Partition key of the snapshot taken at `snapshot_at` (a 15-minute boundary)."""
    if snapshot_at % QUARTER_HOUR:
        raise ValueError(f"{snapshot_at} is not a 15-minute boundary")
    return datetime.fromtimestamp(snapshot_at - QUARTER_HOUR, tz=timezone.utc).strftime(SNAPSHOT_FMT)


def snapshot_at_of(key: str) -> int:
    """Snapshot time (partition end) of a snapshot partition key."""
    return _parse(key, SNAPSHOT_FMT) + QUARTER_HOUR


def day_key(ts: int) -> str:
    return datetime.fromtimestamp(floor_to(ts, DAY), tz=timezone.utc).strftime(DAILY_FMT)


def day_start_of(key: str) -> int:
    return _parse(key, DAILY_FMT)


def latest_snapshot_key(now: float | None = None) -> str:
    """The newest 15-minute partition that has ended by `now` (snapshot at floor15(now))."""
    now_ts = int(now if now is not None else datetime.now(timezone.utc).timestamp())
    return snapshot_key(floor_to(now_ts, QUARTER_HOUR))


def latest_day_key(now: float | None = None) -> str:
    """The daily partition containing the newest hour that has ended by `now`."""
    now_ts = int(now if now is not None else datetime.now(timezone.utc).timestamp())
    return day_key(floor_to(now_ts, 3600) - 3600)
