"""Handler of /v1/accounts/{address}/rewards: the rewards of one address on the selected chains, each
chain at its published snapshot (account_rewards.sql): what the veNFTs it owns there earned in ended
epochs and what its liquidity positions have not claimed (claimable, valued at the snapshot's price
of the token), and the claims paid to it (claimed, valued at the claim's time). A reward is either
claimable or claimed; kinds are summed apart, and a USD sum that lacks a value says so
(`usdComplete`).

The kinds: a veNFT's bribes, trading fees and rebases (the rewards distributor's weekly rebase, per
veNFT and epoch), and a liquidity position's gauge emissions (claimable: what the gauge holds for
the position at the snapshot; claimed: each claim)."""
from __future__ import annotations

import asyncio
from fractions import Fraction
from typing import Any

from ...cursors import filters_digest
from ...routes import RequestContext, runs
from ..common.decimals import decimal_text, fraction_text, quantity
from ..common.events_coverage import deployment_covered, read_coverages
from ..common.flows import stamp
from ..common.prices import TOKEN_NOT_FOUND, Boundary, PriceAt, prices_at
from ..common.traversal import chains_traversal, one_page
from ..governance.bribes import GOVERNANCE_EVENTS
from .liquidity import LIQUIDITY_DATASET
from .voting import chain_entry

CURSOR_FORMAT = 2  # 2: the page key ends with the item (an emission's position or claim)
STATUSES = ("claimable", "claimed")
VENFT_KINDS = ("bribe", "fee", "rebase")  # a veNFT's; an emission is a liquidity position's
KINDS = (*VENFT_KINDS, "emission")
NO_PRICE_AT_CLAIM = "no_price_at_claim"  # a claimed reward's token had no USD price at the claim
KIND_NOTES = {
    "bribe": "bribes deposited on a gauge in the epoch, shared by the votes for it at the epoch's end",
    "fee": "the pool's trading fees of the epoch, shared by the votes for its gauge at the epoch's end",
    "emission": "the core token a gauge streams to the liquidity staked in it, per position (not per veNFT): "
                "claimable, what the gauge holds for each open position at the snapshot (listed in the snapshot's "
                "epoch: the gauge keeps one amount per position, not one per epoch); claimed, each claim (a claim, "
                "or an unstake that claims) in its epoch, valued at the token's hourly close of the claim's hour",
    "rebase": "the rewards distributor's weekly rebase: per ended epoch, the veNFT's voting power at the epoch's start "
              "over the escrow's total then, times what the minter sent the distributor at the flip, rounded down as "
              "the distributor rounds; one claim takes every epoch since the last (claimed into a live lock, paid to "
              "the owner of an expired one)",
}


def _token(r: dict[str, Any]) -> dict[str, Any]:
    decimals = r["decimals"]
    return {"address": r["token_address"], "symbol": r["symbol"] or None,
            "decimals": None if decimals is None else int(decimals)}


def page_rows(groups: list[dict[str, Any]], limit: int) -> list[dict[str, Any]]:
    """The first `limit` rewards in the page order among the groups' `page` tuples (each group holds
    its own first ones, so the union holds the answer's), as rows with the group's fields."""
    rows = []
    for g in groups:
        for (chain, neg_epoch, venft, gauge, kind, token, item, pool, raw, usd, claim_ms, claim_block, claim_tx,
             position) in g["page"]:
            rows.append({"chain_id": chain, "epoch_s": -neg_epoch, "venft_id": venft, "gauge_address": gauge,
                         "kind": kind, "token_address": token, "item": item, "pool_address": pool, "amount_raw": raw,
                         "amount_usd": usd, "claim_ms": claim_ms, "claim_block": claim_block, "claim_tx": claim_tx,
                         "position_id": position, "status": g["status"], "symbol": g["symbol"],
                         "decimals": g["decimals"]})
    rows.sort(key=page_key)
    return rows[:limit]


def page_key(r: dict[str, Any]) -> tuple:
    """A reward's place in the pages (account_rewards.sql's order)."""
    return (int(r["chain_id"]), -int(r["epoch_s"]), int(r["venft_id"]), r["gauge_address"], r["kind"],
            r["token_address"], r["item"])


