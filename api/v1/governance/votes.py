"""Handler of /v1/votes. view=events: the Voter's logs of the covered chains, newest first, in
pages with signed cursors. Each log is one `Voted` (weight put on a pool or a system gauge's
target) or `Abstained` (weight taken off) of a transaction of kind `vote` (abstains from the
veNFT's previous targets, then votes), `poke` (recasts the same targets with the veNFT's current
voting power) or `reset` (abstains from all). Allocations persist from epoch to epoch until their
veNFT votes again, pokes or resets (Velodrome's Voter), so replaying the logs in order gives every
allocation in effect. Each chain's logs are those before its published snapshot's time, as far as
its governance events are indexed (`coverage`). view=current: the allocations in effect
(allocations.py)."""
from __future__ import annotations

import asyncio
from typing import Any

from ...cursors import filters_digest
from ...routes import RequestContext, runs
from ..common.epochs import aligned_epoch
from ..common.flows import stamp
from ..common.params import qualified
from ..common.traversal import chains_traversal, one_page
from .allocations import allocations, check_filters
from .bribes import events_coverage

CURSOR_FORMAT = 1


def filters(ctx: RequestContext) -> dict[str, Any]:
    p = ctx.params
    pool_chain, pool = qualified(p["pool"])
    gauge_chain, gauge = qualified(p["gauge"])
    return {"view": p["view"], "chainIds": list(ctx.coverage.chain_ids), "epoch": aligned_epoch(p["epoch"], "epoch"),
            "pool": pool, "poolChain": pool_chain, "gauge": gauge, "gaugeChain": gauge_chain,
            "voter": (p["voter"] or "").lower(), "tokenId": p["tokenId"], "kind": p["kind"] or ""}


def event(r: dict[str, Any]) -> dict[str, Any]:
    voted = r["event_name"] == "Voted"
    return {
        "chainId": int(r["chain_id"]),
        "id": r["id"],
        "kind": r["kind"],
        "event": r["event_name"],
        "tokenId": str(r["venft_id"]),
        "voter": r["owner"],
        "gauge": r["gauge_address"],
        "target": r["target"],
        "pool": r["pool_address"] or None,
        "weightRaw": r["weight_raw"],
        "deltaRaw": r["weight_raw"] if voted else f"-{r['weight_raw']}" if r["weight_raw"] != "0" else "0",
        "targetWeightAfterRaw": r["target_weight_raw"],
        "totalWeightAfterRaw": r["total_weight_raw"],
        "epochStart": stamp(r["epoch_ts"]),
        "at": stamp(r["at_ms"] // 1000),
        "blockNumber": int(r["block_number"]),
        "transactionHash": r["transaction_hash"],
        "logIndex": int(r["log_index"]),
    }


@runs("vote_events", "vote_allocations", "events_coverage")
async def votes(ctx: RequestContext) -> dict[str, Any]:
    if ctx.params["view"] == "current":
        check_filters(ctx.params)  # before the epoch's own checks
        return await allocations(ctx, filters(ctx))
    f = filters(ctx)
    digest = filters_digest(f)
    payload, chains = chains_traversal(ctx, digest, CURSOR_FORMAT)
    c_at, c_chain, c_block, c_log = payload["key"] if payload else (0, 0, 0, 0)
    ids = [c.chain_id for c in chains]
    rows, (covered, _) = await asyncio.gather(
        ctx.rows("vote_events", chain_ids=ids, snapshot_ats=[c.snapshot.param for c in chains],
                 epoch=f["epoch"] or 0, pool=f["pool"], pool_chain=f["poolChain"], gauge=f["gauge"],
                 gauge_chain=f["gaugeChain"], voter=f["voter"],
                 token_id=-1 if f["tokenId"] is None else f["tokenId"], kind=f["kind"],
                 after=int(payload is not None), c_at=c_at, c_chain=c_chain, c_block=c_block, c_log=c_log,
                 limit=ctx.params["limit"] + 1),
        events_coverage(ctx, chains))
    rows = one_page(ctx, rows, digest, CURSOR_FORMAT, tuple(chains), lambda last: [
        last["at_ms"], int(last["chain_id"]), int(last["block_number"]), int(last["log_index"])])
    echo = {**f, "epoch": None if f["epoch"] is None else stamp(f["epoch"])}
    return {"view": f["view"], "rows": [event(r) for r in rows], "coverage": covered, "filters": echo}
