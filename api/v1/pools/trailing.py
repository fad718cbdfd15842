"""Handler of /v1/pools/{chainId}/{poolAddress}/trailing: the pool's volume and fees over each
requested trailing window, ending at its chain's anchor (the latest hourly bucket completed by
the published snapshot), with the evidence of a /v1/pools row's `flowWindows`.

A window's evidence is its chain's: every hourly bucket of the window indexed (the chain's
buckets, whose capture writes a bucket for every pool that existed in the hour). With it, the
pool's amounts are the sum of its buckets (zero where it traded nothing, or did not exist yet);
without it they are null, never a partial sum. The 24h and 7d windows are the pool's /v1/pools
row's `volume24hUsd`, `fees7dUsd`, ... value for value.
"""
from __future__ import annotations

import asyncio
from typing import Any

from ...routes import RequestContext, runs
from ..common.anchors import anchors, trailing_windows
from ..common.decimals import decimal_text
from ..common.path_chain import path_chain
from ..discovery import rows as discovery_rows
from .handlers import not_found


@runs("protocol", "protocol_flows", "pool_trailing")
async def trailing(ctx: RequestContext) -> dict[str, Any]:
    p = ctx.params
    chain = path_chain(ctx)
    cid, address = chain.chain_id, p["poolAddress"]
    requested = tuple((w.label, w.seconds) for w in p["windows"])
    at = await anchors(ctx, (chain,))
    end = at[0].end
    windows, rows = await asyncio.gather(
        trailing_windows(ctx, at, requested),
        ctx.rows("pool_trailing", chain_id=cid, snapshot_at=chain.snapshot.param, address=address,
                 curation=ctx.coverage.curation.digest, scope_all=int(p["scope"] == "all"),
                 starts=[end - seconds for _, seconds in requested] if end is not None else [], end=end or 0))
    if not rows or not rows[0]["servable"]:
        raise not_found(cid, address, p["scope"])
    sums = {int(i): (volume, fees) for i, volume, fees in rows[0]["sums"]}
    evidence = discovery_rows.chain_context(at, windows)[cid]["flowWindows"]
    out = []
    for i, window in enumerate(evidence, start=1):
        volume, fees = sums.get(i, (0.0, 0.0)) if window["evidence"] == "available" else (None, None)
        out.append({**window, "volumeUsd": decimal_text(volume), "feesUsd": decimal_text(fees)})
    if any(w["evidence"] != "available" for w in out) or end is None:
        ctx.meta["complete"] = False
    return {"chainId": cid, "address": address, "snapshotAt": chain.snapshot.at_iso, "windows": out}
