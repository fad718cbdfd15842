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
  partitions keep it at 92 per asset. A backfill of the snapshots makes one run per
  SNAPSHOT_DAYS_PER_RUN days (the snapshot assets' BackfillPolicy.multi_run), which the
  instance's run queue runs a few at a time.
- history: one partition per UTC day from HISTORY_START (default: the same start date) that
  writes that day's 24 hourly buckets and its daily rollups; a backfill of it is one run.
Both include the current UTC day (end_offset=1): its runs write what has ended so far.

The key and tag helpers are plain time math in core.partition_keys (the API's cron trigger uses
them without Dagster); they are re-exported here for the assets.
"""
from __future__ import annotations

from datetime import datetime, timezone

from dagster import DailyPartitionsDefinition

from ..core.config import Settings
from ..core.partition_keys import (  # noqa: F401 - re-exported for the assets
    DAILY_FMT,
    FORCE_TAG,
    SNAPSHOTS_FROM_TAG,
    SNAPSHOTS_UNTIL_TAG,
    day_key,
    day_start_of,
    latest_day_key,
    latest_snapshot_at,
    parse_tag_time,
    snapshot_day_key,
    snapshot_tags,
    snapshot_window_start_ts,
)

# Days of snapshots per backfill run (the snapshot assets' BackfillPolicy.multi_run): as many
# snapshots per run as a few processes can work through in parallel without Dagster's
# per-partition bookkeeping dominating.
SNAPSHOT_DAYS_PER_RUN = 4


def snapshot_window_start(settings: Settings, now: float | None = None) -> datetime:
    return datetime.fromtimestamp(snapshot_window_start_ts(settings.snapshot_partition_days, now), tz=timezone.utc)


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
