"""Handler of /v1/accounts/{address}/activity: one chronological feed of what the address did on
the selected chains, newest first, in pages with signed cursors: its Voter transactions (as the
veNFT's owner when they were sent), its lock operations and veNFT transfers and merges, the rewards
paid to it, its vault deposits and redemptions,
its xCORE moves and its liquidity (adds, removals, stakes, unstakes, fee collects, emission claims). Each chain's records are those before its published snapshot's time, as far as
the chain's events of each domain are indexed (`coverage`: one record per domain the chain has)."""
from __future__ import annotations

import asyncio
from typing import Any

import orjson

from ...cursors import filters_digest
from ...routes import RequestContext, runs
from ..common.decimals import quantity
from ..common.events_coverage import read_coverages
from ..common.flows import stamp
from ..common.traversal import chains_traversal, one_page
from ..governance.bribes import GOVERNANCE_EVENTS
from ..xcore.state import XCORE_EVENTS
from .liquidity import LIQUIDITY_DATASET

CURSOR_FORMAT = 1
KINDS = {  # a record's kind -> the part of the record that holds its own fields
    **dict.fromkeys(("vote", "poke", "reset"), "vote"),
    **dict.fromkeys(("lockCreate", "lockIncrease", "lockDepositFor", "lockExtend", "lockPermanent", "lockWithdraw",
                     "veTransferIn", "veTransferOut", "veMerge", "veSplit"), "lock"),
    "claim": "claim",
    "rebaseClaim": "rebase",
    **dict.fromkeys(("vaultDeposit", "vaultRedemption"), "vault"),
    **dict.fromkeys(("xcoreDeposit", "xcoreExit", "xcoreBridgeOut", "xcoreBridgeIn"), "xcore"),
    **dict.fromkeys(("lpAdd", "lpRemove", "lpStake", "lpUnstake", "lpCollect", "lpClaim"), "liquidity"),
}
PARTS = {"vote": "governance", "lock": "governance", "claim": "governance", "rebase": "governance", "vault": "vaults",
         "xcore": "xcore", "liquidity": "liquidity"}
DOMAINS = {"governance": ("gauges", GOVERNANCE_EVENTS), "vaults": ("vaults", "vault_events"),
           "xcore": ("xcore", XCORE_EVENTS),
           "liquidity": ("liquidityPositions", LIQUIDITY_DATASET)}  # domain -> (chain feature, chain_coverage dataset)
LIQUIDITY_EVENTS = ("v2Add", "v2Remove", "v2Stake", "v2Unstake", "clMint", "clStake", "clUnstake", "clCollect",
                    "clBurn", "claim")  # the chain's own events behind the lp* kinds
KINDS_PATTERN = f"(?:{'|'.join(KINDS)})(?:,(?:{'|'.join(KINDS)}))*"


def _targets(logs: list) -> list[dict[str, Any]]:
    return [{"target": t, "gauge": g, "pool": p or None, "weight": quantity(w)} for t, g, p, w in logs]


def _vote(d: dict[str, Any]) -> dict[str, Any]:
    return {"tokenId": d["tokenId"], "voted": _targets(d["voted"]), "abstained": _targets(d["abstained"])}


def _lock(d: dict[str, Any]) -> dict[str, Any]:
    return {"tokenId": d["tokenId"], "from": d["from"], "to": d["to"], "amount": quantity(d["amount"]),
            "unlockAt": None if d["unlockTime"] is None else stamp(d["unlockTime"]), "permanent": bool(d["permanent"]),
            "mergedInto": None if d["mergedInto"] is None else str(d["mergedInto"]),
            "splitFrom": None if d.get("splitFrom") is None else str(d["splitFrom"])}


def _claim(d: dict[str, Any]) -> dict[str, Any]:
    return {"tokenId": d["tokenId"], "rewardKind": d["rewardKind"], "epochStart": stamp(d["epoch"]),
            "gauge": d["gauge"], "pool": d["pool"] or None,
            "token": {"address": d["token"], "symbol": d["symbol"], "decimals": d["decimals"]},
            "amount": quantity(d["amount"], d["decimals"]), "amountUsd": d["amountUsd"]}


def _rebase(d: dict[str, Any]) -> dict[str, Any]:
    return {"tokenId": d["tokenId"], "fromEpoch": stamp(d["fromEpoch"]), "toEpochExclusive": stamp(d["toEpoch"]),
            "toLock": bool(d["toLock"]), "token": {"address": d["token"], "symbol": d["symbol"], "decimals": d["decimals"]},
            "amount": quantity(d["amount"], d["decimals"]), "amountUsd": d["amountUsd"]}


