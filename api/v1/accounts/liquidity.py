"""Handler of /v1/accounts/{address}/liquidity-positions: the open liquidity positions of one address
on the selected chains, each chain at its published snapshot (account_liquidity_positions.sql), as
the chain's LpSugar answered at the snapshot block: a v2 pool's LP in the wallet and in the gauge
(one position, two legs kept apart), a CL NFT (one leg, staked or not) with its range; the token
amounts, the trading fees not yet collected and the emissions not yet claimed. An auto-managed
vault's shares are a position too ('vault:<address>'): the sum of the address's indexed deposits and
withdrawals up to the snapshot (known only where the chain's vault events are indexed from its
deployment on: else null, as /xcore's balances), and their part of the vault's totals there.

Values use each token's current price at the chain's snapshot, as /v1/prices gives it; `prices`
lists every one used, with its observation or the reason it has none. A value needs the price of
every token it holds: without one it is null (the amounts stay). Per chain, `totals` sum every
position of the address (all pages) per part and token, and per part in USD with `usdComplete`.
"""
from __future__ import annotations

import asyncio
from decimal import Decimal
from fractions import Fraction
from typing import Any

from ...cursors import filters_digest
from ...routes import RequestContext, runs
from ..common.decimals import fraction_text, quantity
from ..common.events_coverage import deployment_covered, read_coverage
from ..common.flows import stamp
from ..common.prices import TOKEN_NOT_FOUND, Boundary, PriceAt, prices_at
from ..common.traversal import chains_traversal, one_page

CURSOR_FORMAT = 1
KINDS = ("v2", "cl", "vault")
PARTS = ("unstaked", "staked", "vaults", "fees", "emissions")
VAULT_EVENTS = "vault_events"  # the chain_coverage dataset whose moves sum to a vault balance
LIQUIDITY_DATASET = "liquidity_events"  # the providers' events' chain_coverage dataset (assets/liquidity_events.py)
LP_DECIMALS = 18  # a v2 pool's LP token
_TICK_BASE = Decimal("1.0001")


class Prices:
    """The current price of each (chain, token) the answer values, and what `prices` lists."""

    def __init__(self, found: dict[tuple[int, str], PriceAt], max_age: int):
        self.found, self.max_age = found, max_age
        self.used: dict[tuple[int, str], dict[str, Any]] = {}

    def usd(self, chain_id: int, token: dict[str, Any], raw: int) -> Fraction | None:
        """raw of the token in USD; None without a price (0 needs none)."""
        if raw == 0:
            return Fraction(0)
        k = (chain_id, token["address"])
        price = self.found.get(k)
        observed, reason = (price.current(self.max_age) if price is not None and price.listed
                            else (None, TOKEN_NOT_FOUND))
        self.used.setdefault(k, {"chainId": chain_id, "token": token, "price": observed,
                                 "reason": None if observed is not None else reason or TOKEN_NOT_FOUND})
        if observed is None or token["decimals"] is None:
            return None
        return Fraction(raw, 10 ** token["decimals"]) * Fraction(float(price.row["p_price"]))

    def listed(self) -> list[dict[str, Any]]:
        return [self.used[k] for k in sorted(self.used)]


def _value(values: list[Fraction | None]) -> dict[str, Any]:
    """A position's value: the sum, or null when a price it needs is missing."""
    whole = all(v is not None for v in values)
    return {"usd": fraction_text(sum(values, Fraction(0))) if whole else None, "usdComplete": whole}


def _total(values: list[Fraction | None]) -> dict[str, Any]:
    """A chain's total: the sum of the priced values, flagged incomplete when one is missing (null
    when none is priced)."""
    known = [v for v in values if v is not None]
    return {"usd": fraction_text(sum(known, Fraction(0))) if known or not values else None,
            "usdComplete": len(known) == len(values)}


def _token(address: str | None, symbol: str | None, decimals: Any) -> dict[str, Any]:
    return {"address": address, "symbol": symbol or None, "decimals": None if decimals is None else int(decimals)}


