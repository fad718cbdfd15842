"""Per-chain health (/api/stats/health `chains`, /v1/health/chains): freshness of each
configured chain's snapshots, the lag of its subgraph behind its chain head, what its data
covers and what is still filling in.

Input: the rows of `health.sql` (one per chain with any snapshot run), of `health_coverage.sql`
(one per chain and dataset of `chain_coverage`, merged), times as the query book prints them
(ISO 8601 UTC), and of `coverage_holes.sql` (what each chain is missing: coverage_holes.py).
Pure functions: the handler runs the queries.
"""
from __future__ import annotations

from typing import Any, Mapping

from .coverage_holes import Holes, filling, holes_by_chain, missing
from .sql import unix_seconds

UNHEALTHY = "unhealthy"  # the 503 code of /api/stats/health and /v1/health
SUBGRAPH_LAG_TOLERANCE_SECONDS = 10 * 60  # more than this behind the chain head: subgraph_lagging

Coverage = dict[str, dict[str, Any]]  # dataset -> {"first_at", "last_at"} (ISO strings)


def coverage_by_chain(rows: list[dict[str, Any]]) -> dict[int, Coverage]:
    out: dict[int, Coverage] = {}
    for row in rows:
        out.setdefault(int(row["chain_id"]), {})[row["dataset"]] = {"first_at": row["first_at"], "last_at": row["last_at"]}
    return out


def dataset_at(coverage: Coverage, dataset: str, end: str) -> str | None:
    entry = coverage.get(dataset)
    return None if entry is None else entry[end]


def dataset_range(coverage: Coverage, dataset: str) -> dict[str, str] | None:
    entry = coverage.get(dataset)
    return None if entry is None else {"from": entry["first_at"], "to": entry["last_at"]}


def subgraph_lag_seconds(coverage: Coverage) -> int | None:
    """How far the subgraph's indexed block time is behind the chain head's time (never negative);
    None when either is unknown."""
    indexed, head = dataset_at(coverage, "subgraph", "last_at"), dataset_at(coverage, "chain_head", "last_at")
    if indexed is None or head is None:
        return None
    return max(unix_seconds(head) - unix_seconds(indexed), 0)


def last_run(row: dict[str, Any] | None, *, with_error: bool) -> dict[str, Any] | None:
    """The latest snapshot attempt of a health.sql row; None when the chain has none."""
    if row is None or row["last_run_at"] is None:
        return None
    run = {"snapshotAt": row["last_run_at"], "status": row["last_run_status"], "runId": row["last_run_id"]}
    if with_error:
        run["error"] = row["last_run_error"] or None
    return run


def snapshot_age(row: dict[str, Any] | None, now: float) -> tuple[str | None, int | None]:
    """The latest successful snapshot of a health.sql row and its wall-clock age in seconds."""
    snapshot_at = None if row is None else row["last_success_at"]
    if snapshot_at is None:
        return None, None
    return snapshot_at, max(int(now) - unix_seconds(snapshot_at), 0)


def chain_health(chain: Any, run: dict[str, Any] | None, coverage: Coverage, holes: Holes, now: float,
                 stale_after_seconds: int) -> dict[str, Any]:
    snapshot_at, age = snapshot_age(run, now)
    lag = subgraph_lag_seconds(coverage)
    healthy = age is not None and age < stale_after_seconds
    if age is None:
        reason = "no_successful_snapshot"
    elif lag is not None and lag > SUBGRAPH_LAG_TOLERANCE_SECONDS:
        reason = "subgraph_lagging"
    else:
        reason = "fresh" if healthy else "stale"
    return {
        "chainId": chain.chain_id,
        "healthy": healthy,
        "reason": reason,
        "snapshotAt": snapshot_at,
        "ageSeconds": age,
        "lastRun": last_run(run, with_error=True),
        "subgraphLagSeconds": lag,
        "coverage": {
            "firstMarketActivity": dataset_at(coverage, "market_activity", "first_at"),
            "hourly": dataset_range(coverage, "hourly"),
            "events": dataset_range(coverage, "events"),
            "snapshots": dataset_range(coverage, "snapshots"),
            "missingSnapshots": missing(holes, "snapshots"),
            "missingHistory": missing(holes, "history"),
            "indexedAt": dataset_at(coverage, "subgraph", "last_at"),
            "chainHeadAt": dataset_at(coverage, "chain_head", "last_at"),
        },
        "filling": filling(holes),
    }


def chains_health(chains: Mapping[int, Any], runs: list[dict[str, Any]], coverage_rows: list[dict[str, Any]],
                  holes_rows: list[dict[str, Any]], now: float, stale_after_seconds: int) -> list[dict[str, Any]]:
    """One entry per configured chain, by chain id, whether or not it has any row yet."""
    by_chain = {int(row["chain_id"]): row for row in runs}
    coverage = coverage_by_chain(coverage_rows)
    holes = holes_by_chain(holes_rows)
    return [chain_health(chains[cid], by_chain.get(cid), coverage.get(cid, {}), holes.get(cid, {}), now, stale_after_seconds)
            for cid in sorted(chains)]
