"""Catch-up, per chain: `catchup_sensor_<chain>` refills the history hours and the 15-minute
snapshots the chain missed.

The snapshot schedule takes only the boundary that has just passed, and skips it while a snapshot
run of the chain is in progress; a failed run or backfill leaves its hours or boundaries
unwritten. This sensor (default RUNNING, every CATCHUP_INTERVAL_SECONDS, 60) brings them back without
a manual step:

1. while a run of the chain's snapshot or history job, or a backfill of either, is in progress it
   launches nothing (it may be filling the holes, and runs of one chain would only compete for its
   upstream);
2. it probes the upstream (readers.liveness: chain head and subgraph `_meta`, short timeout, one
   try); while it does not answer it launches nothing and says why;
3. it reads what the chain is missing from the warehouse (queries/common/coverage_holes.sql, the
   file the health routes serve), with the upstream's now as the windows' end: history hours that
   had ended by then, snapshot boundaries up to one 15-minute step before (the newest boundary is
   the schedule's);
4. history first (the snapshots' rolling windows read it): at most MAX_RUNS_PER_TICK runs of the
   history job, one missing day each; else at most MAX_RUNS_PER_TICK runs of the snapshot job,
   each one piece of a missing range within one day partition. Newest first: the routes and the
   rolling windows read the newest data, and the oldest boundaries are the next to leave the
   snapshot window anyway. History days still missing after their round (hours the upstream
   cannot give yet) do not hold the snapshots up: the next round takes the snapshots, and the
   same days are tried again after HISTORY_RETRY_SECONDS.

Each launching tick is a new round (the sensor's cursor: the round, and the history days it
launched and when); a run's key is its range and round, so a tick never launches the same fill
twice, while a range whose run failed (the upstream died again) is launched again by a later round
once the upstream answers.
"""
from __future__ import annotations

import json
import time
from typing import Iterable

from dagster import DefaultSensorStatus, RunRequest, SensorDefinition, SensorEvaluationContext, SkipReason, sensor
from dagster._core.execution.backfill import BulkActionStatus

from ..assets.partitions import day_key, day_start_of, snapshot_day_key, snapshot_tags
from ..assets.resources import WarehouseResource
from ..core.config import Settings
from ..core.epochs import HOUR, QUARTER_HOUR, iso
from ..core.pipeline_names import catchup_sensor
from ..readers.liveness import UpstreamDown, probe_upstream
from ..warehouse import sqlbook
from .schedules import runs_in_progress

MAX_RUNS_PER_TICK = 4  # runs (one day partition each) a tick launches at most
MAX_RANGES_READ = 50  # missing ranges a tick reads per dataset (newest first); the rest come in later rounds
HOLES_SQL = "queries/common/coverage_holes.sql"
TRIGGER = {"trigger": "catchup_sensor"}
HISTORY_RETRY_SECONDS = 15 * 60  # history days still missing after their round are tried again after this
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


def history_days(holes: Iterable[Hole], limit: int) -> list[str]:
    """The day partitions of the missing hours (newest first), newest first, at most `limit`."""
    days: list[str] = []
    for first, last, _ in holes:
        for hour in range(last, first - 1, -HOUR):
            if len(days) >= limit:
                return days
            if day_key(hour) not in days:
                days.append(day_key(hour))
    return days


def missing_ranges(client, chain_id: int, depth_days: int, now: int) -> dict[str, list[Hole]]:
    """dataset ("snapshots", "history") -> the chain's missing ranges up to the upstream's `now`,
    newest first (at most MAX_RANGES_READ each); empty when its first market activity is not known
    yet. Every hour ended by `now` can be read; the newest boundary is left to the schedule."""
    result = client.query(sqlbook.sql(HOLES_SQL).text, parameters={
        "chain_ids": [chain_id], "depth_days": [depth_days], "now_ts": int(now), "snapshot_grace_seconds": QUARTER_HOUR,
        "history_grace_seconds": 0, "max_ranges": MAX_RANGES_READ})
    return {r["dataset"]: [tuple(int(x) for x in h) for h in r["ranges"]] for r in result.named_results()}


def next_fill(days: list[str], pieces: list[tuple[int, int]], last: dict, now: float) -> str | None:
    """What this round fills: "history" first, unless the same days were launched by a round less
    than HISTORY_RETRY_SECONDS ago (their hours are not to be had yet: they must not hold the
    snapshots up), then "snapshots"; None when neither."""
    waiting = days == last.get("history") and now - last.get("at", 0) < HISTORY_RETRY_SECONDS
    if days and not waiting:
        return "history"
    return "snapshots" if pieces else None


def busy(instance, job_names: list[str]) -> str | None:
    """Why the chain's runs are busy (a run or a backfill of its jobs in progress), else None."""
    for job in job_names:
        running = runs_in_progress(instance, job)
        if running:
            return f"{job} run {running[0]} is in progress"
    for backfill in instance.get_backfills(status=BulkActionStatus.REQUESTED, limit=50):
        if backfill.job_name in job_names:
            return f"backfill {backfill.backfill_id} of {backfill.job_name} is in progress"
    return None


def build_catchup_sensor(settings: Settings, chain_id: int, snapshot_job, history_job) -> SensorDefinition:
    chain = settings.chain(chain_id)
    jobs = [snapshot_job.name, history_job.name]

    @sensor(
        name=catchup_sensor(chain_id),
        jobs=[snapshot_job, history_job],
        minimum_interval_seconds=settings.catchup_interval_seconds,
        default_status=DefaultSensorStatus.RUNNING,
        description=f"Chain {chain_id}: refills the history hours and the 15-minute snapshots it is missing (failed "
                    "runs, skipped boundaries, backfill holes), history first, newest first, once its upstream answers.",
    )
    def catchup(context: SensorEvaluationContext, warehouse: WarehouseResource):
        why = busy(context.instance, jobs)
        if why:
            return SkipReason(why)
        try:
            live = probe_upstream(chain.rpc_url, chain.subgraph_url)
        except UpstreamDown as exc:
            return SkipReason(f"chain {chain_id}: the upstream does not answer, nothing launched ({exc})")
        with warehouse.client() as client:
            holes = missing_ranges(client, chain_id, chain.snapshot_days, live.now)
        last = json.loads(context.cursor) if context.cursor else {}
        round_, now = int(last.get("round", 0)) + 1, time.time()
        days = history_days(holes.get("history", []), MAX_RUNS_PER_TICK)
        pieces = fill_pieces(holes.get("snapshots", []), MAX_RUNS_PER_TICK)
        fill = next_fill(days, pieces, last, now)
        if fill == "history":
            context.update_cursor(json.dumps({"round": round_, "history": days, "at": now}))
            return [RunRequest(run_key=f"history {day}#{round_}", job_name=history_job.name, partition_key=day,
                               tags=TRIGGER) for day in days]
        if fill == "snapshots":
            context.update_cursor(json.dumps({**last, "round": round_}))
            return [RunRequest(run_key=f"{iso(first)}..{iso(end)}#{round_}", job_name=snapshot_job.name,
                               partition_key=snapshot_day_key(end), tags={**snapshot_tags(first, end), **TRIGGER})
                    for first, end in pieces]
        if days:
            return SkipReason(f"chain {chain_id}: history {', '.join(days)} still missing after its runs; tried again "
                              f"{HISTORY_RETRY_SECONDS // 60} minutes after them")
        return SkipReason(f"chain {chain_id}: nothing missing up to its upstream's head ({iso(live.now)})")

    return catchup
