"""Handler of /v1/pools/{chainId}/{poolAddress}/ticks (ADR 0014).

A page of the pool's initialized ticks at its chain's published snapshot, ascending from
`tickLower` (inclusive) to `tickUpper` (exclusive). Each boundary's `liquidityAfterRaw` is the
running sum of liquidityNet from the left end of the table: the liquidity left of the range
(`liquidityBeforeRangeRaw`) plus the range's boundaries up to it. A traversal is pinned: the
cursor carries the first page's snapshot, the next tick and the running liquidity before it, so
later pages read the same table whatever was published since, and read only their own rows.
"""
from __future__ import annotations

from typing import Any

from ...cursors import filters_digest
from ...errors import ApiError
from ...routes import RequestContext, runs
from ..common.traversal import next_cursor, traversal
from .handlers import not_found

CURSOR_FORMAT = 1
INVALID_TICK_RANGE = "invalid_tick_range"
NOT_CONCENTRATED = "pool_not_concentrated_liquidity"
NOT_MATERIALIZED = "ticks_not_materialized"


def _boundaries(page: list[tuple], before: int) -> tuple[list[dict[str, Any]], int]:
    """The served boundaries, and the running liquidity after the last one."""
    out, running = [], before
    for tick, net, gross in page:
        running += int(net)
        out.append({"tick": tick, "liquidityNet": net, "liquidityGross": gross, "liquidityAfterRaw": str(running)})
    return out, running


@runs("pool_ticks")
async def page(ctx: RequestContext) -> dict[str, Any]:
    p = ctx.params
    cid, address, lower, upper, limit = p["chainId"], p["poolAddress"], p["tickLower"], p["tickUpper"], p["limit"]
    if lower >= upper:
        raise ApiError(400, INVALID_TICK_RANGE, f"tickLower ({lower}) must be below tickUpper ({upper}): tickLower is "
                       "inclusive, tickUpper exclusive")
    filter_digest = filters_digest({"chainId": cid, "address": address, "scope": p["scope"], "tickLower": lower,
                                    "tickUpper": upper})
    payload, chain = traversal(ctx, filter_digest, CURSOR_FORMAT)
    if payload:
        start, before_range, before_page = payload["next"], int(payload["beforeRange"]), int(payload["beforePage"])
    else:
        start, before_range, before_page = lower, None, None
    rows = await ctx.rows("pool_ticks", chain_id=cid, snapshot_at=chain.snapshot.param, address=address,
                          curation=ctx.coverage.curation.digest, scope_all=int(p["scope"] == "all"), tick_lower=lower,
                          tick_upper=upper, start=start, take=limit + 1, with_before=int(before_range is None))
    if not rows or not rows[0]["servable"]:
        raise not_found(cid, address, p["scope"])
    row = rows[0]
    if row["pool_type"] != "cl":
        raise ApiError(400, NOT_CONCENTRATED, f"pool {address} is a {row['pool_type']} pool: only concentrated-"
                       "liquidity pools have ticks")
    if not row["materialized"]:
        raise ApiError(503, NOT_MATERIALIZED, f"the ticks of pool {address} were not materialized for chain {cid}'s "
                       f"snapshot {chain.snapshot.at_iso}; a later snapshot will have them")
    if before_range is None:
        before_range = before_page = int(row["before_range"])
    boundaries, running = _boundaries(row["page"][:limit], before_page)
    more = len(row["page"]) > limit
    complete = bool(row["verified"])
    if not complete:
        ctx.meta["complete"] = False
    ctx.meta["pageInfo"] = {"hasNextPage": more, "nextCursor": next_cursor(
        ctx, filter_digest, CURSOR_FORMAT, chain, next=boundaries[-1]["tick"] + 1, beforeRange=str(before_range),
        beforePage=str(running)) if more else None}
    return {
        "chainId": cid,
        "address": address,
        "snapshotAt": chain.snapshot.at_iso,
        "blockNumber": row["tick_block"],
        "tickLower": lower,
        "tickUpper": upper,
        "currentTick": row["current_tick"],
        "activeLiquidityRaw": row["liquidity_raw"],
        "liquidityBeforeRangeRaw": str(before_range),
        "liquidityBeforePageRaw": str(before_page),
        "complete": complete,
        "invariants": {
            "tickCount": row["tick_count"],
            "liquidityNetSum": row["net_sum"],
            "liquidityAtCurrentTickRaw": row["running_at_current"],
            "minimumRunningLiquidityRaw": row["min_running"],
            "holds": complete,
            "problem": row["problem"] or None,
        },
        "ticks": boundaries,
    }
