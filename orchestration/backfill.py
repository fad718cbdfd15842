"""Materialize history and snapshots through Dagster, into the instance at settings.dagster_home
(so the runs, materializations and check results show in the Dagster UI).

    backfill(settings)              history_job over every day up to the last completed hour (one
                                    run), then snapshot_job over every 15-minute boundary up to
                                    the last completed one (runs of `chunk_days` days each)
    run_snapshot(settings[, at])    one snapshot (default: the boundary that just passed)
    run_history(settings[, key])    one history day (default: the day of the hour that just ended)

A partition range is ONE Dagster run (the assets declare BackfillPolicy.single_run and read
`context.partition_time_window`): the run carries the asset-partition-range tags, exactly what
the Dagster UI launches for a single-run backfill, plus the snapshot bounds
(orchestration.partitions.snapshot_tags). The history is one run; the snapshots are runs of
`chunk_days` days, spread over a few worker processes when there are several.

Re-running is idempotent: hourly inserts carry dedup tokens over ReplacingMergeTree tables, and
snapshot times that already have a successful run are skipped (force=True re-materializes them).
"""
from __future__ import annotations

import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from typing import Callable, Iterator

from dagster import DagsterInstance, ResourceDefinition
from dagster._core.storage.tags import ASSET_PARTITION_RANGE_END_TAG, ASSET_PARTITION_RANGE_START_TAG

from ve_analytics.assets.upstream import protocol_start
from ve_analytics.assets.publication import published_times
from ve_analytics.core.chains import STATS_CHAIN_ID
from ve_analytics.core.config import Settings
from ve_analytics.core.epochs import DAY, HOUR, QUARTER_HOUR, floor_to
from ve_analytics.assets.partitions import (
    day_key,
    day_start_of,
    latest_day_key,
    latest_snapshot_at,
    snapshot_day_key,
    snapshot_tags,
)
from ve_analytics.assets.resources import Progress
from ve_analytics.readers.chain import ChainReader
from ve_analytics.readers.graphql import SubgraphClient

SNAPSHOTS_PER_DAY = DAY // QUARTER_HOUR
PLANNED_EVENTS_ENV = "DAGSTER_EMIT_PARTITION_SUBSET_IN_PLANNED_EVENTS"


INSTANCE_YAML = """\
# Written by ve-analytics: local instance storage under this folder.
telemetry:
  enabled: false
"""
# In-process runs report progress through the `progress` resource; Dagster's own per-event
# DEBUG lines (one per partition) would bury it.
QUIET_RUN_CONFIG = {"loggers": {"console": {"config": {"log_level": "WARNING"}}}}


def ensure_instance_dir(settings: Settings) -> None:
    """DAGSTER_HOME with a dagster.yaml (telemetry off), shared by backfill, webserver and daemon."""
    settings.dagster_home.mkdir(parents=True, exist_ok=True)
    config = settings.dagster_home / "dagster.yaml"
    if not config.exists():
        config.write_text(INSTANCE_YAML)


@contextmanager
def dagster_instance(settings: Settings) -> Iterator[DagsterInstance]:
    """The persistent local instance at settings.dagster_home (created when missing)."""
    ensure_instance_dir(settings)
    instance = DagsterInstance.from_config(str(settings.dagster_home))
    try:
        yield instance
    finally:
        instance.dispose()


def range_tags(first_key: str, last_key: str) -> dict[str, str]:
    return {ASSET_PARTITION_RANGE_START_TAG: first_key, ASSET_PARTITION_RANGE_END_TAG: last_key}


def _progress_resource(progress: Callable[[str], None] | None, **kw) -> dict:
    if progress is None:
        return {}
    return {"progress": ResourceDefinition.hardcoded_resource(Progress(progress, **kw))}


def upstream_now(settings: Settings, chain_id: int = STATS_CHAIN_ID) -> tuple[int, int | None]:
    """(upstream "now", protocol start): the older of the chain and subgraph heads, and the
    creation time of the first pool (None when the subgraph has no pool yet)."""
    chain = ChainReader.from_settings(settings, chain_id)
    with SubgraphClient(settings.chain(chain_id).subgraph_url) as subgraph:
        meta = subgraph.meta()
        start = protocol_start(subgraph)
    head = chain.head()
    return min(head.timestamp, meta.block_timestamp), start


@contextmanager
def _range_planned_events() -> Iterator[None]:
    """One "materialization planned" event per asset for a range run instead of one per partition.

    Dagster's documented switch (DAGSTER_EMIT_PARTITION_SUBSET_IN_PLANNED_EVENTS) for single-run
    backfills; it halves the per-partition bookkeeping of a range run on sqlite storage. The cost:
    when such a run fails, its partitions are not each marked failed in the UI (the run is, and
    snapshot_runs records every failed snapshot).
    """
    previous = os.environ.get(PLANNED_EVENTS_ENV)
    os.environ[PLANNED_EVENTS_ENV] = "true"
    try:
        yield
    finally:
        if previous is None:
            os.environ.pop(PLANNED_EVENTS_ENV, None)
        else:
            os.environ[PLANNED_EVENTS_ENV] = previous


