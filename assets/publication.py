"""Publication of snapshots in `snapshot_runs`: the row that makes a snapshot visible.

- `publish()` (the `snapshot_publication` asset) runs only after every snapshot asset (the
  registry's, passed as `upstream`) succeeded in the same run. It verifies in the warehouse that
  every snapshot time of the range has its protocol row and `pool_count` pool rows, then writes
  one 'success' row per snapshot time with the run id, block, row counts and sources. Until then
  readers keep serving the previous successful snapshot.
- `failures_recorded()` wraps each snapshot asset: on any exception it writes a 'failed' row per
  snapshot time (status, error message) before re-raising. When the cause is a dead upstream
  (readers.breaker) the message is the breaker's one line, the same whichever asset met it, and
  the run gets the `ve/upstream_down` tag. Readers ignore non-success rows; a
  later success of the same run replaces its failed row (ReplacingMergeTree on finished_at).
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator, Sequence

from .runs import run_id_of, run_started_at, succeeded_steps
from .writers import insert_columns, query_rows
from ..core import clock
from ..core.epochs import to_datetime
from ..readers.breaker import UpstreamDown

SOURCES = ["subgraph", "chain-rpc"]
MAX_ERROR_CHARS = 2000
UPSTREAM_DOWN_TAG, MAX_TAG_CHARS = "ve/upstream_down", 500  # run tag: the breaker's line


def published_times(client, chain_id: int, times: Sequence[int]) -> set[int]:
    """Those of `times` that already have a successful snapshot_runs row."""
    if not times:
        return set()
    rows = query_rows(client, "backfill/published_snapshots.sql",
                      {"chain_id": chain_id, "from_ts": min(times), "to_ts": max(times)})
    return {int(r["snapshot_ts"]) for r in rows} & set(times)


def failed_times(client, chain_id: int, run_id: str, times: Sequence[int]) -> set[int]:
    """Those of `times` whose failure in run `run_id` is already recorded (by the failing asset)."""
    if not times:
        return set()
    rows = query_rows(client, "backfill/failed_snapshots.sql",
                      {"chain_id": chain_id, "run_id": run_id, "from_ts": min(times), "to_ts": max(times)})
    return {int(r["snapshot_ts"]) for r in rows} & set(times)


def write_runs(
    client,
    *,
    chain_id: int,
    run_id: str,
    status: str,
    rows: Sequence[dict[str, Any]],
    started_at: float,
    asset: str,
    partition_range: str,
    error: str = "",
) -> int:
    finished = to_datetime(clock.now())
    columns = {
        "chain_id": [chain_id] * len(rows),
        "snapshot_at": [to_datetime(r["snapshot_at"]) for r in rows],
        "run_id": [run_id] * len(rows),
        "status": [status] * len(rows),
        "block_number": [int(r.get("block_number") or 0) for r in rows],
        "block_timestamp": [to_datetime(r.get("block_ts") or 0) for r in rows],
        "started_at": [to_datetime(started_at)] * len(rows),
        "finished_at": [finished] * len(rows),
        "rows_written": [dict(r.get("rows_written") or {}) for r in rows],
        "sources": [list(SOURCES)] * len(rows),
        "error": [error[:MAX_ERROR_CHARS]] * len(rows),
    }
    return insert_columns(client, "snapshot_runs", columns, asset=asset, partition_range=partition_range)


def record_failure(
    warehouse, *, run_id: str, started_at: float, chain_id: int, times: Sequence[int],
    asset: str, partition_range: str, message: str, log=None,
) -> None:
    """Write a 'failed' row per snapshot time; never raises (the original error matters more)."""
    try:
        with warehouse.client() as client:
            write_runs(
                client,
                chain_id=chain_id,
                run_id=run_id,
                status="failed",
                rows=[{"snapshot_at": t} for t in times],
                started_at=started_at,
                asset=asset,
                partition_range=partition_range,
                error=message,
            )
    except Exception as record_exc:  # noqa: BLE001
        if log is not None:
            log.error(f"could not record the failed snapshot run: {record_exc!r}")


@contextmanager
def failures_recorded(
    context, warehouse, *, chain_id: int, times: Sequence[int], asset: str, partition_range: str
) -> Iterator[None]:
    """Record a 'failed' snapshot_runs row per time if the body raises, then re-raise."""
    try:
        yield
    except BaseException as exc:
        # a dead upstream is the run's one cause, whichever asset met it: the breaker's line
        down = isinstance(exc, UpstreamDown)
        record_failure(
            warehouse,
            run_id=run_id_of(context),
            started_at=run_started_at(context),
            chain_id=chain_id,
            times=times,
            asset=asset,
            partition_range=partition_range,
            message=str(exc) if down else f"{asset}: {type(exc).__name__}: {exc}",
            log=context.log,
        )
        if down:  # shown with the run in the Dagster UI's run list
            tag_run(context, {UPSTREAM_DOWN_TAG: str(exc)[:MAX_TAG_CHARS]})
        raise


def tag_run(context, tags: dict[str, str]) -> None:
    try:
        context.instance.add_run_tags(run_id_of(context), tags)
    except Exception as exc:  # noqa: BLE001 - a note on the run; the failure itself is recorded
        context.log.warning(f"could not tag the run: {exc!r}")


def publish(
    context,
    client,
    *,
    chain_id: int,
    times: Sequence[int],
    partition_range: str,
    upstream: Sequence[str],
) -> dict[str, Any]:
    """Verify that the `upstream` snapshot assets succeeded in this run and the stored snapshot
    rows of `times`, then write their 'success' rows."""
    done = succeeded_steps(context.instance, run_id_of(context))
    missing_steps = [name for name in upstream if name not in done]
    if missing_steps:
        raise RuntimeError(
            f"refusing to publish: {', '.join(missing_steps)} did not succeed in this run "
            "(materialize the whole snapshot_job)"
        )
    expected = list(times)
    stored = {
        int(r["snapshot_ts"]): r
        for r in query_rows(
            client,
            "snapshots/snapshot_row_counts.sql",
            {"chain_id": chain_id, "from_ts": times[0], "to_ts": times[-1]},
        )
    } if times else {}
    problems = []
    for t in expected:
        row = stored.get(t)
        if row is None:
            problems.append(f"{t}: no protocol row")
        elif int(row["protocol_rows"]) != 1:
            problems.append(f"{t}: {row['protocol_rows']} protocol rows")
        elif int(row["pool_rows"]) != int(row["pool_count"]):
            problems.append(f"{t}: {row['pool_rows']} pool rows for pool_count {row['pool_count']}")
    if problems:
        raise RuntimeError(f"refusing to publish {len(problems)} incomplete snapshot(s): {problems[:5]}")
    rows = [
        {
            "snapshot_at": t,
            "block_number": stored[t]["block_number"],
            "block_ts": stored[t]["block_ts"],
            "rows_written": {
                "protocol_snap15m": int(stored[t]["protocol_rows"]),
                "pool_snap15m": int(stored[t]["pool_rows"]),
                "token_snap15m": int(stored[t]["token_rows"]),
            },
        }
        for t in expected
    ]
    written = write_runs(
        client,
        chain_id=chain_id,
        run_id=run_id_of(context),
        status="success",
        rows=rows,
        started_at=run_started_at(context),
        asset="snapshot_publication",
        partition_range=partition_range,
    )
    return {
        "published": written,
        "pool_rows": sum(r["rows_written"]["pool_snap15m"] for r in rows),
        "token_rows": sum(r["rows_written"]["token_snap15m"] for r in rows),
    }