def _tick_price(tick: int, t0: dict[str, Any], t1: dict[str, Any]) -> str | None:
    """token1 per token0 at a tick (1.0001^tick, in whole tokens), 18 significant digits."""
    if t0["decimals"] is None or t1["decimals"] is None:
        return None
    value = _TICK_BASE ** tick * Decimal(10) ** (t0["decimals"] - t1["decimals"])
    return format(value.normalize(), "f") if value < Decimal(10) ** 30 else format(value, ".17E")


def position(r: dict[str, Any], prices: Prices, core: dict[str, Any], vaults_known: bool) -> dict[str, Any]:
    """One row; `vaults_known`: its chain's vault events are indexed from deployment (a vault balance
    is their sum)."""
    cid, cl, vault = int(r["chain_id"]), r["kind"] == "cl", r["kind"] == "vault"
    t0 = _token(r["token0_address"], r["token0_symbol"], r["token0_decimals"])
    t1 = _token(r["token1_address"], r["token1_symbol"], r["token1_decimals"])
    liquidity, staked = int(r["liquidity_raw"]), int(r["staked_raw"])

    def leg(where: str, units: int | None, a0: int | None, a1: int | None) -> dict[str, Any]:
        value = _value([None if a is None else prices.usd(cid, t, a) for t, a in ((t0, a0), (t1, a1))])
        decimals = 0 if cl else r["share_decimals"] if vault else LP_DECIMALS
        return {"where": where, "liquidity": quantity(units, decimals),
                "amount0": quantity(a0, t0["decimals"]), "amount1": quantity(a1, t1["decimals"]), **value}

    if vault:  # a partial sum of moves is no balance
        legs = [leg("vault", *((liquidity, int(r["amount0_raw"]), int(r["amount1_raw"])) if vaults_known
                               else (None,) * 3))]
    elif cl:
        legs = [leg("gauge", liquidity, int(r["staked0_raw"]), int(r["staked1_raw"])) if staked
                else leg("wallet", liquidity, int(r["amount0_raw"]), int(r["amount1_raw"]))]
    else:
        legs = [leg(where, units, int(r[f"{p}0_raw"]), int(r[f"{p}1_raw"]))
                for where, units, p in (("wallet", liquidity, "amount"), ("gauge", staked, "staked")) if units]
    f0, f1, em = int(r["fees0_raw"]), int(r["fees1_raw"]), int(r["emissions_raw"])
    tick = None if r["pool_tick"] is None else int(r["pool_tick"])
    lower, upper = r["tick_lower"], r["tick_upper"]
    return {
        "chainId": cid,
        "positionId": r["position_id"],
        "kind": r["kind"],
        "tokenId": r["token_id"] if cl else None,
        "vault": r["position_id"].split(":", 1)[1] if vault else None,
        "pool": {"address": r["pool_address"], "type": r["pool_type"], "token0": t0, "token1": t1,
                 "gauge": r["gauge_address"]},
        "range": {"tickLower": int(lower), "tickUpper": int(upper), "priceLower": _tick_price(int(lower), t0, t1),
                  "priceUpper": _tick_price(int(upper), t0, t1), "currentTick": tick,
                  "inRange": None if tick is None else int(lower) <= tick < int(upper)}
        if lower is not None and upper is not None else None,
        "staked": bool(staked),
        "legs": legs,
        "value": _value([None if x["usd"] is None else Fraction(x["usd"]) for x in legs]),
        "uncollectedFees": {"amount0": quantity(f0, t0["decimals"]), "amount1": quantity(f1, t1["decimals"]),
                            **_value([prices.usd(cid, t0, f0), prices.usd(cid, t1, f1)])},
        "emissions": {"token": core, "amount": quantity(em, core["decimals"]), **_value([prices.usd(cid, core, em)])},
        "observation": {"blockNumber": int(r["block_number"]), "at": stamp(int(r["observed_at"]))},
    }


