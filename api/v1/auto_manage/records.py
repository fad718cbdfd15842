"""The /v1 record of one auto-managed vault, from its live read (api/vaults/chain.VaultState) or its
last indexed snapshot row (auto_vaults.sql), in one shape: the sources are first made the same
`state` dict, then `_record` writes it. Unknown stays null; exact amounts are raw integer strings
and decimals truncated at 36 places."""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Any

from ...vaults.chain import BookState, VaultState
from ...vaults.records import ZERO, tvl_usd
from ....core.epochs import DAY, HOUR
from ....core.pool_prices import cl_price, tick_price
from ....core.vaults import VaultConfig
from ..common.decimals import decimal_text, fraction_text, units_text
from ..common.flows import stamp

MIN_APR_HOURS = 24  # fewer indexed hours in the trailing week: no estimate
YEAR_SECONDS = 365 * DAY  # APRs here annualise by 365 days, as the pools' and gauges' do
APR_STATUSES = ("estimated", "insufficient_history", "unpriced", "no_liquidity")


@lru_cache(maxsize=4096)  # range bounds repeat (a reset's range is the next one's before); about 200 bytes each
def tick_price_text(tick: int, decimals0: int, decimals1: int) -> str | None:
    """token1 per token0 at a tick boundary, as served."""
    return fraction_text(tick_price(tick, decimals0, decimals1))


def _lower(address: str | None) -> str | None:
    return address.lower() if address else None


def amount(raw: Any, decimals: int | None) -> dict[str, Any]:
    """An exact token amount: the raw integer's text and its decimal (null where either is unknown)."""
    raw = None if raw is None else str(int(raw))
    return {"amountRaw": raw, "amount": None if raw is None or decimals is None
            else units_text(int(raw), int(decimals))}


def _time(unix: Any) -> str | None:
    return None if unix is None or int(unix) <= 0 else stamp(int(unix))


def live_state(live: VaultState, book: BookState, row: dict[str, Any] | None) -> dict[str, Any]:
    """The live read valued with the token prices of the chain's snapshot (in `row`: price0/1)."""
    t0, t1 = live.tokens["token0"], live.tokens["token1"]
    prices = {}
    for t, price in ((t0, None if row is None else row["price0"]), (t1, None if row is None else row["price1"])):
        if price is not None:
            prices[t["address"].lower()] = price
    supply, decimals = live.get("totalSupply"), live.get("decimals")
    tvl = tvl_usd(live, prices)  # as /api/v1 computes it
    gauge = live.get("gauge")
    return {
        "block": book.block, "at": book.timestamp, "name": live.get("name"), "symbol": live.get("symbol"),
        "pool": _lower(live.get("pool")), "gauge": None if not gauge or gauge == ZERO else gauge.lower(),
        "strategy": _lower(live.get("strategy")),
        "token0": {**t0, "address": _lower(t0["address"])}, "token1": {**t1, "address": _lower(t1["address"])},
        "share_decimals": decimals, "supply": supply,
        "amounts": live.get("totalAmounts") or (None, None), "tvl": tvl,
        "share_price": tvl / (supply / 10 ** decimals) if tvl is not None and supply else None,
        "prices": (None if row is None else row["price0"], None if row is None else row["price1"]),
        "prices_at": None if row is None else row["bound"],
        "tick": live.get("tick"), "tick_lower": live.get("tickLower"), "tick_upper": live.get("tickUpper"),
        "sqrt_price": live.get("sqrtPriceX96"), "is_calm": live.get("isCalm"), "paused": live.get("paused"),
        "strategy_paused": live.get("strategyPaused"), "global_pause": book.global_pause,
        "needs_rebalance": live.get("needsRebalance"), "last_harvest": live.get("lastHarvest"),
        "last_rebalance": live.get("lastRebalance"), "reward_fee_bps": live.get("rewardFeeBps"),
        "fee_recipient": _lower(live.get("feeRecipient")),
    }


def indexed_state(row: dict[str, Any]) -> dict[str, Any]:
    """The vault's latest vault_snap15m row (its prices are its own snapshot's)."""
    def token(side: str) -> dict[str, Any]:
        return {"address": row[f"{side}_address"], "symbol": row[f"{side}_symbol"], "decimals": row[f"{side}_decimals"]}
    return {
        "block": int(row["block_number"]), "at": int(row["snapshot_unix"]), "name": None, "symbol": None,
        "pool": row["pool_address"], "gauge": row["gauge_address"] or None, "strategy": row["strategy_address"],
        "token0": token("token0"), "token1": token("token1"), "share_decimals": row["share_decimals"],
        "supply": row["total_supply_raw"], "amounts": (row["amount0_raw"], row["amount1_raw"]),
        "tvl": row["tvl_usd"], "share_price": row["share_price_usd"],
        "prices": (row["token0_price_usd"], row["token1_price_usd"]), "prices_at": int(row["snapshot_unix"]),
        "tick": row["tick"], "tick_lower": row["tick_lower"], "tick_upper": row["tick_upper"],
        "sqrt_price": row["sqrt_price_x96"], "is_calm": row["is_calm"], "paused": None,
        "strategy_paused": row["strategy_paused"], "global_pause": row["global_pause"],
        "needs_rebalance": row["needs_rebalance"], "last_harvest": row["last_harvest"],
        "last_rebalance": row["last_rebalance"], "reward_fee_bps": row["reward_fee_bps"],
        "fee_recipient": row["fee_recipient"] or None,
    }


