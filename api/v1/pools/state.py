"""What a pool detail adds to its /v1/pools row (pure functions over pool.sql's row): the pool's
`liquidityState` at the pinned snapshot and its `emissionsScenario` for the selected aprProfile.

Holdings are the subgraph's Pool.reserve0 / reserve1 at the snapshot block as exact raw integers;
each leg is priced on its own (the token's accepted price at the snapshot, common/prices.py) and
a leg without one leaves the USD total unavailable, never smaller. Marginal prices are exact
(core/pool_prices.py), from the sqrt price of a concentrated-liquidity pool or the reserves of a
V2 pool, as decimal strings truncated at 36 places like every /v1 financial value.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from ....core.cl_ranges import profile_range
from ....core.pool_prices import cl_price, tick_price, v2_price
from ..common.decimals import decimal_text, fraction_text
from ..common.prices import PriceAt

DEPOSIT_USD = 100  # the deposit a concentrated-liquidity emissions estimate is sized for (methodology 1.2.0)
CUSTODY_SOURCE = "subgraph"  # where the holdings were read: the indexed Pool entity at the snapshot block
CUSTODY_FIELDS = ("reserve0", "reserve1")


def _int(text: str | None) -> int | None:
    return None if text is None else int(text)


def holding(row: dict[str, Any], side: str, raw: int | None) -> tuple[dict[str, Any], Fraction | None]:
    """A held token (side "token0" or "token1" of the row) and its exact decimal amount (None:
    unknown), before it is priced."""
    decimals = row[f"{side}_decimals"]
    amount = None if raw is None or decimals is None else Fraction(int(raw), 10**decimals)
    return {
        "token": row[f"{side}_address"],
        "symbol": row[f"{side}_symbol"],
        "decimals": decimals,
        "amountRaw": None if raw is None else str(raw),
        "amount": fraction_text(amount),
    }, amount


def _leg(row: dict[str, Any], side: str, raw: int | None, priced: PriceAt,
         max_age: int) -> tuple[dict[str, Any], Fraction | None]:
    """The served leg and its exact USD value (None: unavailable)."""
    leg, amount = holding(row, side, raw)
    observation, reason = priced.current(max_age)
    price = priced.price(max_age)
    value = None if amount is None or price is None else amount * Fraction(price)
    return {
        **leg,
        "price": observation,
        "priceReason": reason,
        "valueUsd": fraction_text(value),
    }, value


def marginal_prices(row: dict[str, Any], raw0: int | None, raw1: int | None) -> dict[str, Any]:
    """token1 per token0 and its inverse, and what they were derived from (null: no price there)."""
    d0, d1 = row["token0_decimals"], row["token1_decimals"]
    price, source = None, None
    if d0 is not None and d1 is not None:
        if row["pool_type"] == "cl":
            sqrt_price = _int(row["sqrt_price_x96"])
            price, source = (None if sqrt_price is None else cl_price(sqrt_price, d0, d1)), "sqrtPriceX96"
        elif raw0 is not None and raw1 is not None:
            price, source = v2_price(row["pool_type"] == "v2-stable", raw0, raw1, d0, d1), "reserves"
    return {
        "token1PerToken0": fraction_text(price),
        "token0PerToken1": None if not price else fraction_text(1 / price),
        "derivedFrom": source if price is not None else None,
    }


def liquidity_state(row: dict[str, Any], legs: list[PriceAt], max_age: int, snapshot: Any) -> dict[str, Any]:
    raw0, raw1 = _int(row["reserve0_raw"]), _int(row["reserve1_raw"])
    (leg0, value0), (leg1, value1) = (_leg(row, "token0", raw0, legs[0], max_age),
                                      _leg(row, "token1", raw1, legs[1], max_age))
    holdings, values = [leg0, leg1], [value0, value1]
    complete = all(v is not None for v in values)
    return {
        "snapshotAt": snapshot.at_iso,
        "custody": {"source": CUSTODY_SOURCE, "entity": "Pool", "fields": list(CUSTODY_FIELDS),
                    "blockNumber": snapshot.block_number, "blockTimestamp": snapshot.indexed_at},
        "holdings": holdings,
        "valueUsd": fraction_text(sum(values)) if complete else None,  # type: ignore[arg-type]
        "usdComplete": complete,
        "marginalPrices": marginal_prices(row, raw0, raw1),
        "sqrtPriceX96": row["sqrt_price_x96"],
        "tick": row["tick"],
        "activeLiquidityRaw": row["liquidity_raw"],
    }


def _range(row: dict[str, Any], profile: str) -> dict[str, Any] | None:
    tick, spacing = row["tick"], row["tick_spacing"]
    if row["pool_type"] != "cl" or tick is None or not spacing:
        return None
    lower, upper = profile_range(profile, tick, spacing)
    d0, d1 = row["token0_decimals"], row["token1_decimals"]
    priced = d0 is not None and d1 is not None
    return {
        "tickLower": lower,
        "tickUpper": upper,
        "widthTicks": upper - lower,
        "widthSpacings": (upper - lower) // spacing,
        "priceLower": fraction_text(tick_price(lower, d0, d1)) if priced else None,
        "priceUpper": fraction_text(tick_price(upper, d0, d1)) if priced else None,
        "priceWidthRatio": fraction_text(tick_price(upper, 0, 0) / tick_price(lower, 0, 0)),
        "currentTick": tick,
        "inRange": lower <= tick < upper,
    }


def emissions_scenario(row: dict[str, Any], profile: str) -> dict[str, Any]:
    cl = row["pool_type"] == "cl"
    return {
        "aprProfile": profile,
        "basis": "cl-range-deposit" if cl else "v2-staked-lp",
        "depositUsd": str(DEPOSIT_USD) if cl else None,
        "emissionsApr": decimal_text(row["emissions_apr"]),
        "range": _range(row, profile) if cl else None,
        "inRangeLiquidityRaw": row["liquidity_raw"] if cl else None,
    }
