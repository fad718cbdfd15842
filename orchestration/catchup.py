"""Catch-up, per chain: `catchup_sensor_<chain>` refills the 15-minute snapshots the chain missed.

The snapshot schedule takes only the boundary that has just passed, and skips it while a snapshot
run of the chain is in progress; a failed run or backfill leaves its boundaries unpublished. This
sensor (default RUNNING, every CATCHUP_INTERVAL_SECONDS) brings them back without a manual step:

1. while a snapshot run of the chain is in progress it launches nothing (the run may be filling
   the holes, and two runs of one chain would only compete for its upstream);
2. it probes the upstream (readers.liveness: chain head and subgraph `_meta`, short timeout, one
   try); while it does not answer it launches nothing and says why;
3. it reads the chain's missing snapshot ranges in its snapshot window from the warehouse
   (queries/common/snapshot_holes.sql, the same file the health routes serve), with the upstream's
   now as the window's end minus one 15-minute step: the newest boundary is the schedule's;
4. it launches at most MAX_RUNS_PER_TICK runs of the chain's snapshot job, each one piece of a
   range within one day partition, newest first: the routes and the rolling windows read the
   newest snapshots, and the oldest boundaries are the next to leave the window anyway.

Each launching tick is a new round (the sensor's cursor); a run's key is its range and round, so a
tick never launches the same fill twice, while a range whose run failed (the upstream died again)
is launched again by a later round once the upstream answers.
"""
from __future__ import annotations

from typing import Iterable

from dagster import DefaultSensorStatus, RunRequest, SensorDefinition, SensorEvaluationContext, SkipReason, sensor

from ..assets.partitions import day_start_of, snapshot_day_key, snapshot_tags
from ..assets.resources import WarehouseResource
from ..core.config import Settings
from ..core.epochs import QUARTER_HOUR, iso
from ..core.pipeline_names import catchup_sensor
from ..readers.liveness import UpstreamDown, probe_upstream
from ..warehouse import sqlbook
from .schedules import runs_in_progress

CATCHUP_INTERVAL_SECONDS = 60  # between two evaluations of a chain's sensor
MAX_RUNS_PER_TICK = 4  # runs (one day partition each) a tick launches at most
MAX_RANGES_READ = 50  # missing ranges a tick reads (newest first); the rest come in later rounds
HOLES_SQL = "queries/common/snapshot_holes.sql"
Hole = tuple[int, int, int]  # (first missing, last missing, count), Unix seconds


def fill_pieces(holes: Iterable[Hole], limit: int) -> list[tuple[int, int]]:
    """Pieces (first, last) of the missing ranges (newest first) that each lie within one
    snapshot day partition (D 00:15 .. D+1 00:00), newest first, at most `limit`."""
    pieces: list[tuple[int, int]] = []
    for first, last, _ in holes:
        while last >= first and len(pieces) < limit:
            day_first = day_start_of(snapshot_day_key(last)) + QUARTER_HOUR
            start = max(first, day_first)
            pieces.append((start, last))
            last = start - QUARTER_HOUR
    return pieces


def missing_ranges(client, chain_id: int, depth_days: int, now: int, grace: int, limit: int) -> list[Hole]:
    """The chain's missing ranges in its window ending at `now` - `grace`, newest first (at most
    `limit`); none when its first market activity is not known yet."""
    result = client.query(sqlbook.sql(HOLES_SQL).text, parameters={
        "chain_ids": [chain_id], "depth_days": [depth_days], "now_ts": int(now), "grace_seconds": int(grace),
        "max_ranges": limit})
    rows = list(result.named_results())
    return [tuple(int(x) for x in r) for r in rows[0]["ranges"]] if rows else []


def fill_request(chain_id: int, first: int, last: int, round_: int) -> RunRequest:
    return RunRequest(run_key=f"{iso(first)}..{iso(last)}#{round_}", partition_key=snapshot_day_key(last),
                      tags={**snapshot_tags(first, last), "trigger": "catchup_sensor"})


def build_catchup_sensor(settings: Settings, chain_id: int, snapshot_job) -> SensorDefinition:
    chain = settings.chain(chain_id)

    @sensor(
        name=catchup_sensor(chain_id),
        job=snapshot_job,
        minimum_interval_seconds=CATCHUP_INTERVAL_SECONDS,
        default_status=DefaultSensorStatus.RUNNING,
        description=f"Chain {chain_id}: refills the 15-minute snapshots missing in its snapshot window (failed "
                    "runs, skipped boundaries, backfill holes), newest first, once its upstream answers.",
    )
    def catchup(context: SensorEvaluationContext, warehouse: WarehouseResource):
        running = runs_in_progress(context.instance, snapshot_job.name)
        if running:
            return SkipReason(f"{snapshot_job.name} run {running[0]} is in progress")
        try:
            live = probe_upstream(chain.rpc_url, chain.subgraph_url)
        except UpstreamDown as exc:
            return SkipReason(f"chain {chain_id}: the upstream does not answer, nothing launched ({exc})")
        with warehouse.client() as client:
            holes = missing_ranges(client, chain_id, chain.snapshot_days, live.now, QUARTER_HOUR, MAX_RANGES_READ)
        if not holes:
            return SkipReason(f"chain {chain_id}: no snapshot missing in its window up to {iso(live.now - QUARTER_HOUR)}")
        round_ = int(context.cursor or 0) + 1
        context.update_cursor(str(round_))
        return [fill_request(chain_id, first, last, round_) for first, last in fill_pieces(holes, MAX_RUNS_PER_TICK)]

    return catchup