def _range(s: dict[str, Any]) -> dict[str, Any] | None:
    lower, upper, tick = s["tick_lower"], s["tick_upper"], s["tick"]
    d0, d1 = s["token0"]["decimals"], s["token1"]["decimals"]
    if lower is None or upper is None or d0 is None or d1 is None:
        return None
    sqrt_price = None if s["sqrt_price"] is None else int(s["sqrt_price"])
    price = None if sqrt_price is None else cl_price(sqrt_price, d0, d1)
    return {"tickLower": lower, "tickUpper": upper, "priceLower": tick_price_text(lower, d0, d1),
            "priceUpper": tick_price_text(upper, d0, d1), "tick": tick,
            "sqrtPriceX96": None if sqrt_price is None else str(sqrt_price),
            "price": None if price is None else fraction_text(price),
            "inRange": None if tick is None else lower <= tick < upper}


def apr(row: dict[str, Any] | None) -> dict[str, Any]:
    """Net compounded return over the trailing week of indexed hours: (gross harvested - reward
    fee) / mean TVL, annualised without compounding (ADR 0018)."""
    hours = 0 if row is None or row["apr_hours"] is None else int(row["apr_hours"])
    out = {"value": None, "status": "insufficient_history", "from": None, "toExclusive": None, "hours": hours,
           "harvestedUsd": None, "rewardFeeUsd": None, "netUsd": None, "meanTvlUsd": None}
    if hours == 0:
        return out
    gross, fee, tvl = row["harvested_usd"], row["fee_usd"] or 0.0, row["mean_tvl_usd"]
    out.update({"from": stamp(int(row["apr_from"])), "toExclusive": stamp(int(row["apr_to"])),
                "harvestedUsd": decimal_text(gross), "rewardFeeUsd": decimal_text(fee), "netUsd": decimal_text(gross - fee),
                "meanTvlUsd": decimal_text(tvl)})
    if row["unpriced_hours"] or row["fees_unpriced"] or tvl is None:
        out.update(status="unpriced", harvestedUsd=None, rewardFeeUsd=None, netUsd=None, meanTvlUsd=None)
    elif hours < MIN_APR_HOURS:
        pass
    elif tvl <= 0:
        out["status"] = "no_liquidity"
    else:
        out.update(status="estimated", value=decimal_text((gross - fee) / tvl * (YEAR_SECONDS / (hours * HOUR))))
    return out


def _record(cid: int, cfg: VaultConfig, s: dict[str, Any] | None, row: dict[str, Any] | None,
            source: str | None, reason: str | None) -> dict[str, Any]:
    s = s or {}
    t0, t1 = s.get("token0") or {}, s.get("token1") or {}
    a0, a1 = s.get("amounts") or (None, None)
    p0, p1 = s.get("prices") or (None, None)
    fee_bps = s.get("reward_fee_bps")
    return {
        "chainId": cid, "address": cfg.address.lower(), "key": cfg.key, "kind": cfg.kind,
        "name": s.get("name"), "symbol": s.get("symbol"),
        "pool": s.get("pool"), "gauge": s.get("gauge"), "strategy": s.get("strategy"),
        "token0": {"address": t0.get("address"), "symbol": t0.get("symbol"), "decimals": t0.get("decimals")},
        "token1": {"address": t1.get("address"), "symbol": t1.get("symbol"), "decimals": t1.get("decimals")},
        "observation": {"source": source, "blockNumber": s.get("block"), "at": _time(s.get("at")), "reason": reason},
        "principal": {
            "shares": amount(s.get("supply"), s.get("share_decimals")),
            "token0": amount(a0, t0.get("decimals")), "token1": amount(a1, t1.get("decimals")),
            "tvlUsd": decimal_text(s.get("tvl")), "sharePriceUsd": decimal_text(s.get("share_price")),
            "prices": {"token0Usd": decimal_text(p0), "token1Usd": decimal_text(p1), "at": _time(s.get("prices_at"))},
        },
        "range": _range(s) if cfg.kind == "cl" and s else None,
        "rewardFee": {"bps": fee_bps, "fraction": None if fee_bps is None else fraction_text(Fraction(int(fee_bps), 10_000)),
                      "recipient": s.get("fee_recipient")},
        "apr": apr(row),
        "status": {"isCalm": s.get("is_calm"), "paused": s.get("paused"), "strategyPaused": s.get("strategy_paused"),
                   "globalPause": s.get("global_pause"), "needsRebalance": s.get("needs_rebalance"),
                   "lastHarvest": _time(s.get("last_harvest")), "lastRebalance": _time(s.get("last_rebalance"))},
    }


def live_record(cid: int, live: VaultState, book: BookState, row: dict[str, Any] | None) -> dict[str, Any]:
    return _record(cid, live.config, live_state(live, book, row), row, "live", None)


def indexed_record(cid: int, cfg: VaultConfig, row: dict[str, Any], reason: str) -> dict[str, Any]:
    return _record(cid, cfg, indexed_state(row), row, "indexed", reason)


def unread_record(cid: int, cfg: VaultConfig, reason: str) -> dict[str, Any]:
    """A vault neither read live nor indexed in the week before its chain's snapshot."""
    return _record(cid, cfg, None, None, None, reason)
