"""Materialize history and snapshots as Dagster backfills of the instance at settings.dagster_home,
asked for through its webserver (settings.dagster_url) and run by its daemon, so a backfill shows
on the UI's backfill page with its partitions, runs and progress.

    backfill(settings)              a backfill of history_job over every day up to the last
                                    completed hour (one run), then one of snapshot_job over every
                                    15-minute boundary up to the last completed one (one run per
                                    4 days, a few at a time: see orchestration.instance)
    run_snapshot(settings[, at])    one snapshot in this process (default: the boundary that just passed)
    run_history(settings[, key])    one history day in this process (default: the day of the hour that just ended)

The backfill needs a webserver and a daemon on the instance (`ve-analytics up` and
`ve-analytics backfill` start them when none answers). It submits each backfill through the
webserver's GraphQL API (`launchPartitionBackfill` of the job's partition set); the daemon's
backfill loop creates the runs the assets' BackfillPolicy asks for, and the run queue starts
them. The snapshot backfill carries the `ve/snapshots_from` / `ve/snapshots_until` tags, which
every run of it inherits: its runs cover their days within those bounds. Progress comes from the
backfill's partition statuses and its runs (`dagster/backfill` tag); the call returns once every
partition has a finished run (the daemon marks the backfill itself completed on its next pass,
within 30 s) and raises BackfillFailed when a run failed or the backfill was canceled.

Re-running is idempotent: hourly inserts carry dedup tokens over ReplacingMergeTree tables, and
snapshot times that already have a successful run are left out of the backfill and skipped by its
runs (force=True re-materializes them).

run_snapshot / run_history execute one run in the calling process (`execute_in_process`, public
API): the tests use them to drive single snapshots against a devnet and to see the asset's own
exception when a run fails, which a launched run reports only as a failed status.
"""
from __future__ import annotations

import time
from typing import Any, Callable

from ..assets.partitions import (
    SNAPSHOT_DAYS_PER_RUN,
    daily_partitions,
    day_key,
    day_start_of,
    latest_day_key,
    latest_snapshot_at,
    snapshot_day_key,
    snapshot_partitions,
    snapshot_tags,
)
from ..assets.publication import published_times
from ..assets.upstream import protocol_start
from ..core.chains import STATS_CHAIN_ID
from ..core.config import Settings
from ..core.epochs import DAY, HOUR, QUARTER_HOUR, floor_to
from ..core.partition_keys import PARTITION_TAG, RANGE_END_TAG, RANGE_START_TAG
from .definitions import build_defs
from .instance import dagster_instance, ensure_instance_dir
from ..readers.dagster_webserver import (
    BACKFILL_DONE,
    BACKFILL_FAILED,
    RUN_FINISHED,
    Webserver,
    WebserverError,
)
from ..readers.chain import ChainReader
from ..readers.graphql import SubgraphClient
from ..warehouse.client import get_client

SNAPSHOTS_PER_DAY = DAY // QUARTER_HOUR
HEARTBEAT_SECONDS = 30.0  # a progress line at least this often, even without progress
DAEMON_GRACE_SECONDS = 120.0  # a backfill without runs this long is checked for a living daemon
# In-process runs report progress through the `progress` resource; Dagster's own per-event
# DEBUG lines would bury it.
QUIET_RUN_CONFIG = {"loggers": {"console": {"config": {"log_level": "WARNING"}}}}


class BackfillFailed(RuntimeError):
    """A backfill ended with failed or canceled runs, or the daemon could not run it."""


def upstream_now(settings: Settings, chain_id: int = STATS_CHAIN_ID) -> tuple[int, int | None]:
    """(upstream "now", protocol start): the older of the chain and subgraph heads, and the
    creation time of the first pool (None when the subgraph has no pool yet)."""
    chain = ChainReader.from_settings(settings, chain_id)
    with SubgraphClient(settings.chain(chain_id).subgraph_url) as subgraph:
        meta = subgraph.meta()
        start = protocol_start(subgraph)
    head = chain.head()
    return min(head.timestamp, meta.block_timestamp), start


def _hm(ts: int) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.gmtime(ts))


