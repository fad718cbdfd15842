"""Handler of /v1/pools/{chainId}/{poolAddress}.

A pool is served at its chain's published snapshot (the coverage pins it): its /v1/pools row
(discovery_rows.pool over the v1_pool_rows view, the same windows and APRs, value for value) in
the requested scope and under any servable curation status, else 404 `pool_not_found`; then its
state at that snapshot (state.py): holdings priced leg by leg and marginal prices, and the
emissions scenario of the selected aprProfile.
"""
from __future__ import annotations

from typing import Any

from ...errors import ApiError
from ...routes import RequestContext, runs
from ..common.anchors import ROLLING_WINDOWS, anchors, trailing_windows
from ..common.decimals import UNDER_BITS
from ..common.path_chain import path_chain
from ..common.prices import Boundary, prices_at
from ..discovery import rows as discovery_rows
from . import state

POOL_NOT_FOUND = "pool_not_found"


def not_found(chain_id: int, address: str, scope: str) -> ApiError:
    hint = " (scope=all admits uncurated factory pools)" if scope == "curated" else ""
    return ApiError(404, POOL_NOT_FOUND, f"pool {address} is not listed in chain {chain_id}'s published snapshot in "
                    f"scope {scope}{hint}, or the curation blocks it")


@runs("protocol", "protocol_flows", "pool", "prices_at")
async def pool(ctx: RequestContext) -> dict[str, Any]:
    p = ctx.params
    chain = path_chain(ctx)
    cid, address, profile = chain.chain_id, p["poolAddress"], p["aprProfile"]
    at = await anchors(ctx, (chain,))
    windows = await trailing_windows(ctx, at, ROLLING_WINDOWS)
    anchor = at[0]
    ok = [int(w["complete"]) for w in windows[cid]] if anchor.end is not None else [0, 0]
    rows = await ctx.rows("pool", chain_ids=[cid], snapshot_ats=[chain.snapshot.param], ends=[anchor.end or 0],
                          ok24=[ok[0]], ok7=[ok[1]], curation=ctx.coverage.curation.digest, apr_profile=profile,
                          scope_all=int(p["scope"] == "all"), underflow=UNDER_BITS, address=address)
    if not rows:
        raise not_found(cid, address, p["scope"])
    if not all(ok):
        ctx.meta["complete"] = False
    row = rows[0]
    at_unix = chain.snapshot.unix
    legs = await prices_at(ctx, [chain], [Boundary(cid, row["token0_address"], at_unix),
                                          Boundary(cid, row["token1_address"], at_unix)])
    max_age = ctx.settings.price_max_age_seconds
    return {
        **discovery_rows.pool(row, discovery_rows.chain_context(at, windows)[cid]),
        "snapshotAt": chain.snapshot.at_iso,
        "blockNumber": chain.snapshot.block_number,
        "emissionsScenario": state.emissions_scenario(row, profile),
        "liquidityState": state.liquidity_state(row, legs, max_age, chain.snapshot),
    }