def _vault(d: dict[str, Any]) -> dict[str, Any]:
    known = d["known"]  # the vault's tokens as its snapshot row holds them

    def leg(i: int) -> dict[str, Any]:
        return {"token": d[f"token{i}"] if known else None,
                **quantity(d[f"amount{i}"], d[f"decimals{i}"] if known else None)}
    return {"vault": d["vault"], "shares": quantity(d["shares"], d["shareDecimals"] if known else None),
            "amount0": leg(0), "amount1": leg(1), "amountUsd": d["amountUsd"]}


def _xcore(d: dict[str, Any]) -> dict[str, Any]:
    return {"shares": quantity(d["shares"]), "amount": quantity(d["amount"]), "penalty": quantity(d["penalty"]),
            "guid": d["guid"] or None, "srcChainId": d["srcChainId"] or None, "dstChainId": d["dstChainId"] or None}


def _liquidity(d: dict[str, Any]) -> dict[str, Any]:
    def amount(prefix: str, token: str, decimals: Any) -> dict[str, Any]:
        return {"token": token or None, **quantity(d[prefix], decimals)}

    cl = d["positionId"].startswith("cl:")
    return {"event": d["event"], "positionKind": "cl" if cl else "v2", "positionId": d["positionId"],
            "tokenId": d["tokenId"], "pool": d["pool"],
            "lp": quantity(d["lp"], 18), "liquidity": quantity(d["liquidity"], 0),
            "tickLower": d["tickLower"], "tickUpper": d["tickUpper"],
            "amount0": amount("amount0", d["token0"], d["decimals0"]), "amount1": amount("amount1", d["token1"], d["decimals1"]),
            "fees0": amount("fees0", d["token0"], d["decimals0"]), "fees1": amount("fees1", d["token1"], d["decimals1"]),
            "emissions": amount("emissions", d["emissionsToken"], d["emissionsDecimals"]),
            "staked": None if d["staked"] is None else bool(d["staked"])}


BUILDERS = {"vote": _vote, "lock": _lock, "claim": _claim, "rebase": _rebase, "vault": _vault, "xcore": _xcore,
            "liquidity": _liquidity}


def record(r: dict[str, Any]) -> dict[str, Any]:
    part = KINDS[r["kind"]]
    return {"chainId": int(r["chain_id"]), "kind": r["kind"], "id": r["id"], "at": stamp(r["at_ms"] // 1000),
            "blockNumber": int(r["block_number"]), "transactionHash": r["transaction_hash"],
            "logIndex": int(r["log_index"]), **dict.fromkeys(BUILDERS),
            part: BUILDERS[part](orjson.loads(r["detail"]) | (orjson.loads(r["tokens"]) if part == "vault" else {}))}


async def _coverage(ctx: RequestContext, chains, domains: list[str]) -> list[dict[str, Any]]:
    """Per chain: how far each wanted domain it has is indexed (None: the chain lacks the domain)."""
    having = {d: [c for c in chains if ctx.settings.chains[c.chain_id].supports(DOMAINS[d][0])] for d in domains}
    found = await read_coverages(ctx, {DOMAINS[d][1]: cs for d, cs in having.items() if cs})
    by_domain = {d: found[DOMAINS[d][1]][0] for d, cs in having.items() if cs}
    return [{"chainId": c.chain_id, "snapshotAt": c.snapshot.at_iso,
             **{d: next((x for x in by_domain.get(d, ()) if x["chainId"] == c.chain_id), None) for d in DOMAINS}}
            for c in chains]


@runs("account_activity", "events_coverage")
async def activity(ctx: RequestContext) -> dict[str, Any]:
    address = ctx.params["address"].lower()
    kinds = list(dict.fromkeys(ctx.params["kinds"].split(","))) if ctx.params["kinds"] else list(KINDS)
    f = {"address": address, "chainIds": list(ctx.coverage.chain_ids), "kinds": kinds}
    digest = filters_digest(f)
    payload, chains = chains_traversal(ctx, digest, CURSOR_FORMAT)
    c_at, c_chain, c_block, c_log, c_kind, c_id = payload["key"] if payload else (0, 0, 0, 0, "", "")
    domains = [d for d in DOMAINS if any(PARTS[KINDS[k]] == d for k in kinds)]
    rows, covered = await asyncio.gather(
        ctx.rows("account_activity", address=address, chain_ids=[c.chain_id for c in chains],
                 snapshot_ats=[c.snapshot.param for c in chains], kinds=kinds, after=int(payload is not None),
                 c_at=c_at, c_chain=c_chain, c_block=c_block, c_log=c_log, c_kind=c_kind, c_id=c_id,
                 limit=ctx.params["limit"] + 1),
        _coverage(ctx, chains, domains))
    rows = one_page(ctx, rows, digest, CURSOR_FORMAT, tuple(chains), lambda last: [
        last["at_ms"], int(last["chain_id"]), int(last["block_number"]), int(last["log_index"]), last["kind"],
        last["id"]])
    return {"address": address, "rows": [record(r) for r in rows], "coverage": covered, "filters": f}
