"""Materialize every configured chain's history and snapshots through the Dagster instance at
settings.dagster_home: asked for through its webserver (settings.dagster_url), run by its daemon
and run queue, visible in the UI with their partitions, runs and progress.

    backfill(settings)              every chain of the chain book, all at once (orchestration.
                                    backfill_plan): per chain the recent history and the newest
                                    snapshot as single runs, so each chain is fresh within minutes;
                                    then the rest of its snapshot depth and its older history as
                                    two Dagster backfills that fill in behind (`on_fresh` is called
                                    once every chain has its newest snapshot)
    run_snapshot(settings[, at])    one snapshot of one chain in this process
    run_history(settings[, key])    one history day of one chain in this process

Chains are independent: a chain whose run fails is reported and left where it is while the
others go on; `backfill` raises BackfillFailed naming the failed chains once the rest is done.
The runs carry the `ve/snapshots_from` / `ve/snapshots_until` tags (every run of a snapshot
backfill inherits them: its runs cover their days within those bounds).

Re-running is idempotent: hourly inserts carry dedup tokens over ReplacingMergeTree tables, and
snapshot times that already have a successful run are left out and skipped by the runs
(force=True re-materializes them).

run_snapshot / run_history execute one run in the calling process (`execute_in_process`, public
API): the tests use them to drive single snapshots against a devnet and to see the asset's own
exception when a run fails, which a launched run reports only as a failed status.
"""
from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

from ..assets.partitions import latest_day_key, latest_snapshot_at, snapshot_day_key, snapshot_tags
from ..assets.publication import published_times
from ..assets.upstream import protocol_start
from ..core.chains import STATS_CHAIN_ID
from ..core.config import Settings
from ..core.pipeline_names import history_job, snapshot_job
from .backfill_plan import ChainPlan, plan_chain, snapshot_times
from .backfill_steps import ChainFill
from .definitions import build_defs
from .instance import dagster_instance, ensure_instance_dir
from ..readers.chain import ChainReader
from ..readers.dagster_webserver import Webserver, WebserverError
from ..readers.graphql import SubgraphClient
from ..readers.liveness import probe_upstream
from ..warehouse.client import get_client

UNREACHABLE = "upstream unreachable, left out of this backfill"
HEARTBEAT_SECONDS = 30.0  # a progress line at least this often, even without progress
# Once every chain is fresh the backfills are followed at this pace: each poll is two GraphQL
# queries per open backfill, which the webserver answers with CPU the runs need.
FILL_POLL_SECONDS = 10.0
DAEMON_GRACE_SECONDS = 120.0  # a chain without progress this long is checked for a living daemon
# In-process runs report progress through the `progress` resource; Dagster's own per-event
# DEBUG lines would bury it.
QUIET_RUN_CONFIG = {"loggers": {"console": {"config": {"log_level": "WARNING"}}}}


class BackfillFailed(RuntimeError):
    """A backfill ended with failed or canceled runs, left a chain out (its upstream did not
    answer), or the daemon could not run it; `chains` are the chains left incomplete."""

    def __init__(self, message: str, chains: list[int] | None = None):
        super().__init__(message)
        self.chains = sorted(chains or [])


def upstream_now(settings: Settings, chain_id: int = STATS_CHAIN_ID) -> tuple[int, int | None]:
    """(upstream "now", protocol start): the older of the chain and subgraph heads, and the
    creation time of the first pool (None when the subgraph has no pool yet). A dead upstream is
    told by the short liveness probe (UpstreamDown), not by the readers' own timeouts and retries."""
    book = settings.chain(chain_id)
    probe_upstream(book.rpc_url, book.subgraph_url)
    chain = ChainReader.from_settings(settings, chain_id)
    with SubgraphClient(book.subgraph_url) as subgraph:
        meta = subgraph.meta()
        start = protocol_start(subgraph)
    head = chain.head()
    return min(head.timestamp, meta.block_timestamp), start


def _hm(ts: int) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.gmtime(ts))


def history_days_done(settings: Settings, chain_ids: list[int]) -> dict[int, set[str]]:
    """Per chain, the history days every one of its history assets has materialized."""
    defs = build_defs(settings)
    out: dict[int, set[str]] = {}
    with dagster_instance(settings) as instance:
        for cid in chain_ids:
            keys = defs.resolve_job_def(history_job(cid)).asset_layer.selected_asset_keys
            done = [set(instance.get_materialized_partitions(key)) for key in keys]
            out[cid] = set.intersection(*done) if done else set()
    return out


