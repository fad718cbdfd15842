"""Handler of /v1/accounts/{address}/portfolio: per selected chain, at its published snapshot, what
the other account routes give summed by kind and valued in USD, and the kinds summed across chains.

Kinds: `liquidity` (v2 LP in the wallet and staked, CL NFTs: their token amounts), `vaults` (what its
auto-managed vault shares hold), `liquidityFees`
(uncollected trading fees), `emissions` (unclaimed gauge emissions), `locked` (core token locked in
the address's veNFTs), `xcore` (its escrow-share token's worth in core token at the canonical rate),
`rewards` (claimable bribe, trading-fee and rebase rewards of its veNFTs). Each is read exactly as its own
route reads it (the same queries), so the two never disagree. A kind a chain does not have is
`unsupported` there; one whose state the chain did not read, or that lacks a price, says so:
a sum that misses a part is flagged incomplete, never silently smaller. `holdings` sums the kinds
the address holds (liquidity, vaults, locked, xcore), never the earnings, and says which it sums.
"""
from __future__ import annotations

import asyncio
from fractions import Fraction
from typing import Any

from ...routes import RequestContext, runs
from ..common.decimals import fraction_text
from ..common.events_coverage import deployment_covered, read_coverages
from ..common.prices import Boundary, prices_at
from ..governance.bribes import GOVERNANCE_EVENTS
from ..xcore.state import XCORE_EVENTS, canonical_chain
from .liquidity import VAULT_EVENTS, Prices
from .liquidity import chain_entry as liquidity_entry
from .rewards import VENFT_KINDS
from .voting import chain_entry as voting_entry
from .xcore import _entry as xcore_entry

KINDS = ("liquidity", "vaults", "liquidityFees", "emissions", "locked", "xcore", "rewards")
HOLDINGS = ("liquidity", "vaults", "locked", "xcore")
_LIQUIDITY_PARTS = {"liquidity": ("unstaked", "staked"), "vaults": ("vaults",), "liquidityFees": ("fees",),
                    "emissions": ("emissions",)}


def _part(kind: str, status: str, values: list[Fraction | None], complete: bool = True) -> dict[str, Any]:
    """One kind on one chain: the USD of its priced values, complete when every value has one and the
    state behind it is whole."""
    known = [v for v in values if v is not None]
    observed = status == "observed"
    return {"kind": kind, "status": status,
            "usd": fraction_text(sum(known, Fraction(0))) if observed and (known or not values) else None,
            "usdComplete": observed and complete and len(known) == len(values)}


def _unsupported(kind: str) -> dict[str, Any]:
    return {"kind": kind, "status": "unsupported", "usd": None, "usdComplete": True}


def _across(kind: str, parts: list[dict[str, Any]]) -> dict[str, Any]:
    """A kind over the chains that have it: the sum of their USD, complete when each part is."""
    have = [p for p in parts if p["status"] != "unsupported"]
    known = [Fraction(p["usd"]) for p in have if p["usd"] is not None]
    return {"kind": kind, "usd": fraction_text(sum(known, Fraction(0))) if known or not have else None,
            "usdComplete": all(p["usdComplete"] for p in have),
            "chainIds": sorted(p["chainId"] for p in have if p["usd"] is not None)}


@runs("account_liquidity_chains", "account_voting_chains", "account_xcore", "account_rewards", "events_coverage",
      "prices_at")
