"""Handlers of the protocol and system routes of /api/stats: the protocol snapshot, its history
and daily totals, the service configuration and snapshot freshness (per chain: chain_health.py).

Each runs the SQL file of warehouse_sql/queries/stats/ named after it (see RequestContext.rows)
and only shapes what SQL cannot express flatly.
"""
from __future__ import annotations

from typing import Any

from ..errors import ApiError
from ..routes import RequestContext, runs
from ..chain_health import UNHEALTHY, chains_health, last_run, snapshot_age
from ..coverage_holes import holes_params
from .flow_windows import HOURS_COLUMNS, flow_windows
from ...core.epochs import QUARTER_HOUR, iso
from ...core.methodology import METHODOLOGY_VERSION
from ...core import clock



@runs("protocol")
async def protocol(ctx: RequestContext) -> dict[str, Any]:
    rows = await ctx.rows()
    if not rows:  # a successful run always wrote its protocol row; treat a gap as a failed read
        raise LookupError(f"no protocol_snap15m row for the snapshot at {ctx.snapshot.at_iso if ctx.snapshot else '?'}")
    row = rows[0]
    window_end = row.pop("flowWindowEnd")
    hours = {column: row.pop(column) for column in HOURS_COLUMNS.values()}
    # flowWindows sits after the flow totals it describes
    out: dict[str, Any] = {}
    for key, value in row.items():
        out[key] = value
        if key == "fees30dUsd":
            out["flowWindows"] = flow_windows(window_end, hours)
    return out


@runs("protocol_history")
async def protocol_history(ctx: RequestContext) -> Any:
    return await ctx.json()


@runs("protocol_daily")
async def protocol_daily(ctx: RequestContext) -> Any:
    return await ctx.json()


@runs("config_pairs", "config_foundation")
async def config(ctx: RequestContext) -> dict[str, Any]:
    snapshot = ctx.snapshot
    assert snapshot is not None
    pairs = await ctx.rows("config_pairs")
    foundation = await ctx.rows("config_foundation")
    settings = ctx.settings
    return {
        "chainId": ctx.chain_id,
        "methodologyVersion": METHODOLOGY_VERSION,
        "snapshotIntervalMinutes": QUARTER_HOUR // 60,
        "foundation": {"wallet": settings.foundation_wallet, "veNftIds": list(foundation[0]["veNftIds"]) if foundation else []},
        "trackedPairs": [row["pair"] for row in pairs],
        "contracts": settings.contracts(ctx.chain_id),
        "lastSuccessfulSnapshot": {
            "id": snapshot.unix,
            "snapshotAt": snapshot.at_iso,
            "blockNumber": snapshot.block_number,
            "runId": snapshot.run_id,
        },
    }


@runs("health", "health_coverage", "coverage_holes")
async def health(ctx: RequestContext) -> dict[str, Any]:
    """200 with `healthy: true`, or 503 `unhealthy` with the same object as `error.details`.

    The status and the top-level fields are about the family's chain; `chains` reports every
    configured chain (chain_health.py) and never changes the status."""
    settings = ctx.settings
    stale_after_minutes = int(settings.stale_after_minutes)
    now = clock.now()
    status: dict[str, Any] = {
        "healthy": False,
        "reason": "warehouse_unreachable",
        "checkedAt": iso(now),
        "snapshotAt": None,
        "ageSeconds": None,
        "staleAfterMinutes": stale_after_minutes,
        "lastRun": None,
        "chains": [],
    }
    chain_ids = sorted(set(settings.chains) | {ctx.chain_id})
    try:
        runs = await ctx.rows(chain_ids=chain_ids)
        coverage = await ctx.rows("health_coverage", chain_ids=chain_ids)
        holes = await ctx.rows("coverage_holes", **holes_params(settings.chains, chain_ids, now))
    except Exception as exc:  # noqa: BLE001 - an unreachable warehouse is an unhealthy service, not a 500
        raise ApiError(503, UNHEALTHY, f"the warehouse is unreachable ({type(exc).__name__})", details=status) from exc
    status["chains"] = chains_health(settings.chains, runs, coverage, holes, now, stale_after_minutes * 60)
    row = next((r for r in runs if r["chain_id"] == ctx.chain_id), None)
    status["lastRun"] = last_run(row, with_error=False)
    snapshot_at, age = snapshot_age(row, now)
    if snapshot_at is None or age is None:
        status["reason"] = "no_successful_snapshot"
        raise ApiError(503, UNHEALTHY, "no successful snapshot has been published yet", details=status)
    status.update(snapshotAt=snapshot_at, ageSeconds=age)
    if age >= stale_after_minutes * 60:
        status["reason"] = "stale"
        raise ApiError(
            503,
            UNHEALTHY,
            f"the latest successful snapshot ({snapshot_at}) is {age // 60} minutes old; the threshold is {stale_after_minutes} minutes",
            details=status,
        )
    status.update(healthy=True, reason="fresh")
    return status
