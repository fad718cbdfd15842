"""Handler of /v1/pools/{chainId}/{poolAddress}/history (hourly periods) and /daily (daily periods):
the pool's published volume, fees and transactions per period, and `historicalState`, the pool's
state at the close of each period, valued with that period's historical prices.

Periods are the protocol's (`/v1/protocol/history`, common/anchors.py): the newest `days` worth,
ending at the chain's anchor (rolling) or on calendar boundaries with the running one clipped
(utc). Flows follow a /v1/pools row's evidence: a period's amounts are the sum of the pool's
buckets when every hourly bucket of the chain in it is stored (zero where the pool did not trade
or did not exist yet), else null with the span's gap.

State. Every hourly bucket whose PoolHourData existed carries the pool's state at the hour's close
(migration 063); an hour without one changed nothing, so the state carries from the pool's
previous bucket. A period's state is that of the latest such bucket at or before its close,
`activity: changed` when a bucket of the period recorded a transaction and `carried` when none
did. A carry is trusted only across stored chain hours: a period whose chain hours are not all
stored has no state (`not_indexed`), and neither has any later one until the pool's next bucket
with a state. Where no state exists the reason says why: `before_pool_created`, `not_indexed`,
`not_yet_observed`. Each holding is valued at the period's closing hour boundary with the token's
historical valuation (a leg without one leaves the total null, `usdComplete: false`).
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from ...offload import off_loop
from ...routes import RequestContext, runs
from ....core.epochs import DAY, HOUR
from ..common.anchors import Anchor, anchors, period_tops
from ..common.decimals import decimal_text, fraction_text
from ..common.flows import NOT_INDEXED, NOT_YET_OBSERVED, span, stamp
from ..common.path_chain import path_chain
from .handlers import not_found
from .state import holding, marginal_prices

PERIODS = {"pool_history": HOUR, "pool_daily": DAY}  # route -> period length
BEFORE_POOL_CREATED = "before_pool_created"
STATE_GAPS = (BEFORE_POOL_CREATED, NOT_INDEXED, NOT_YET_OBSERVED)
VALUATION_PENDING = "historical_valuation_pending"  # the price history's reasons (spec: price-history gaps)
NO_SAFE_PRICE = "no_safe_price_source"
VALUATION = "historical-valuation"


@runs("protocol", "pool_periods", "pool_valuations")
async def periods(ctx: RequestContext) -> dict[str, Any]:
    p = ctx.params
    chain = path_chain(ctx)
    cid, address = chain.chain_id, p["poolAddress"]
    period = PERIODS[ctx.route.name]
    utc = p["alignment"] == "utc"
    at = await anchors(ctx, (chain,))
    anchor = at[0]
    top = period_tops(at, period, utc).get(cid)
    count = p["days"] * DAY // period if top is not None else 0
    rows = await ctx.rows("pool_periods", chain_id=cid, snapshot_at=chain.snapshot.param, address=address,
                          curation=ctx.coverage.curation.digest, scope_all=int(p["scope"] == "all"),
                          top=top or 0, end=anchor.end or 0, period_seconds=period, periods=count)
    if not rows or not rows[0]["servable"]:
        raise not_found(cid, address, p["scope"])
    row = rows[0]
    # up to thousands of periods: shaped off the event loop (api/offload.py)
    out, boundaries = await off_loop(_series, row, anchor, top or 0, period, count)
    prices: dict[tuple[str, int], tuple] = {}
    if boundaries:
        tokens = [f"{cid}:{row['token0_address']}", f"{cid}:{row['token1_address']}"]
        found = await ctx.rows("pool_valuations", chain_id=cid, pinned=chain.snapshot.unix, tokens=tokens,
                               boundaries=sorted(boundaries))
        prices = {(r["token_address"], int(r["sampled_at"])): (r["price"], r["generation"], r["revision"])
                  for r in found}
    await off_loop(_value, out, row, prices)
    if top is None or not all(f["complete"] for f in out):
        ctx.meta["complete"] = False
    return {"chainId": cid, "address": address, "snapshotAt": chain.snapshot.at_iso, **anchor.head(),
            "alignment": p["alignment"], "periodSeconds": period, "periods": out}


def _tuple_state(state) -> tuple | None:
    """A (hour, reserve0, reserve1, liquidity, sqrt price, tick) bucket state; None for hour 0 (none)."""
    return tuple(state) if state and state[0] else None


def _series(row: dict[str, Any], anchor: Anchor, top: int, period: int, count: int) -> tuple[list[dict], set[int]]:
    """The periods oldest first with their flows and the state each closes with (not yet valued),
    and the boundaries their states are valued at."""
    end, first_hour = anchor.end, anchor.first_hour
    pool_first = row["first_hour"] or None
    buckets = {int(k): (volume, fees, txs, _tuple_state(state)) for k, volume, fees, txs, state in row["periods"]}
    chain_hours = {int(k): int(hours) for k, hours in row["chain_hours"]}
    window_start = top - count * period
    carry = _tuple_state(row["prior"])
    if carry is not None and row["prior_hours"] != (window_start - carry[0]) // HOUR - 1:
        carry = None  # a chain hour between it and the window is not stored: it may have changed
    out, boundaries = [], set()
    for k in reversed(range(count)):
        start, stop = top - (k + 1) * period, top - k * period
        volume, fees, txs, state = buckets.get(k, (0.0, 0.0, 0, None))
        hours = chain_hours.get(k, 0)
        fig = span(start, stop, end, first_hour,
                   {"hours": hours, "volume_usd": volume, "fees_usd": fees} if hours else None)
        known = fig["complete"] and hours > 0
        fig["volumeUsd"] = decimal_text(volume) if known else None
        fig["feesUsd"] = decimal_text(fees) if known else None
        fig["txCount"] = int(txs) if known else None
        if start >= end:
            closing, gap = None, NOT_YET_OBSERVED
        elif not fig["complete"]:
            closing, gap, carry = None, NOT_INDEXED, None
        else:
            carry = state or carry
            closing = carry
            gap = None if closing else (NOT_INDEXED if pool_first is not None and pool_first < start
                                        else BEFORE_POOL_CREATED)
        if closing is not None:
            boundary = min(stop, end)
            boundaries.add(boundary)
            fig["historicalState"] = (closing, boundary, "changed" if txs else "carried")
        else:
            fig["historicalState"] = None
        fig["stateGap"] = gap
        out.append(fig)
    return out, boundaries


def _value(out: list[dict], row: dict[str, Any], prices: dict[tuple[str, int], tuple]) -> None:
    for fig in out:
        if fig["historicalState"] is not None:
            fig["historicalState"] = _state(row, prices, *fig["historicalState"])


def _leg(row: dict[str, Any], side: str, raw: int | None, boundary: int,
         prices: dict[tuple[str, int], tuple]) -> tuple[dict[str, Any], Fraction | None]:
    leg, amount = holding(row, side, raw)
    valuation = prices.get((row[f"{side}_address"], boundary))
    price = None if valuation is None else valuation[0]
    value = None if amount is None or price is None else amount * Fraction(price)
    return {
        **leg,
        "priceUsd": decimal_text(price),
        "priceSource": VALUATION if valuation is not None else None,
        "priceRevision": None if valuation is None else int(valuation[2]),
        "priceReason": VALUATION_PENDING if valuation is None else (NO_SAFE_PRICE if price is None else None),
        "valueUsd": fraction_text(value),
    }, value


def _state(row: dict[str, Any], prices: dict[tuple[str, int], tuple], closing: tuple, boundary: int,
           activity: str) -> dict[str, Any]:
    hour, raw0, raw1, liquidity, sqrt_price, tick = closing
    (leg0, value0), (leg1, value1) = (_leg(row, "token0", raw0, boundary, prices),
                                      _leg(row, "token1", raw1, boundary, prices))
    complete = value0 is not None and value1 is not None
    shape = {**row, "sqrt_price_x96": None if sqrt_price is None else str(sqrt_price)}
    return {
        "bucketHour": stamp(hour),
        "activity": activity,
        "holdings": [leg0, leg1],
        "valueUsd": fraction_text(value0 + value1) if complete else None,  # type: ignore[operator]
        "usdComplete": complete,
        "valuedAt": stamp(boundary),
        "marginalPrices": marginal_prices(shape, None if raw0 is None else int(raw0),
                                          None if raw1 is None else int(raw1)),
        "sqrtPriceX96": None if sqrt_price is None else str(sqrt_price),
        "tick": tick,
        "activeLiquidityRaw": None if liquidity is None else str(liquidity),
    }
