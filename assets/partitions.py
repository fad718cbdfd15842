"""Partitions: daily, for the 15-minute snapshots and for the history.

Every chain has its own partitions (its assets are its own, see assets.chain_scope):

- snapshots: one partition per UTC day D holds the 96 snapshots taken at the ends of its 15-minute
  windows, D 00:15 .. D+1 00:00. A run of a partition (range) takes the snapshot times of its
  days between its `ve/snapshots_from` and `ve/snapshots_until` tags (default: up to the last
  15-minute boundary before the run was created), skipping the ones already published unless
  tagged `ve/force=true`. The schedule runs the current day every 15 minutes for the one
  boundary that just passed. The window starts the chain's snapshot depth plus one day before
  today's UTC midnight (31 days on chain 56, 8 elsewhere; SNAPSHOT_PARTITION_DAYS overrides it):
  the partitions follow the depth the backfill fills, while published snapshots older than the
  window stay in the warehouse. Why daily and not one partition per 15 minutes: Dagster stores one
  materialization event per asset and partition, which made the bookkeeping of a 90-day
  backfill (8,640 partitions x 9 assets) cost more than reading and writing the data; daily
  partitions keep it at 31 per asset. A backfill of the snapshots makes one run per
  SNAPSHOT_DAYS_PER_RUN days (the snapshot assets' BackfillPolicy.multi_run), which the
  instance's run queue runs a few at a time.
- history: one partition per UTC day from the chain's deployment (`deployedAt` in the chain book;
  HISTORY_START overrides it) that writes that day's 24 hourly buckets, its daily rollups and
  events; a backfill range of it is one run. Daily, not hourly: a chain's whole history (about
  430 days on chain 56) stays a few hundred partitions per asset.
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


def snapshot_window_start(settings: Settings, chain_id: int, now: float | None = None) -> datetime:
    days = settings.snapshot_window_days(chain_id)
    return datetime.fromtimestamp(snapshot_window_start_ts(days, now), tz=timezone.utc)


def history_start(settings: Settings, chain_id: int, now: float | None = None) -> datetime:
    """HISTORY_START (YYYY-MM-DD, UTC) for every chain, else the day the chain's protocol was
    deployed (the book's `deployedAt`), else the chain's snapshot window start."""
    if settings.history_start:
        return datetime.strptime(settings.history_start[:10], DAILY_FMT).replace(tzinfo=timezone.utc)
    deployed = settings.chain(chain_id).deployed_at
    if deployed is not None:
        return datetime.fromtimestamp(deployed - deployed % 86400, tz=timezone.utc)
    return snapshot_window_start(settings, chain_id, now)


def snapshot_partitions(settings: Settings, chain_id: int, now: float | None = None) -> DailyPartitionsDefinition:
    return DailyPartitionsDefinition(
        start_date=snapshot_window_start(settings, chain_id, now), timezone="UTC", fmt=DAILY_FMT, end_offset=1
    )


def daily_partitions(settings: Settings, chain_id: int, now: float | None = None) -> DailyPartitionsDefinition:
    return DailyPartitionsDefinition(
        start_date=history_start(settings, chain_id, now), timezone="UTC", fmt=DAILY_FMT, end_offset=1
    )