def plan_chains(settings: Settings, chain_ids: list[int], *, say: Callable[[str], None],
                **limits: Any) -> tuple[list[ChainPlan], dict[int, str]]:
    """Each chain's plan (its upstream read in parallel), and the chains whose upstream could not
    be read (chain -> why): those are reported and left out, as is a chain without a pool yet."""
    done_days = history_days_done(settings, chain_ids)

    def plan(cid: int) -> tuple[ChainPlan | None, str]:
        try:
            now, start = upstream_now(settings, cid)
        except Exception as exc:  # noqa: BLE001 - one unreachable chain must not stop the others
            return None, f"chain {cid}: {UNREACHABLE} ({type(exc).__name__}: {exc})"
        if start is None:
            return None, f"chain {cid}: the subgraph has no pool yet, nothing to materialize"
        times = snapshot_times(settings, cid, now, start, days=limits.get("days"),
                               snapshot_hours=limits.get("snapshot_hours"), until_offset=limits.get("until_offset", 0))
        with get_client(settings) as client:
            published = published_times(client, cid, times)
        p = plan_chain(settings, cid, now, start, published=published, done_days=done_days[cid], **limits)
        return p, (f"chain {cid}: upstream at {_hm(now)} UTC, first activity {_hm(start)}: "
                   f"{len(p.recent_days) + len(p.older_days):,} history days (the last {len(p.recent_days)} first), "
                   f"{p.snapshot_total:,} snapshots to take (newest first)")

    with ThreadPoolExecutor(max_workers=max(1, len(chain_ids))) as pool:
        planned = list(pool.map(plan, chain_ids))
    for _, line in planned:  # in chain order, once all are read
        say(line)
    unreachable = {cid: line for cid, (p, line) in zip(chain_ids, planned) if p is None and UNREACHABLE in line}
    return [p for p, _ in planned if p is not None], unreachable


def backfill(
    settings: Settings,
    *,
    chains: list[int] | None = None,
    days: int | None = None,
    progress: Callable[[str], None] | None = print,
    snapshots_until_offset: int = 0,
    snapshot_hours: int | None = None,
    force: bool = False,
    on_fresh: Callable[[], None] | None = None,
    poll_seconds: float = 2.0,
    timeout: float | None = None,
) -> dict:
    """Backfill the chains (default: every chain of the book); returns
    {"chains": {id: {history_run_ids, snapshot_run_ids, backfill_ids, history_days, published,
    snapshots, error}}, "elapsed_seconds"}.

    `days` limits history and snapshots to the most recent N days; `snapshot_hours` limits
    snapshots further; `snapshots_until_offset` stops the snapshots that many seconds before the
    newest completed boundary (the API then starts stale, for tests). `timeout` bounds the whole
    call (None: as long as the runs take).
    """
    say = progress or (lambda line: None)
    started = time.monotonic()
    ensure_instance_dir(settings)
    ids = sorted(chains if chains is not None else settings.chains)
    plans, unreachable = plan_chains(settings, ids, say=say, days=days, snapshot_hours=snapshot_hours,
                                     until_offset=snapshots_until_offset, force=force)
    fills = [ChainFill(p, force=force) for p in plans]
    with Webserver(settings.dagster_url) as web:
        # the daemon is checked while following: a daemon still starting picks the runs up on its
        # first pass instead of 30 s later
        web.wait_ready([job(c) for c in ids for job in (snapshot_job, history_job)], daemons=False)
        _follow(web, fills, say=say, started=started, poll=poll_seconds, on_fresh=on_fresh,
                deadline=time.monotonic() + timeout if timeout else None)
    summary: dict[str, Any] = {"chains": {}}
    with get_client(settings) as client:
        for fill in fills:
            p = fill.plan
            times = [*p.snapshots, *([p.newest] if p.newest is not None else [])]
            published = sorted(published_times(client, p.chain_id, times)) if times else []
            summary["chains"][p.chain_id] = {**fill.summary(), "published": published, "snapshots": len(published)}
    summary["elapsed_seconds"] = round(time.monotonic() - started, 1)
    say(f"backfill done in {summary['elapsed_seconds']:.0f} s: " + "; ".join(
        f"chain {cid} {c['history_days']:,} history days, {c['snapshots']:,} snapshots"
        + (" (FAILED)" if c["error"] else "") for cid, c in summary["chains"].items()))
    failed = {**{cid: c["error"] for cid, c in summary["chains"].items() if c["error"]},
              **{cid: UNREACHABLE for cid in unreachable}}
    if failed:
        raise BackfillFailed("; ".join(f"chain {cid}: {error}" for cid, error in sorted(failed.items())), list(failed))
    return summary