def _execute(defs, job_name: str, instance: DagsterInstance, *, tags: dict[str, str] | None = None,
             partition_key: str | None = None, resources: dict | None = None):
    job = defs.resolve_job_def(job_name)
    run = lambda: job.execute_in_process(  # noqa: E731
        instance=instance,
        partition_key=partition_key,
        tags=tags,
        run_config=QUIET_RUN_CONFIG,
        resources=resources or None,
        raise_on_error=True,
    )
    if tags and ASSET_PARTITION_RANGE_START_TAG in tags:
        with _range_planned_events():
            return run()
    return run()


def _contiguous(times: list[int]) -> list[list[int]]:
    runs: list[list[int]] = []
    for t in times:
        if runs and t - runs[-1][-1] == QUARTER_HOUR:
            runs[-1].append(t)
        else:
            runs.append([t])
    return runs


def _batches(times: list[int], size: int) -> list[list[int]]:
    """Contiguous stretches of `times` cut into near-equal runs of at most `size` snapshots. A run
    covers the day partitions its times fall in, bounded to them by its tags (two runs may share
    a day)."""
    out: list[list[int]] = []
    for run in _contiguous(times):
        n = -(-len(run) // size)
        step = -(-len(run) // n)
        out.extend(run[i : i + step] for i in range(0, len(run), step))
    return out


def _hm(ts: int) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.gmtime(ts))


def _batch_tags(batch: list[int], force: bool) -> dict[str, str]:
    """A snapshot run over the days of `batch`, bounded to its first and last snapshot time."""
    return {**range_tags(snapshot_day_key(batch[0]), snapshot_day_key(batch[-1])),
            **snapshot_tags(batch[0], batch[-1], force=force)}


def _snapshot_batch(settings: Settings, tags: dict[str, str]) -> str:
    """One snapshot_job run over a partition range, in a worker process; returns the run id."""
    from ve_analytics.orchestration.definitions import build_defs

    with dagster_instance(settings) as instance:
        result = _execute(
            build_defs(settings), "snapshot_job", instance,
            tags=tags,
            resources=_progress_resource(lambda line: None),
        )
    return result.run_id


def _snapshot_batches_in_processes(settings, batches, force, workers, summary, say, started, total) -> None:
    done = 0
    ctx = multiprocessing.get_context("spawn")  # a clean interpreter: no inherited threads or sockets
    with ProcessPoolExecutor(max_workers=min(workers, len(batches)), mp_context=ctx) as pool:
        futures = {
            pool.submit(_snapshot_batch, settings, _batch_tags(b, force)): b for b in batches
        }
        try:
            for future in as_completed(futures):
                batch = futures[future]
                summary["snapshot_run_ids"].append(future.result())
                summary["published"].extend(batch)
                done += len(batch)
                say(f"snapshots {done:,}/{total:,} ({100 * done // total}%) {time.monotonic() - started:.0f} s elapsed")
        except BaseException:
            for f in futures:
                f.cancel()
            raise
    summary["published"].sort()


def backfill(
    settings: Settings,
    *,
    days: int | None = None,
    progress: Callable[[str], None] | None = print,
    snapshots_until_offset: int = 0,
    snapshot_hours: int | None = None,
    chunk_days: float = 4,
    workers: int | None = None,
    force: bool = False,
    chain_id: int = STATS_CHAIN_ID,
) -> dict:
    """Materialize the upstream history through Dagster; returns a summary dict.

    `days` limits both history and snapshots to the most recent N days; `snapshot_hours` limits
    snapshots further; `snapshots_until_offset` stops the snapshots that many seconds before the
    newest completed boundary (the API then starts stale, for tests). Snapshot runs cover
    `chunk_days` each; with several runs they go to `workers` processes (default: one per CPU,
    at most 4), because Dagster's per-partition bookkeeping is CPU-bound Python.
    """
    from ve_analytics.orchestration.definitions import build_defs
    from ve_analytics.warehouse.client import get_client

    say = progress or (lambda line: None)
    workers = workers if workers is not None else min(4, os.cpu_count() or 1)
    started = time.monotonic()
    now, start = upstream_now(settings, chain_id)
    defs = build_defs(settings)
    summary: dict = {"history_run_id": None, "history_days": 0, "snapshot_run_ids": [], "published": [],
                     "snapshots": 0}
    if start is None:
        say("backfill: the subgraph has no pool yet, nothing to materialize")
        return summary

    with dagster_instance(settings) as instance:
        # 1. History: every day up to the one holding the last completed hour, in one run.
        daily_keys = defs.resolve_job_def("history_job").partitions_def.get_partition_keys()
        last_hour_end = floor_to(now, HOUR)
        first_day = floor_to(start, DAY)
        if days:
            first_day = max(first_day, floor_to(last_hour_end - HOUR, DAY) - (days - 1) * DAY)
        wanted = [k for k in daily_keys if first_day <= day_start_of(k) < last_hour_end]
        if wanted:
            say(f"history: {len(wanted):,} days {wanted[0]}..{wanted[-1]} (hours ending by {_hm(last_hour_end)} UTC) in one run")
            result = _execute(
                defs, "history_job", instance,
                tags=range_tags(wanted[0], wanted[-1]),
                resources=_progress_resource(progress, started=started, every=1),
            )
            summary["history_run_id"] = result.run_id
            say(f"history {len(wanted):,}/{len(wanted):,} days (100%) {time.monotonic() - started:.0f} s elapsed")
        summary["history_days"] = len(wanted)

        # 2. Snapshots: every 15-minute boundary up to the last completed one, in large runs.
        snap_keys = defs.resolve_job_def("snapshot_job").partitions_def.get_partition_keys()
        last_t = floor_to(now - 1 - snapshots_until_offset, QUARTER_HOUR)  # its block must be final
        first_t = max(-(-start // QUARTER_HOUR) * QUARTER_HOUR,
                      day_start_of(snap_keys[0]) + QUARTER_HOUR if snap_keys else last_t + 1)
        if days:
            first_t = max(first_t, last_t - days * DAY + QUARTER_HOUR)
        if snapshot_hours:
            first_t = max(first_t, last_t - snapshot_hours * HOUR + QUARTER_HOUR)
        last_t = min(last_t, day_start_of(snap_keys[-1]) + DAY) if snap_keys else last_t
        times = list(range(first_t, last_t + 1, QUARTER_HOUR)) if last_t >= first_t else []
        if times and not force:
            with get_client(settings) as client:
                done = published_times(client, chain_id, times)
            times = [t for t in times if t not in done]
        batches = _batches(times, max(1, int(chunk_days * SNAPSHOTS_PER_DAY)))
        total = len(times)
        if not total:
            say("snapshots: nothing to materialize")
        else:
            say(f"snapshots: {total:,} to materialize in {len(batches)} run(s) of up to "
                f"{max(len(b) for b in batches):,}, {_hm(times[0])}..{_hm(times[-1])} UTC")
        if len(batches) > 1 and workers > 1:
            _snapshot_batches_in_processes(settings, batches, force, workers, summary, say, started, total)
        else:
            done = 0
            for batch in batches:
                result = _execute(
                    defs, "snapshot_job", instance,
                    tags=_batch_tags(batch, force),
                    resources=_progress_resource(progress, offset=done, total=total, started=started,
                                                 every=max(SNAPSHOTS_PER_DAY, len(batch) // 4)),
                )
                done += len(batch)
                summary["snapshot_run_ids"].append(result.run_id)
                summary["published"].extend(batch)
                say(f"snapshots {done:,}/{total:,} ({100 * done // total}%) {time.monotonic() - started:.0f} s elapsed")

    summary["snapshots"] = len(summary["published"])
    summary["elapsed_seconds"] = round(time.monotonic() - started, 1)
    say(f"backfill done: {summary['history_days']:,} days of history, {summary['snapshots']:,} snapshots "
        f"in {summary['elapsed_seconds']:.0f} s")
    return summary


def run_snapshot(settings: Settings, snapshot_at: int | None = None, *, force: bool = False) -> str:
    """Materialize one snapshot (default: the 15-minute boundary that just passed); run id.

    A published snapshot is left alone unless `force`. Raises when the run fails; the failed
    attempt is recorded in snapshot_runs and the previous successful snapshot stays the latest.
    """
    from ve_analytics.orchestration.definitions import build_defs

    at = snapshot_at if snapshot_at is not None else latest_snapshot_at()
    with dagster_instance(settings) as instance:
        return _execute(build_defs(settings), "snapshot_job", instance, partition_key=snapshot_day_key(at),
                        tags=snapshot_tags(at, at, force=force)).run_id


def run_history(settings: Settings, partition_key: str | None = None) -> str:
    """Materialize one history day (default: the day of the hour that just ended); run id."""
    from ve_analytics.orchestration.definitions import build_defs

    key = partition_key or latest_day_key()
    with dagster_instance(settings) as instance:
        return _execute(build_defs(settings), "history_job", instance, partition_key=key).run_id


__all__ = [
    "backfill",
    "run_snapshot",
    "run_history",
    "latest_snapshot_at",
    "latest_day_key",
    "day_key",
]