async def portfolio(ctx: RequestContext) -> dict[str, Any]:
    address = ctx.params["address"].lower()
    usable = ctx.coverage.require_usable()
    book = ctx.settings.chains
    lp = [c for c in usable if book[c.chain_id].has_liquidity_positions]
    gov = [c for c in usable if book[c.chain_id].supports("gauges")]
    xc = [c for c in usable if book[c.chain_id].has_xcore]
    canonical = canonical_chain(ctx) if xc else None
    cores = {c.chain_id: book[c.chain_id].core_token for c in usable}

    def chain_args(chains) -> dict[str, Any]:
        return {"address": address, "chain_ids": [c.chain_id for c in chains],
                "snapshot_ats": [c.snapshot.param for c in chains]}

    async def none() -> list:
        return []

    vc = [c for c in lp if book[c.chain_id].has_vaults]
    datasets = {d: cs for d, cs in ((GOVERNANCE_EVENTS, gov), (XCORE_EVENTS, xc), (VAULT_EVENTS, vc)) if cs}
    liquidity_sums, locks, xcore_rows, rewards, coverages = await asyncio.gather(
        ctx.rows("account_liquidity_chains", **chain_args(lp), core_tokens=[cores[c.chain_id] for c in lp], kind="")
        if lp else none(),
        ctx.rows("account_voting_chains", **chain_args(gov)) if gov else none(),
        ctx.rows("account_xcore", address=address, chain_ids=[c.chain_id for c in xc],
                 observed=[c.snapshot.unix for c in xc]) if xc else none(),
        ctx.rows("account_rewards", **chain_args(gov), core_tokens=[cores[c.chain_id] for c in gov], status="claimable",
                 kinds=list(VENFT_KINDS), after=0, c_chain=0, c_epoch=0, c_token=0, c_gauge="", c_kind="", c_reward="", c_item="",
                 limit=1) if gov else none(),
        read_coverages(ctx, datasets) if datasets else asyncio.sleep(0, {}))  # one query for both datasets
    (covered, indexed), (xcovered, xindexed), (vcovered, vindexed) = (
        coverages.get(d, ([], {})) for d in (GOVERNANCE_EVENTS, XCORE_EVENTS, VAULT_EVENTS))
    for cov, idx in ((covered, indexed), (xcovered, xindexed), (vcovered, vindexed)):
        deployment_covered(ctx, cov, idx)
    vcover = {c["chainId"]: c for c in vcovered}
    by_id = {c.chain_id: c for c in usable}
    wanted = sorted({(int(r["chain_id"]), r["token"]) for r in liquidity_sums if r["token"]}
                    | {(int(r["chain_id"]), r["token_address"]) for r in rewards}
                    | {(cid, core) for cid, core in cores.items() if core})
    found = await prices_at(ctx, sorted({by_id[cid] for cid, _ in wanted}, key=lambda c: c.chain_id),
                            [Boundary(cid, a, by_id[cid].snapshot.unix) for cid, a in wanted])
    prices = Prices(dict(zip(wanted, found)), ctx.settings.price_max_age_seconds)
    cover, xcover = {c["chainId"]: c for c in covered}, {c["chainId"]: c for c in xcovered}
    lock_rows = {int(r["chain_id"]): r for r in locks}
    xrows = {int(r["chain_id"]): r for r in xcore_rows}
    home = xrows.get(canonical) if canonical is not None else None
    ratio = None if home is None or home["ratio_raw"] is None else int(home["ratio_raw"])

    def core_usd(cid: int, raw: int | None) -> Fraction | None:
        """Core token (VotingEscrow's and xCORE's unit, 18 decimals as their routes read it) in USD."""
        if raw is None:
            return None
        return prices.usd(cid, {"address": cores[cid], "symbol": None, "decimals": 18}, raw)

    def _chain(c, has_lp: bool, has_gov: bool, has_xcore: bool) -> dict[str, Any]:
        cid, has = c.chain_id, {"liquidity": has_lp, "vaults": has_lp, "liquidityFees": has_lp, "emissions": has_lp,
                                "locked": has_gov, "xcore": has_xcore, "rewards": has_gov}
        if not c.snapshot:  # no published snapshot: every kind it has is unknown
            return {"chainId": cid, "status": "unavailable", "snapshotAt": None,
                    "kinds": [_part(k, "unavailable", []) if has[k] else _unsupported(k) for k in KINDS]}
        parts = {k: _unsupported(k) for k in KINDS}
        if has_lp:
            entry = liquidity_entry(c, [r for r in liquidity_sums if int(r["chain_id"]) == cid], prices, vcover.get(cid))
            totals = {t["part"]: t for t in entry["totals"]}
            for kind, names in _LIQUIDITY_PARTS.items():
                values = [None if t["usd"] is None else Fraction(t["usd"]) for n in names for t in totals[n]["tokens"]]
                whole = kind != "vaults" or entry["complete"]  # a partial sum of vault moves is no balance
                parts[kind] = _part(kind, entry["status"], values, whole)
        if has_gov:
            v = voting_entry(c, lock_rows.get(cid), cover.get(cid))
            locked = None if v["locked"]["raw"] is None else int(v["locked"]["raw"])
            parts["locked"] = _part("locked", v["status"], [core_usd(cid, locked)])
            mine = [r for r in rewards if int(r["chain_id"]) == cid]
            values = [prices.usd(cid, {"address": r["token_address"], "symbol": r["symbol"],
                                       "decimals": None if r["decimals"] is None else int(r["decimals"])},
                                 int(r["sum_raw"])) for r in mine]
            parts["rewards"] = _part("rewards", v["status"], values,
                                     v["complete"] and not any(int(r["fee_partial"]) for r in mine))
        if has_xcore:
            x = xcore_entry(c, xrows.get(cid), xcover.get(cid), ratio)
            worth = None if x["worth"]["raw"] is None else int(x["worth"]["raw"])
            parts["xcore"] = _part("xcore", "observed", [core_usd(cid, worth)], x["complete"])
        return {"chainId": cid, "status": "observed", "snapshotAt": c.snapshot.at_iso,
                "kinds": [parts[k] for k in KINDS]}

    selected = set(ctx.params["chainIds"] or ctx.coverage.chain_ids)  # the canonical chain may only value xCORE
    chains = []
    for c in ctx.coverage.chains:
        if c.chain_id in selected:
            chain = book[c.chain_id]
            chains.append(_chain(c, chain.has_liquidity_positions, chain.supports("gauges"), chain.has_xcore))
    totals = [_across(k, [p | {"chainId": ch["chainId"]} for ch in chains for p in ch["kinds"] if p["kind"] == k])
              for k in KINDS]
    held = [t for t in totals if t["kind"] in HOLDINGS]
    known = [Fraction(t["usd"]) for t in held if t["usd"] is not None]
    holdings = {"usd": fraction_text(sum(known, Fraction(0))) if known else None,
                "usdComplete": all(t["usdComplete"] for t in held) and len(known) == len(held),
                "kinds": list(HOLDINGS)}
    if not holdings["usdComplete"] or not all(t["usdComplete"] for t in totals):
        ctx.meta["complete"] = False
    return {"address": address, "chains": chains, "totals": totals, "holdings": holdings,
            "prices": prices.listed()}