def history_keys(settings: Settings, now: int, start: int, days: int | None) -> tuple[list[str], int]:
    """Daily partitions to backfill: every day up to the one holding the last completed hour
    (the last `days` of them); and the end of that hour."""
    last_hour_end = floor_to(now, HOUR)
    first_day = floor_to(start, DAY)
    if days:
        first_day = max(first_day, floor_to(last_hour_end - HOUR, DAY) - (days - 1) * DAY)
    keys = daily_partitions(settings).get_partition_keys()
    return [k for k in keys if first_day <= day_start_of(k) < last_hour_end], last_hour_end


def snapshot_times(settings: Settings, now: int, start: int, *, days: int | None, snapshot_hours: int | None,
                   until_offset: int) -> list[int]:
    """Every 15-minute boundary up to the last completed one (its block must be final), within
    the snapshot partitions, the protocol's life and the `days` / `snapshot_hours` limits."""
    keys = snapshot_partitions(settings).get_partition_keys()
    if not keys:
        return []
    last_t = floor_to(now - 1 - until_offset, QUARTER_HOUR)
    first_t = max(-(-start // QUARTER_HOUR) * QUARTER_HOUR, day_start_of(keys[0]) + QUARTER_HOUR)
    if days:
        first_t = max(first_t, last_t - days * DAY + QUARTER_HOUR)
    if snapshot_hours:
        first_t = max(first_t, last_t - snapshot_hours * HOUR + QUARTER_HOUR)
    last_t = min(last_t, day_start_of(keys[-1]) + DAY)
    return list(range(first_t, last_t + 1, QUARTER_HOUR)) if last_t >= first_t else []


def _run_days(run: dict[str, Any]) -> set[str]:
    tags = run["tags"]
    if tags.get(RANGE_START_TAG) and tags.get(RANGE_END_TAG):
        first, last = day_start_of(tags[RANGE_START_TAG]), day_start_of(tags[RANGE_END_TAG])
        return {day_key(t) for t in range(first, last + 1, DAY)}
    return {tags[PARTITION_TAG]} if tags.get(PARTITION_TAG) else set()


def _runs_text(runs: list[dict[str, Any]]) -> str:
    counts: dict[str, int] = {}
    for run in runs:
        counts[run["status"].lower()] = counts.get(run["status"].lower(), 0) + 1
    return ", ".join(f"{n} {status}" for status, n in sorted(counts.items())) or "none yet"


class _Follow:
    """Poll one backfill until every partition has a finished run, printing progress lines."""

    def __init__(self, web: Webserver, backfill_id: str, *, say: Callable[[str], None], started: float,
                 poll: float, deadline: float | None):
        self.web, self.id, self.say, self.started = web, backfill_id, say, started
        self.poll, self.deadline = poll, deadline

    def run(self, line: Callable[[list[dict[str, Any]], dict[str, Any]], tuple[int, str]]) -> list[dict[str, Any]]:
        """`line(runs, backfill)` -> (units done, progress text); returns the backfill's runs."""
        last_done, last_said, failed_seen, finished = None, 0.0, set(), False
        submitted = time.monotonic()
        try:
            while True:
                state = self.web.backfill(self.id)
                runs = self.web.backfill_runs(self.id)
                if not runs and time.monotonic() - submitted > DAEMON_GRACE_SECONDS:
                    down = [t for t, ok in self.web.daemon_status().items() if not ok]
                    if down:
                        raise BackfillFailed(f"backfill {self.id} has no run after {DAEMON_GRACE_SECONDS:.0f} s and the "
                                             f"instance has no healthy daemon ({', '.join(down)}): start `dagster-daemon run`")
                for run in runs:
                    if run["status"] in ("FAILURE", "CANCELED") and run["runId"] not in failed_seen:
                        failed_seen.add(run["runId"])
                        self.say(f"run {run['runId']} ended {run['status']}: {self.web.url}/runs/{run['runId']}")
                if state["status"] in BACKFILL_FAILED:
                    finished = True
                    error = (state.get("error") or {}).get("message", "")
                    raise BackfillFailed(f"backfill {self.id} ({state.get('title')}) ended {state['status']}"
                                         f"{': ' + error.strip()[:2000] if error else ''}; {self.web.url}/runs/b/{self.id}")
                done, head = line(runs, state)
                if done != last_done or time.monotonic() - last_said >= HEARTBEAT_SECONDS:
                    self.say(f"{head} {time.monotonic() - self.started:.0f} s elapsed (runs: {_runs_text(runs)})")
                    last_done, last_said = done, time.monotonic()
                counts, partitions = state["partitionStatusCounts"], state["numPartitions"] or 0
                if state["status"] in BACKFILL_DONE or (
                        partitions and sum(counts.get(s, 0) for s in RUN_FINISHED) == partitions
                        and all(r["status"] in RUN_FINISHED for r in runs)):
                    finished = True
                    break
                if self.deadline is not None and time.monotonic() > self.deadline:
                    raise BackfillFailed(f"backfill {self.id} did not finish in time (runs: {_runs_text(runs)}); "
                                         f"{self.web.url}/runs/b/{self.id}")
                time.sleep(self.poll)
        except BaseException:
            if not finished:  # interrupted or timed out: the daemon must not go on with it
                try:
                    self.web.cancel_backfill(self.id)
                    self.say(f"backfill {self.id} canceled")
                except WebserverError:
                    pass
            raise
        bad = [r for r in runs if r["status"] != "SUCCESS"]
        if bad:
            raise BackfillFailed(f"backfill {self.id} ({state.get('title')}): {len(bad)} of {len(runs)} run(s) "
                                 f"did not succeed ({', '.join(r['runId'] + ' ' + r['status'] for r in bad)}); "
                                 f"{self.web.url}/runs/b/{self.id}")
        return runs


def backfill(
    settings: Settings,
    *,
    days: int | None = None,
    progress: Callable[[str], None] | None = print,
    snapshots_until_offset: int = 0,
    snapshot_hours: int | None = None,
    force: bool = False,
    chain_id: int = STATS_CHAIN_ID,
    poll_seconds: float = 2.0,
    timeout: float | None = None,
) -> dict:
    """Backfill the upstream history through the instance's daemon; returns a summary dict:
    history_backfill_id, history_run_id, history_days, snapshot_backfill_id, snapshot_run_ids,
    published (snapshot times now published among those the backfill covered), snapshots,
    elapsed_seconds.

    `days` limits both history and snapshots to the most recent N days; `snapshot_hours` limits
    snapshots further; `snapshots_until_offset` stops the snapshots that many seconds before the
    newest completed boundary (the API then starts stale, for tests). `timeout` bounds each of
    the two waits (None: as long as the runs take).
    """
    say = progress or (lambda line: None)
    started = time.monotonic()
    deadline = (lambda: time.monotonic() + timeout) if timeout else (lambda: None)
    ensure_instance_dir(settings)
    now, start = upstream_now(settings, chain_id)
    summary: dict = {"history_backfill_id": None, "history_run_id": None, "history_days": 0,
                     "snapshot_backfill_id": None, "snapshot_run_ids": [], "published": [], "snapshots": 0}
    if start is None:
        say("backfill: the subgraph has no pool yet, nothing to materialize")
        return summary

    with Webserver(settings.dagster_url) as web:
        # the daemon is checked while following: a daemon still starting picks the backfill up on
        # its first pass instead of 30 s later
        web.wait_ready(["history_job", "snapshot_job"], daemons=False)

        # 1. History: every day up to the one holding the last completed hour, in one run.
        keys, last_hour_end = history_keys(settings, now, start, days)
        if keys:
            span = f"{keys[0]}..{keys[-1]}"
            backfill_id = web.launch_backfill(
                "history_job", keys, title=f"ve-analytics history {span}",
                description=f"hours ending by {_hm(last_hour_end)} UTC")
            summary["history_backfill_id"] = backfill_id
            say(f"history: {len(keys):,} days {span} (hours ending by {_hm(last_hour_end)} UTC) in one run, "
                f"backfill {backfill_id}")

            def history_line(runs, state):
                ok = state["partitionStatusCounts"].get("SUCCESS", 0)
                return ok, f"history {ok:,}/{len(keys):,} days ({100 * ok // len(keys)}%)"

            runs = _Follow(web, backfill_id, say=say, started=started, poll=poll_seconds,
                           deadline=deadline()).run(history_line)
            summary["history_run_id"] = runs[-1]["runId"] if runs else None
        summary["history_days"] = len(keys)

        # 2. Snapshots: every 15-minute boundary up to the last completed one not yet published.
        times = snapshot_times(settings, now, start, days=days, snapshot_hours=snapshot_hours,
                               until_offset=snapshots_until_offset)
        if times and not force:
            with get_client(settings) as client:
                done = published_times(client, chain_id, times)
            times = [t for t in times if t not in done]
        if not times:
            say("snapshots: nothing to materialize")
        else:
            total = len(times)
            day_keys = sorted({snapshot_day_key(t) for t in times})
            span = f"{_hm(times[0])}..{_hm(times[-1])}"
            backfill_id = web.launch_backfill(
                "snapshot_job", day_keys, tags=snapshot_tags(times[0], times[-1], force=force),
                title=f"ve-analytics snapshots {span} UTC",
                description=f"{total:,} snapshots{' (forced)' if force else ''}")
            summary["snapshot_backfill_id"] = backfill_id
            say(f"snapshots: {total:,} to materialize over {len(day_keys):,} day partition(s) "
                f"(runs of up to {SNAPSHOT_DAYS_PER_RUN} days), {span} UTC, backfill {backfill_id}")
            per_day: dict[str, int] = {}
            for t in times:
                per_day[snapshot_day_key(t)] = per_day.get(snapshot_day_key(t), 0) + 1

            def snapshot_line(runs, state):
                days_done = set().union(*(_run_days(r) for r in runs if r["status"] == "SUCCESS"))
                n = sum(per_day.get(d, 0) for d in days_done)
                return n, f"snapshots {n:,}/{total:,} ({100 * n // total}%)"

            runs = _Follow(web, backfill_id, say=say, started=started, poll=poll_seconds,
                           deadline=deadline()).run(snapshot_line)
            summary["snapshot_run_ids"] = [r["runId"] for r in runs]
            with get_client(settings) as client:
                summary["published"] = sorted(published_times(client, chain_id, times))

    summary["snapshots"] = len(summary["published"])
    summary["elapsed_seconds"] = round(time.monotonic() - started, 1)
    say(f"backfill done: {summary['history_days']:,} days of history, {summary['snapshots']:,} snapshots "
        f"in {summary['elapsed_seconds']:.0f} s")
    return summary


def _execute_in_process(settings: Settings, job_name: str, partition_key: str, tags: dict[str, str] | None = None) -> str:
    job = build_defs(settings).resolve_job_def(job_name)
    with dagster_instance(settings) as instance:
        return job.execute_in_process(
            instance=instance, partition_key=partition_key, tags=tags, run_config=QUIET_RUN_CONFIG,
            raise_on_error=True,
        ).run_id


def run_snapshot(settings: Settings, snapshot_at: int | None = None, *, force: bool = False) -> str:
    """Materialize one snapshot in this process (default: the 15-minute boundary that just passed); run id.

    A published snapshot is left alone unless `force`. Raises the failing asset's exception when
    the run fails; the failed attempt is recorded in snapshot_runs and the previous successful
    snapshot stays the latest.
    """
    at = snapshot_at if snapshot_at is not None else latest_snapshot_at()
    return _execute_in_process(settings, "snapshot_job", snapshot_day_key(at), snapshot_tags(at, at, force=force))


def run_history(settings: Settings, partition_key: str | None = None) -> str:
    """Materialize one history day in this process (default: the day of the hour that just ended); run id."""
    return _execute_in_process(settings, "history_job", partition_key or latest_day_key())


__all__ = [
    "BackfillFailed",
    "backfill",
    "dagster_instance",
    "ensure_instance_dir",
    "run_snapshot",
    "run_history",
    "latest_snapshot_at",
    "latest_day_key",
    "day_key",
]
