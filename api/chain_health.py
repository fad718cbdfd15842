"""Per-chain health (/api/stats/health `chains`, /v1/health/chains): freshness of each
configured chain's snapshots, the lag of its subgraph behind its chain head, what its data
covers and what is still filling in.

Input: the rows of `health.sql` (one per chain with any snapshot run), of `health_coverage.sql`
(one per chain and dataset of `chain_coverage`, merged), times as the query book prints them
(ISO 8601 UTC), and of `snapshot_holes.sql` (per chain, the missing 15-minute snapshots of its
window as ranges; run with `holes_params`). Pure functions: the handler runs the queries.
"""
from __future__ import annotations

from typing import Any, Mapping

from .schema import ISO_TIME, obj
from .sql import unix_seconds
from ..core.epochs import HOUR, QUARTER_HOUR, iso

UNHEALTHY = "unhealthy"  # the 503 code of /api/stats/health and /v1/health
SUBGRAPH_LAG_TOLERANCE_SECONDS = 10 * 60  # more than this behind the chain head: subgraph_lagging

# A boundary younger than this may still be in its run: the holes' window ends before it.
HOLES_GRACE_SECONDS = 2 * QUARTER_HOUR
MAX_RANGES_SHOWN = 20  # missing ranges listed per chain (newest first); the totals count them all

Coverage = dict[str, dict[str, Any]]  # dataset -> {"first_at", "last_at"} (ISO strings)

# The JSON Schema of `missing_snapshots` (both families' contracts use it).
MISSING_SNAPSHOTS_SCHEMA = {
    "oneOf": [
        obj({
            "window": obj({"from": ISO_TIME, "to": ISO_TIME}, "the boundaries checked: from the chain's snapshot depth "
                          "before now (not before its first market activity) to the boundary 30 minutes before now "
                          "(a younger one may still be in its run)"),
            "count": {"type": "integer", "minimum": 0, "description": "15-minute snapshots of the window not published"},
            "rangeCount": {"type": "integer", "minimum": 0, "description": "runs of consecutive missing snapshots"},
            "ranges": {"type": "array", "maxItems": MAX_RANGES_SHOWN, "items": obj({
                "from": {**ISO_TIME, "description": "the first missing boundary"},
                "to": {**ISO_TIME, "description": "the last missing boundary (inclusive)"},
                "count": {"type": "integer", "minimum": 1, "description": "missing snapshots from `from` to `to`"},
            }), "description": f"the missing ranges, newest first, at most {MAX_RANGES_SHOWN}"},
            "truncated": {"type": "boolean", "description": "more ranges are missing than listed (rangeCount says how many)"},
        }),
        {"type": "null"},
    ],
    "description": "the 15-minute snapshots missing in the chain's snapshot window (failed runs, skipped boundaries, "
                   "backfill holes): the catch-up sensor refills them once the chain's upstream answers; null until "
                   "the chain's first market activity is known",
}
FILLING_SCHEMA = {
    "type": "array",
    "items": {"enum": ["snapshots", "history"]},
    "uniqueItems": True,
    "description": "what is still filling in: `snapshots` while any snapshot of the window is missing "
                   "(coverage.missingSnapshots), `history` while the hourly buckets start more than an hour after the "
                   "first market activity (or there are none yet); empty when complete",
}


def holes_params(chains: Mapping[int, Any], chain_ids: list[int], now: float) -> dict[str, Any]:
    """The parameters of snapshot_holes.sql for `chain_ids` at `now`."""
    return {"chain_ids": chain_ids, "depth_days": [chains[c].snapshot_days for c in chain_ids], "now_ts": int(now),
            "grace_seconds": HOLES_GRACE_SECONDS, "max_ranges": MAX_RANGES_SHOWN}


def missing_snapshots(row: dict[str, Any] | None) -> dict[str, Any] | None:
    """A snapshot_holes.sql row as served: the window, the totals and the listed ranges; None when
    the chain has no window yet (its first market activity is unknown)."""
    if row is None:
        return None
    ranges = [{"from": iso(int(first)), "to": iso(int(last)), "count": int(count)} for first, last, count in row["ranges"]]
    return {
        "window": {"from": iso(int(row["window_from_ts"])), "to": iso(int(row["window_to_ts"]))},
        "count": int(row["missing_count"]),
        "rangeCount": int(row["range_count"]),
        "ranges": ranges,
        "truncated": len(ranges) < int(row["range_count"]),
    }


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


def filling(coverage: Coverage, missing: dict[str, Any] | None) -> list[str]:
    """What is still filling in (the catch-up sensor refills it): `snapshots` while any 15-minute
    snapshot of the chain's window is missing (`missing`: missing_snapshots), and `history`
    (the hourly buckets start more than an hour after the hour of the first market activity, or
    there are none while there is market activity)."""
    out: list[str] = []
    market = dataset_at(coverage, "market_activity", "first_at")
    if market is None:
        return out
    first_market = unix_seconds(market)
    if missing is not None and missing["count"] > 0:
        out.append("snapshots")
    hourly = dataset_at(coverage, "hourly", "first_at")
    if hourly is None or unix_seconds(hourly) > first_market // HOUR * HOUR + HOUR:
        out.append("history")
    return out


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


def chain_health(chain: Any, run: dict[str, Any] | None, coverage: Coverage, holes: dict[str, Any] | None, now: float,
                 stale_after_seconds: int) -> dict[str, Any]:
    snapshot_at, age = snapshot_age(run, now)
    missing = missing_snapshots(holes)
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
            "missingSnapshots": missing,
            "indexedAt": dataset_at(coverage, "subgraph", "last_at"),
            "chainHeadAt": dataset_at(coverage, "chain_head", "last_at"),
        },
        "filling": filling(coverage, missing),
    }


def chains_health(chains: Mapping[int, Any], runs: list[dict[str, Any]], coverage_rows: list[dict[str, Any]],
                  holes_rows: list[dict[str, Any]], now: float, stale_after_seconds: int) -> list[dict[str, Any]]:
    """One entry per configured chain, by chain id, whether or not it has any row yet."""
    by_chain = {int(row["chain_id"]): row for row in runs}
    coverage = coverage_by_chain(coverage_rows)
    holes = {int(row["chain_id"]): row for row in holes_rows}
    return [chain_health(chains[cid], by_chain.get(cid), coverage.get(cid, {}), holes.get(cid), now, stale_after_seconds)
            for cid in sorted(chains)]
