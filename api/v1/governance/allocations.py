"""Handler of /v1/votes?view=current: every veNFT's allocation in effect at each covered chain's
published snapshot, one row per veNFT and target, with the veNFT's voting power at that snapshot.
The allocation is the Voter's logs before the snapshot's time replayed (votes, pokes and resets;
allocations persist across epochs); it is whole only when the chain's governance events are
indexed from its deployment up to the snapshot (`coverage`: `fromDeployment`, `behind`), else
meta.complete is false. The weight is what the veNFT cast (its voting power at its last vote or
poke); the voting power is its lock's at the snapshot block, which decays until it pokes again."""
from __future__ import annotations

import asyncio
from typing import Any

from ...cursors import filters_digest
from ...errors import ApiError
from ...routes import RequestContext
from ..common.events_coverage import deployment_covered
from ..common.flows import stamp
from ..common.traversal import chains_traversal, one_page
from .bribes import events_coverage

CURSOR_FORMAT = 1
FILTER_NOT_IN_VIEW = "filter_not_in_view"
EVENTS_ONLY = ("epoch", "kind")  # filters of the logs, not of the allocations in effect


def check_filters(params: dict[str, Any]) -> None:
    for name in EVENTS_ONLY:
        if params[name] is not None:
            raise ApiError(400, FILTER_NOT_IN_VIEW, f"{name} filters the Voter's logs (view=events); view=current is "
                           "the allocations in effect at the snapshot", details={"param": name, "view": "current"})


def allocation(r: dict[str, Any]) -> dict[str, Any]:
    read = bool(r["lock_read"])
    return {
        "chainId": int(r["chain_id"]),
        "tokenId": str(r["venft_id"]),
        "owner": r["owner"] if read else None,
        "gauge": r["gauge_address"],
        "target": r["target"],
        "pool": r["pool_address"] or None,
        "weightRaw": r["weight_raw"],
        "usedWeightRaw": r["used_weight_raw"],
        "lastAction": {"kind": r["last_kind"], "at": stamp(r["last_at_ms"] // 1000),
                       "blockNumber": int(r["last_block"]), "transactionHash": r["last_tx"]},
        "lastVotedAt": stamp(r["last_voted_ms"] // 1000) if r["last_voted_ms"] else None,
        "lock": {
            "lockedRaw": r["locked_raw"],
            "unlockAt": None if r["permanent"] else stamp(r["unlock_ts"]),
            "permanent": bool(r["permanent"]),
            "votingPowerRaw": r["voting_power_raw"],
            "blockNumber": int(r["power_block"]),
            "at": stamp(r["power_at_ms"] // 1000),
        } if read else None,
    }


async def allocations(ctx: RequestContext, f: dict[str, Any]) -> dict[str, Any]:
    digest = filters_digest(f)
    payload, chains = chains_traversal(ctx, digest, CURSOR_FORMAT)
    c_chain, c_token, c_target = payload["key"] if payload else (0, 0, "")
    ids = [c.chain_id for c in chains]
    rows, (covered, indexed) = await asyncio.gather(
        ctx.rows("vote_allocations", chain_ids=ids, snapshot_ats=[c.snapshot.param for c in chains],
                 pool=f["pool"], pool_chain=f["poolChain"], gauge=f["gauge"], gauge_chain=f["gaugeChain"],
                 voter=f["voter"], token_id=-1 if f["tokenId"] is None else f["tokenId"],
                 after=int(payload is not None), c_chain=c_chain, c_token=c_token, c_target=c_target,
                 limit=ctx.params["limit"] + 1),
        events_coverage(ctx, chains))
    deployment_covered(ctx, covered, indexed)
    if not all(c["fromDeployment"] for c in covered):
        ctx.meta["complete"] = False
    rows = one_page(ctx, rows, digest, CURSOR_FORMAT, tuple(chains),
                    lambda last: [int(last["chain_id"]), int(last["venft_id"]), last["target"]])
    return {"view": "current", "rows": [allocation(r) for r in rows], "coverage": covered,
            "filters": {**f, "epoch": None}}
