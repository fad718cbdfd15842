"""Handler of /v1/accounts/{address}/voting-positions: the veNFTs the address owns at each selected
chain's published snapshot, as the chain's VotingEscrow held them at the snapshot block (so
ownership follows every transfer, merge or split before it), each with its lock, its voting power
there, the allocation in effect (the Voter's logs before the snapshot replayed, as /v1/votes'
current view) and its last vote; per chain the count and sums over all pages.

Per-lock state is kept for the recent snapshots alone: a chain whose locks were not read at its
snapshot is `not_read` (its positions unknown, not none), and an allocation is whole only when the
chain's governance events are indexed from its deployment up to the snapshot (`coverage`)."""
from __future__ import annotations

import asyncio
from typing import Any

from ...cursors import filters_digest
from ...routes import RequestContext, runs
from ....core.epochs import epoch_start
from ..common.decimals import quantity
from ..common.events_coverage import deployment_covered
from ..common.flows import stamp
from ..common.traversal import chains_traversal, one_page
from ..governance.bribes import events_coverage

CURSOR_FORMAT = 1


def _lock_status(r: dict[str, Any]) -> str:
    if r["permanent"]:
        return "permanent"
    return "decaying" if r["unlock_ts"] > r["power_at_ms"] // 1000 else "expired"


def position(r: dict[str, Any]) -> dict[str, Any]:
    used = int(r["used_weight_raw"])
    voted = int(r["last_voted_ms"] or 0) // 1000 if r["acted"] else 0
    return {
        "chainId": int(r["chain_id"]),
        "tokenId": str(r["venft_id"]),
        "status": _lock_status(r),
        "locked": quantity(r["locked_raw"]),
        "unlockAt": None if r["permanent"] else stamp(r["unlock_ts"]),
        "votingPower": quantity(r["voting_power_raw"]),
        "observation": {"blockNumber": int(r["power_block"]), "at": stamp(r["power_at_ms"] // 1000)},
        "usedWeight": quantity(used),
        "allocation": [{"target": target, "gauge": gauge, "pool": pool or None, "weight": quantity(weight),
                        "share": quantity(int(weight) * 10 ** 18 // used)["value"]}
                       for target, gauge, pool, weight in r["allocation"]],
        "lastAction": {"kind": r["last_kind"], "at": stamp(r["last_at_ms"] // 1000),
                       "blockNumber": int(r["last_block"]), "transactionHash": r["last_tx"]} if r["acted"] else None,
        "lastVotedAt": stamp(voted) if voted else None,
        "lastVotedEpoch": stamp(epoch_start(voted)) if voted else None,
    }


def chain_entry(c, row: dict[str, Any] | None, cover: dict[str, Any] | None) -> dict[str, Any]:
    """One selected chain: its snapshot's locks of the address summed (`c`: its coverage; `row`: its
    account_voting_chains row; `cover`: its governance events' coverage, None without a snapshot)."""
    status = "unavailable" if not c.snapshot else "observed" if row and row["locks_read"] else "not_read"
    observed = status == "observed"
    return {
        "chainId": c.chain_id,
        "status": status,
        "snapshotAt": c.snapshot.at_iso if c.snapshot else None,
        "blockNumber": int(row["block_number"]) if row else None,
        "positions": int(row["owned"]) if observed else None,
        "locked": quantity(row["locked_raw"] if observed else None),
        "votingPower": quantity(row["voting_power_raw"] if observed else None),
        "complete": observed and cover["fromDeployment"] and not cover["behind"],
        "coverage": cover,
    }


@runs("account_voting_positions", "account_voting_chains", "events_coverage")
async def voting_positions(ctx: RequestContext) -> dict[str, Any]:
    address = ctx.params["address"].lower()
    digest = filters_digest({"address": address, "chainIds": list(ctx.coverage.chain_ids)})
    payload, chains = chains_traversal(ctx, digest, CURSOR_FORMAT)
    c_chain, c_token = payload["key"] if payload else (0, 0)
    ids, ats = [c.chain_id for c in chains], [c.snapshot.param for c in chains]
    rows, sums, (covered, indexed) = await asyncio.gather(
        ctx.rows("account_voting_positions", address=address, chain_ids=ids, snapshot_ats=ats,
                 after=int(payload is not None), c_chain=c_chain, c_token=c_token, limit=ctx.params["limit"] + 1),
        ctx.rows("account_voting_chains", address=address, chain_ids=ids, snapshot_ats=ats),
        events_coverage(ctx, chains))
    deployment_covered(ctx, covered, indexed)
    cover = {c["chainId"]: c for c in covered}
    by_chain = {int(r["chain_id"]): r for r in sums}
    read = {c.chain_id: c for c in chains}
    selected = [read.get(c.chain_id, c) for c in ctx.coverage.chains]  # a pinned chain as its first page read it
    entries = [chain_entry(c, by_chain.get(c.chain_id), cover.get(c.chain_id)) for c in selected]
    if not all(e["complete"] for e in entries):
        ctx.meta["complete"] = False
    rows = one_page(ctx, rows, digest, CURSOR_FORMAT, tuple(chains),
                    lambda last: [int(last["chain_id"]), int(last["venft_id"])])
    return {"address": address, "rows": [position(r) for r in rows], "chains": entries}
