"""Handlers of an auto-managed vault's event routes, /v1/auto-manage/vaults/{chainId}/{vault}/...:
- /rebalances: one normalized record per range reset: the range before and after (ticks and
  prices), the vault's total amounts just before and after, the trading fees the burnt position
  collected, the surplus swap, the pool price, block and transaction;
- /activity: deposits, redemptions and claims (the vault's harvests of its gauge rewards: the
  gross claim, the strategy's reward fee and the part compounded).

Both list the vault's events before the chain's published snapshot, as far as the chain's vault
events are read (`indexedUntil`), newest first in chain order, in pages with a signed cursor that
pins the first page's snapshot and boundary. Raw amounts are exact integer strings, decimal
amounts exact texts truncated at 36 places; an amount the index does not hold is null.
"""
from __future__ import annotations

from typing import Any

from ...cursors import filters_digest
from ...errors import ApiError
from ...routes import RequestContext, runs
from ....core.pool_prices import cl_price
from ..common.decimals import decimal_text, fraction_text
from ..common.events_coverage import indexed_coverage, mark_incomplete
from ..common.flows import stamp
from ..common.traversal import one_page, traversal
from .records import amount, tick_price_text

CURSOR_FORMAT = 1
VAULT_NOT_FOUND = "vault_not_found"
NOT_CONCENTRATED = "vault_not_concentrated"
ACTIVITY_KINDS = {"deposit": "deposit", "withdrawal": "redemption", "harvest": "claim"}


def _pair(raw0: str | None, raw1: str | None, v: dict[str, Any]) -> dict[str, Any]:
    return {"token0": amount(raw0, v["token0_decimals"]), "token1": amount(raw1, v["token1_decimals"])}


def _range(lower: int, upper: int, v: dict[str, Any]) -> dict[str, Any]:
    d0, d1 = v["token0_decimals"], v["token1_decimals"]
    return {"tickLower": lower, "tickUpper": upper, "priceLower": tick_price_text(lower, d0, d1),
            "priceUpper": tick_price_text(upper, d0, d1)}


def _head(r: dict[str, Any]) -> dict[str, Any]:
    return {"id": r["id"], "at": stamp(r["at"]), "blockNumber": int(r["block_number"]),
            "transactionHash": r["transaction_hash"], "logIndex": int(r["log_index"])}


def rebalance(r: dict[str, Any], v: dict[str, Any]) -> dict[str, Any]:
    sqrt_price = None if r["sqrt_price_x96"] is None else int(r["sqrt_price_x96"])
    price = None if sqrt_price is None else cl_price(sqrt_price, v["token0_decimals"], v["token1_decimals"])
    zero_for_one = r["swap_zero_for_one"]
    swap = None
    if zero_for_one is not None:
        sold, bought = ("token0", "token1") if zero_for_one else ("token1", "token0")
        swap = {"tokenIn": v[f"{sold}_address"], "tokenOut": v[f"{bought}_address"],
                "amountIn": amount(r["swap_amount_in_raw"], v[f"{sold}_decimals"]),
                "amountOut": amount(r["swap_amount_out_raw"], v[f"{bought}_decimals"])}
    return {
        **_head(r),
        "rangeBefore": _range(int(r["old_tick_lower"]), int(r["old_tick_upper"]), v),
        "rangeAfter": _range(int(r["new_tick_lower"]), int(r["new_tick_upper"]), v),
        "tick": int(r["tick"]),
        "sqrtPriceX96": r["sqrt_price_x96"],
        "price": fraction_text(price) if price is not None else None,
        "amountsBefore": _pair(r["amount0_before_raw"], r["amount1_before_raw"], v),
        "amountsAfter": _pair(r["amount0_after_raw"], r["amount1_after_raw"], v),
        "feesCollected": _pair(r["fees0_raw"], r["fees1_raw"], v),
        "swap": swap,
    }


def activity(r: dict[str, Any], v: dict[str, Any]) -> dict[str, Any]:
    kind = ACTIVITY_KINDS[r["kind"]]
    out = {**_head(r), "kind": kind, "account": None, "shares": None, "amounts": None, "amountUsd": None, "claim": None}
    if kind == "claim":
        decimals = r["token_decimals"]
        fee = r["fee_amount_raw"]
        compounded = None if fee is None else str(int(r["amount_raw"]) - int(fee))
        out["amountUsd"] = decimal_text(r["amount_usd"])
        out["claim"] = {"token": {"address": r["token_address"], "symbol": r["token_symbol"], "decimals": decimals},
                        "gross": amount(r["amount_raw"], decimals), "fee": amount(fee, decimals),
                        "feeUsd": decimal_text(r["fee_amount_usd"]), "compounded": amount(compounded, decimals)}
    else:
        out.update({"account": r["user"], "shares": amount(r["shares_raw"], v["share_decimals"]),
                    "amounts": _pair(r["amount0_raw"], r["amount1_raw"], v), "amountUsd": decimal_text(r["amount_usd"])})
    return out


@runs("vault_identity", "vault_events_page")
async def events(ctx: RequestContext) -> dict[str, Any]:
    p = ctx.params
    cid, address = p["chainId"], p["vault"]
    rebalances = ctx.route.name == "auto_vault_rebalances"
    kinds = ["rebalance"] if rebalances else list(ACTIVITY_KINDS)
    digest = filters_digest({"chainId": cid, "vault": address, "kinds": kinds})
    payload, chain = traversal(ctx, digest, CURSOR_FORMAT)
    rows = await ctx.rows("vault_identity", chain_id=cid, address=address, snapshot_at=chain.snapshot.param)
    if not rows or address not in {v.address.lower() for v in ctx.settings.vaults(cid)}:
        raise ApiError(404, VAULT_NOT_FOUND, f"{address} is not an auto-managed vault of chain {cid} at its published "
                       "snapshot (GET /v1/auto-manage/vaults lists them)", details={"chainId": cid, "vault": address})
    v = rows[0]
    if rebalances and v["kind"] != "cl":
        raise ApiError(400, NOT_CONCENTRATED, f"vault {address} is a {v['kind']} vault: it holds a pool's LP tokens, "
                       "not a range, and never resets one", details={"chainId": cid, "vault": address})
    # a later page: the first page's boundary, so newer indexing does not move its pages
    covered = payload["coverage"] if payload else indexed_coverage((chain,), {} if v["events_through"] is None
                                                                    else {cid: v})[0]
    until = covered["indexedUntil"]
    c_block, c_log, c_id = payload["key"] if payload else (0, 0, "")
    found = await ctx.rows("vault_events_page", chain_id=cid, address=address, kinds=kinds,
                           until=(until or "1970-01-01T00:00:00Z").replace("T", " ").rstrip("Z"),
                           snapshot_at=chain.snapshot.param, after=int(payload is not None), c_block=c_block,
                           c_log=c_log, c_id=c_id, limit=p["limit"] + 1)
    found = one_page(ctx, found, digest, CURSOR_FORMAT, chain,
                     lambda last: [int(last["block_number"]), int(last["log_index"]), last["id"]], coverage=covered)
    mark_incomplete(ctx, [covered])
    record = rebalance if rebalances else activity
    return {"chainId": cid, "vault": address, "kind": v["kind"],
            "token0": {"address": v["token0_address"], "symbol": v["token0_symbol"], "decimals": v["token0_decimals"]},
            "token1": {"address": v["token1_address"], "symbol": v["token1_symbol"], "decimals": v["token1_decimals"]},
            "coverage": covered, "rows": [record(r, v) for r in found]}

