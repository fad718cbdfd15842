"""What a chain's backfill materializes, in which order: plain time math, no Dagster calls.

A chain's history (hourly buckets, rollups, events, vault history) reaches back to its first
market activity; its 15-minute snapshots only as far as its snapshot depth (the chain book's
`snapshotDays`: 30 days on chain 56, 7 elsewhere). The order makes every chain answer early:

1. `recent_days`: the history days the snapshots' rolling windows read (the snapshot range plus
   the longest flow window before it), in one run;
2. `newest`: the newest snapshot, in one run: the chain is published and fresh from here on;
3. `snapshots` (the rest of the depth) and `older_days` (history back to the first activity), as
   two Dagster backfills that fill in behind.

Every time and day is bounded by the upstream's "now" (the older of the chain head and the
subgraph's indexed head: a lagging subgraph bounds what can be read) and by the partitions.
History days every history asset of the chain has already materialized are left out, except
the last REFRESH_DAYS (their hours may have ended since), so a second pass only tops up.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..assets.partitions import daily_partitions, day_start_of, snapshot_partitions
from ..core.config import Settings
from ..core.epochs import DAY, HOUR, QUARTER_HOUR, floor_to
from ..core.windows import FLOW_WINDOWS

LONGEST_WINDOW = max(FLOW_WINDOWS.values())
REFRESH_DAYS = 2  # the newest history days are always read again


@dataclass(frozen=True)
class ChainPlan:
    chain_id: int
    now: int  # the upstream's now: min(chain head, subgraph head) time
    first_activity: int  # the first pool's creation
    last_hour_end: int  # history reads hours ending by this time
    recent_days: list[str] = field(default_factory=list)
    older_days: list[str] = field(default_factory=list)
    newest: int | None = None
    snapshots: list[int] = field(default_factory=list)  # excluding `newest`

    @property
    def snapshot_total(self) -> int:
        return len(self.snapshots) + (self.newest is not None)


def snapshot_times(settings: Settings, chain_id: int, now: int, start: int, *, days: int | None,
                   snapshot_hours: int | None, until_offset: int) -> list[int]:
    """Every 15-minute boundary up to the last completed one (its block must be final), within
    the chain's snapshot depth and partitions, its protocol's life and the `days` /
    `snapshot_hours` limits."""
    keys = snapshot_partitions(settings, chain_id).get_partition_keys()
    if not keys:
        return []
    last_t = floor_to(now - 1 - until_offset, QUARTER_HOUR)
    depth = settings.chain(chain_id).snapshot_days
    first_t = max(-(-start // QUARTER_HOUR) * QUARTER_HOUR, day_start_of(keys[0]) + QUARTER_HOUR,
                  last_t - depth * DAY + QUARTER_HOUR)
    if days:
        first_t = max(first_t, last_t - days * DAY + QUARTER_HOUR)
    if snapshot_hours:
        first_t = max(first_t, last_t - snapshot_hours * HOUR + QUARTER_HOUR)
    last_t = min(last_t, day_start_of(keys[-1]) + DAY)
    return list(range(first_t, last_t + 1, QUARTER_HOUR)) if last_t >= first_t else []


def history_keys(settings: Settings, chain_id: int, now: int, start: int, days: int | None) -> tuple[list[str], int]:
    """Daily partitions to backfill: every day from the first activity up to the one holding the
    last completed hour (the last `days` of them); and the end of that hour."""
    last_hour_end = floor_to(now, HOUR)
    first_day = floor_to(start, DAY)
    if days:
        first_day = max(first_day, floor_to(last_hour_end - HOUR, DAY) - (days - 1) * DAY)
    keys = daily_partitions(settings, chain_id).get_partition_keys()
    return [k for k in keys if first_day <= day_start_of(k) < last_hour_end], last_hour_end


def plan_chain(settings: Settings, chain_id: int, now: int, start: int, *, published: set[int],
               done_days: set[str] = frozenset(), days: int | None = None, snapshot_hours: int | None = None,
               until_offset: int = 0, force: bool = False) -> ChainPlan:
    """The chain's plan; `published` snapshot times and `done_days` (history days materialized by
    every history asset) are left out unless `force`."""
    times = snapshot_times(settings, chain_id, now, start, days=days, snapshot_hours=snapshot_hours,
                           until_offset=until_offset)
    keys, last_hour_end = history_keys(settings, chain_id, now, start, days)
    if not force:
        keys = [k for k in keys[:-REFRESH_DAYS] if k not in done_days] + keys[-REFRESH_DAYS:]
    # the history the snapshots' windows read comes first; without snapshots, the last window
    reads_from = (times[0] if times else floor_to(now, HOUR)) - LONGEST_WINDOW
    recent = [k for k in keys if day_start_of(k) + DAY > reads_from]
    older = [k for k in keys if day_start_of(k) + DAY <= reads_from]
    todo = times if force else [t for t in times if t not in published]
    newest = todo[-1] if todo else None
    return ChainPlan(chain_id, now, start, last_hour_end, recent, older, newest, todo[:-1])