def chain_entry(c, sums: list[dict[str, Any]], prices: Prices, vaults: dict[str, Any] | None) -> dict[str, Any]:
    """One selected chain: read or not at its snapshot, and the address's sums there (every page);
    `vaults`: its vault events' coverage (None: the chain has no vaults)."""
    read = next((r for r in sums if r["part"] == "read"), None)
    status = "unavailable" if not c.snapshot else "observed" if read else "not_read"
    vaults_known = vaults is None or vaults["fromDeployment"]
    parts = []
    for part in PARTS:
        tokens, values = [], []
        for r in sums:
            if r["part"] != part:
                continue
            token, raw = _token(r["token"] or None, r["symbol"], r["decimals"]), int(r["raw"])
            if part == "vaults" and not vaults_known:
                raw = None
            usd = prices.usd(c.chain_id, token, raw) if token["address"] and raw is not None else None
            values.append(usd)
            tokens.append({"token": token, "amount": quantity(raw, token["decimals"]),
                           "usd": fraction_text(usd) if usd is not None else None})
        parts.append({"part": part, "tokens": tokens, **_total(values)})
    return {"chainId": c.chain_id, "status": status, "snapshotAt": c.snapshot.at_iso if c.snapshot else None,
            "blockNumber": int(read["block_number"]) if read else None,
            "positions": sum(int(r["raw"]) for r in sums if r["part"] == "positions") if read else None, "totals": parts,
            "complete": status == "observed" and vaults_known and not (vaults or {}).get("behind"), "vaults": vaults}


@runs("account_liquidity_positions", "account_liquidity_chains", "events_coverage", "prices_at")
async def liquidity_positions(ctx: RequestContext) -> dict[str, Any]:
    address, kind = ctx.params["address"].lower(), ctx.params["kind"] or ""
    digest = filters_digest({"address": address, "chainIds": list(ctx.coverage.chain_ids), "kind": kind})
    payload, chains = chains_traversal(ctx, digest, CURSOR_FORMAT)
    c_chain, c_position = payload["key"] if payload else (0, "")
    ids, ats = [c.chain_id for c in chains], [c.snapshot.param for c in chains]
    cores = [ctx.settings.chains[cid].core_token for cid in ids]
    with_vaults = [c for c in chains if ctx.settings.chains[c.chain_id].has_vaults]
    rows, sums, (covered, indexed) = await asyncio.gather(
        ctx.rows("account_liquidity_positions", address=address, chain_ids=ids, snapshot_ats=ats, kind=kind,
                 after=int(payload is not None), c_chain=c_chain, c_position=c_position, limit=ctx.params["limit"] + 1),
        ctx.rows("account_liquidity_chains", address=address, chain_ids=ids, snapshot_ats=ats, core_tokens=cores,
                 kind=kind),
        read_coverage(ctx, with_vaults, VAULT_EVENTS) if with_vaults else asyncio.sleep(0, ([], {})))
    deployment_covered(ctx, covered, indexed)
    vaults = {v["chainId"]: v for v in covered}
    rows = one_page(ctx, rows, digest, CURSOR_FORMAT, tuple(chains),
                    lambda last: [int(last["chain_id"]), last["position_id"]])
    by_id = {c.chain_id: c for c in chains}
    wanted = sorted({(int(r["chain_id"]), a) for r in rows for a in (r["token0_address"], r["token1_address"]) if a}
                    | {(int(r["chain_id"]), r["token"]) for r in sums if r["token"]}
                    | {(cid, core) for cid, core in zip(ids, cores) if core})
    found = await prices_at(ctx, sorted({by_id[cid] for cid, _ in wanted}, key=lambda c: c.chain_id),
                            [Boundary(cid, a, by_id[cid].snapshot.unix) for cid, a in wanted])
    prices = Prices(dict(zip(wanted, found)), ctx.settings.price_max_age_seconds)
    core = {int(r["chain_id"]): _token(r["token"], r["symbol"], r["decimals"]) for r in sums if r["part"] == "core"}
    known = {cid: v["fromDeployment"] for cid, v in vaults.items()}
    out = [position(r, prices, core[int(r["chain_id"])], known.get(int(r["chain_id"]), True)) for r in rows]
    entries = [chain_entry(by_id.get(c.chain_id, c), [r for r in sums if int(r["chain_id"]) == c.chain_id], prices,
                           vaults.get(c.chain_id)) for c in ctx.coverage.chains]  # a pinned chain as its first page read it
    if not all(e["complete"] for e in entries):
        ctx.meta["complete"] = False
    return {"address": address, "rows": out, "chains": entries, "prices": prices.listed()}