def _follow(web: Webserver, fills: list[ChainFill], *, say: Callable[[str], None], started: float, poll: float,
            on_fresh: Callable[[], None] | None, deadline: float | None) -> None:
    """Walk every chain through its phases until all are done, with progress lines."""
    fresh_said, last_line, last_said, last_change = False, "", 0.0, time.monotonic()
    try:
        while True:
            pending = [rid for f in fills for rid in f.pending_runs()]
            runs_by_id = {r["runId"]: r for r in web.runs(run_ids=pending)} if pending else {}
            for fill in fills:
                if fill.advance(web, runs_by_id):
                    last_change = time.monotonic()
                    if fill.phase == "failed":
                        say(f"chain {fill.cid} failed: {fill.error}")
            if not fresh_said and all(f.fresh for f in fills):
                fresh_said = True
                fresh = [f.cid for f in fills if f.phase != "failed"]
                say(f"fresh: the newest snapshot of chain(s) {', '.join(map(str, fresh)) or 'none'} is published "
                    f"after {time.monotonic() - started:.0f} s; older snapshots and history fill in behind")
                if on_fresh is not None:
                    on_fresh()
            line = "; ".join(f.text() for f in fills)
            if line != last_line:
                last_change = time.monotonic()
            if line != last_line or time.monotonic() - last_said >= HEARTBEAT_SECONDS:
                say(f"backfill {time.monotonic() - started:.0f} s: {line or 'nothing to do'}")
                last_line, last_said = line, time.monotonic()
            if all(f.finished for f in fills):
                return
            if time.monotonic() - last_change > DAEMON_GRACE_SECONDS:
                down = [t for t, ok in web.daemon_status().items() if not ok]
                if down:
                    raise BackfillFailed(f"no progress for {DAEMON_GRACE_SECONDS:.0f} s and the instance has no healthy "
                                         f"daemon ({', '.join(down)}): start `dagster-daemon run`", _unfinished(fills))
            if deadline is not None and time.monotonic() > deadline:
                raise BackfillFailed(f"the backfill did not finish in time ({line})", _unfinished(fills))
            time.sleep(poll if not fresh_said else max(poll, min(FILL_POLL_SECONDS, 5 * poll)))
    except BaseException:
        for backfill_id in (b for f in fills for b in f.open_backfills()):  # the daemon must not go on with it
            try:
                web.cancel_backfill(backfill_id)
                say(f"backfill {backfill_id} canceled")
            except WebserverError:
                pass
        raise


def _unfinished(fills: list[ChainFill]) -> list[int]:
    return [f.cid for f in fills if f.phase != "done"]


def _execute_in_process(settings: Settings, job_name: str, partition_key: str, tags: dict[str, str] | None = None) -> str:
    job = build_defs(settings).resolve_job_def(job_name)
    with dagster_instance(settings) as instance:
        return job.execute_in_process(
            instance=instance, partition_key=partition_key, tags=tags, run_config=QUIET_RUN_CONFIG,
            raise_on_error=True,
        ).run_id


def run_snapshot(settings: Settings, snapshot_at: int | None = None, *, force: bool = False,
                 chain_id: int = STATS_CHAIN_ID) -> str:
    """Materialize one snapshot of one chain in this process (default: the 15-minute boundary that
    just passed); run id.

    A published snapshot is left alone unless `force`. Raises the failing asset's exception when
    the run fails; the failed attempt is recorded in snapshot_runs and the previous successful
    snapshot stays the latest.
    """
    at = snapshot_at if snapshot_at is not None else latest_snapshot_at()
    return _execute_in_process(settings, snapshot_job(chain_id), snapshot_day_key(at), snapshot_tags(at, at, force=force))


def run_history(settings: Settings, partition_key: str | None = None, *, chain_id: int = STATS_CHAIN_ID) -> str:
    """Materialize one history day of one chain in this process (default: the day of the hour that
    just ended); run id."""
    return _execute_in_process(settings, history_job(chain_id), partition_key or latest_day_key())


__all__ = [
    "BackfillFailed",
    "backfill",
    "dagster_instance",
    "ensure_instance_dir",
    "run_snapshot",
    "run_history",
    "latest_snapshot_at",
    "latest_day_key",
]