def _value(r: dict[str, Any], raw: int, price: PriceAt | None, max_age: int) -> dict[str, Any]:
    """USD of an amount: a claimed one at the claim's time (the indexer's amountUSD), a claimable one
    at its chain's snapshot price (the accepted observation, else null with the reason)."""
    if r["status"] == "claimed":
        usd = r["amount_usd"]
        return {"usd": decimal_text(usd), "basis": "at_claim", "price": None,
                "reason": None if usd is not None else NO_PRICE_AT_CLAIM}
    found, reason = price.current(max_age) if price is not None and price.listed else (None, TOKEN_NOT_FOUND)
    if found is None or r["decimals"] is None:
        return {"usd": None, "basis": "current_price", "price": found, "reason": reason or TOKEN_NOT_FOUND}
    usd = Fraction(raw, 10 ** int(r["decimals"])) * Fraction(float(price.row["p_price"]))
    return {"usd": fraction_text(usd), "basis": "current_price", "price": found, "reason": None}


def reward(r: dict[str, Any], price: PriceAt | None, max_age: int) -> dict[str, Any]:
    raw = int(r["amount_raw"])
    claimed = r["status"] == "claimed"
    return {
        "chainId": int(r["chain_id"]),
        "tokenId": None if r["kind"] == "emission" else str(r["venft_id"]),
        "positionId": r["position_id"] or None,
        "epochStart": stamp(int(r["epoch_s"])),
        "kind": r["kind"],
        "status": r["status"],
        "gauge": r["gauge_address"] or None,
        "pool": r["pool_address"] or None,
        "token": _token(r),
        "amount": quantity(raw, r["decimals"]),
        "value": _value(r, raw, price, max_age),
        "claim": {"at": stamp(int(r["claim_ms"]) // 1000), "blockNumber": int(r["claim_block"]),
                  "transactionHash": r["claim_tx"]} if claimed else None,
    }


def _total(r: dict[str, Any], price: PriceAt | None, max_age: int) -> dict[str, Any]:
    raw = int(r["amount_raw"])
    value = _value(r, raw, price, max_age)
    if r["status"] == "claimed":  # the claims' USD summed: complete only if every claim had one
        value["reason"] = NO_PRICE_AT_CLAIM if int(r["usd_missing"]) else None
    return {"kind": r["kind"], "status": r["status"], "token": _token(r), "amount": quantity(raw, r["decimals"]),
            "rewards": int(r["rewards"]), "usd": value["usd"],
            "usdComplete": value["usd"] is not None and value["reason"] is None, "reason": value["reason"]}


def by_kind(totals: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per (kind, status): the USD of its tokens that have one, and whether every token has."""
    out: dict[tuple, dict[str, Any]] = {}
    for t in totals:
        k = out.setdefault((t["kind"], t["status"]), {"kind": t["kind"], "status": t["status"], "usd": Fraction(0),
                                                      "priced": 0, "tokens": 0, "usdComplete": True})
        k["tokens"] += 1
        k["usdComplete"] &= t["usdComplete"]
        if t["usd"] is not None:
            k["usd"] += Fraction(t["usd"])
            k["priced"] += 1
    return [{"kind": k["kind"], "status": k["status"], "tokens": k["tokens"], "usdComplete": k["usdComplete"],
             "usd": fraction_text(k["usd"]) if k["priced"] else None} for _, k in sorted(out.items())]


def emissions_entry(ch, lp_read: set[int], cover: dict[str, Any] | None, supported: bool) -> dict[str, Any]:
    """One chain's emissions: whether its positions were read at the snapshot (their unclaimed
    emissions known) and how far its liquidity events (the claims) are indexed."""
    if not supported:
        return {"status": "unsupported", "coverage": None, "complete": True}
    status = "unavailable" if not ch.snapshot else "observed" if ch.chain_id in lp_read else "not_read"
    complete = status == "observed" and cover is not None and cover["fromDeployment"] and not cover["behind"]
    return {"status": status, "coverage": cover, "complete": complete}


@runs("account_rewards", "account_voting_chains", "account_liquidity_reads", "events_coverage", "prices_at")
async def account_rewards(ctx: RequestContext) -> dict[str, Any]:
    address, status, kind = ctx.params["address"].lower(), ctx.params["status"] or "", ctx.params["kind"] or ""
    digest = filters_digest({"address": address, "chainIds": list(ctx.coverage.chain_ids), "status": status,
                             "kind": kind})
    payload, chains = chains_traversal(ctx, digest, CURSOR_FORMAT)
    c = payload["key"] if payload else (0, 0, 0, "", "", "", "")
    ids, ats = [ch.chain_id for ch in chains], [ch.snapshot.param for ch in chains]
    lp_chains = [ch for ch in chains if ctx.settings.chains[ch.chain_id].has_liquidity_positions]
    cores = [ctx.settings.chains[cid].core_token for cid in ids]
    found, locks, lp_reads, coverages = await asyncio.gather(
        ctx.rows("account_rewards", address=address, chain_ids=ids, snapshot_ats=ats, core_tokens=cores,
                 status=status, kinds=[kind] if kind else [], after=int(payload is not None), c_chain=c[0], c_epoch=c[1], c_token=c[2],
                 c_gauge=c[3], c_kind=c[4], c_reward=c[5], c_item=c[6], limit=ctx.params["limit"] + 1),
        ctx.rows("account_voting_chains", address=address, chain_ids=ids, snapshot_ats=ats),
        ctx.rows("account_liquidity_reads", chain_ids=ids, snapshot_ats=ats),
        read_coverages(ctx, {GOVERNANCE_EVENTS: chains, LIQUIDITY_DATASET: lp_chains}))
    (covered, indexed), (lp_covered, lp_indexed) = coverages[GOVERNANCE_EVENTS], coverages[LIQUIDITY_DATASET]
    deployment_covered(ctx, covered, indexed)
    deployment_covered(ctx, lp_covered, lp_indexed)
    sums = sorted(({**r, "amount_raw": r["sum_raw"], "amount_usd": r["sum_usd"]} for r in found),
                  key=lambda r: (int(r["chain_id"]), r["kind"], r["status"], r["token_address"]))
    rows = one_page(ctx, page_rows(sums, ctx.params["limit"] + 1), digest, CURSOR_FORMAT, tuple(chains), lambda last: [
        int(last["chain_id"]), int(last["epoch_s"]), int(last["venft_id"]), last["gauge_address"], last["kind"],
        last["token_address"], last["item"]])
    by_id = {ch.chain_id: ch for ch in chains}
    wanted = sorted({(int(r["chain_id"]), r["token_address"]) for r in (*rows, *sums) if r["status"] == "claimable"})
    priced = dict(zip(wanted, await prices_at(ctx, sorted({by_id[cid] for cid, _ in wanted}, key=lambda ch: ch.chain_id),
                                             [Boundary(cid, a, by_id[cid].snapshot.unix) for cid, a in wanted])))
    max_age = ctx.settings.price_max_age_seconds

    def price(r):
        return priced.get((int(r["chain_id"]), r["token_address"]))

    cover = {cv["chainId"]: cv for cv in covered}
    lp_cover = {cv["chainId"]: cv for cv in lp_covered}
    read = {int(r["chain_id"]): r for r in locks}
    lp_read = {int(r["chain_id"]) for r in lp_reads}
    entries = []
    for ch in (by_id.get(cv.chain_id, cv) for cv in ctx.coverage.chains):  # a pinned chain as its first page read it
        entry = chain_entry(ch, read.get(ch.chain_id), cover.get(ch.chain_id))
        emissions = emissions_entry(ch, lp_read, lp_cover.get(ch.chain_id),
                                    ctx.settings.chains[ch.chain_id].has_liquidity_positions)
        emissions_complete = emissions.pop("complete")
        totals = [_total(r, price(r), max_age) for r in sums if int(r["chain_id"]) == ch.chain_id]
        partial = any(int(r["fee_partial"]) for r in sums if int(r["chain_id"]) == ch.chain_id)
        entries.append({"chainId": ch.chain_id, "status": entry["status"], "snapshotAt": entry["snapshotAt"],
                        "blockNumber": entry["blockNumber"],
                        "complete": entry["complete"] and not partial and emissions_complete,
                        "coverage": entry["coverage"], "emissions": emissions, "totals": totals,
                        "byKind": by_kind(totals)})
    if not all(e["complete"] for e in entries):
        ctx.meta["complete"] = False
    return {"address": address, "rows": [reward(r, price(r), max_age) for r in rows], "chains": entries,
            "kinds": [{"kind": k, "indexed": True, "note": KIND_NOTES[k]} for k in KINDS]}
