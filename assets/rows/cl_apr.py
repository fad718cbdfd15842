"""Per-profile emissions APR of a gauge's pool (docs/methodology/cl-emissions-apr.md): for a
concentrated-liquidity pool, what a 100 USD deposit in each profile's range would earn of the
gauge's emissions after diluting the active liquidity; for a V2 pool, the pool-average
emissions APR (staked LP value) under every profile."""
from __future__ import annotations

from typing import Any

from .market import CL_TYPES, V2_TYPES
from .values import opt_int, opt_price
from ...core.cl_ranges import PROFILES, deposit_liquidity, diluted_share, profile_range, sqrt_ratio_at_tick

DEPOSIT_USD = 100.0  # the spec's "100-unit deposit", in USD
PROFILE_COLUMNS = {"minimum": "emission_apr_minimum", "five-spacing": "emission_apr_five_spacing",
                   "standard": "emission_apr_standard"}
CL_APR_COLUMNS = (*PROFILE_COLUMNS.values(), "range_tick_lower", "range_tick_upper")

# What the gauge snapshot reads of each pool for this: type, range state, tokens' decimals and prices.
CL_POOL_FIELDS = ("type tickSpacing liquidity sqrtPrice tick token0 { id decimals priceUSD } "
                  "token1 { id decimals priceUSD }")


def _unknown() -> dict[str, Any]:
    return dict.fromkeys(CL_APR_COLUMNS)


def profile_aprs(pool: dict | None, emissions_usd_per_year: float | None, emission_apr: float | None
                 ) -> dict[str, Any]:
    """The CL_APR_COLUMNS of one gauge row. `emissions_usd_per_year` is the gauge's epoch
    emissions x core price x 365/7 (None when the price is unknown); `emission_apr` the
    pool-average APR, which V2 pools keep under every profile. Unknown inputs give None."""
    out = _unknown()
    kind = (pool or {}).get("type")
    if kind in V2_TYPES:
        return {**out, **{column: emission_apr for column in PROFILE_COLUMNS.values()}}
    if kind not in CL_TYPES:
        return out
    tick, spacing = opt_int(pool.get("tick")), opt_int(pool.get("tickSpacing"))
    liquidity, sqrt_price = opt_int(pool.get("liquidity")), opt_int(pool.get("sqrtPrice"))
    if tick is None or spacing is None or spacing <= 0:
        return out
    lower, upper = profile_range("standard", tick, spacing)
    out["range_tick_lower"], out["range_tick_upper"] = lower, upper
    tokens = (pool.get("token0") or {}, pool.get("token1") or {})
    decimals = [opt_int(t.get("decimals")) for t in tokens]
    prices = [opt_price(t.get("priceUSD")) for t in tokens]
    # a subgraph price of 0 means no price source, not a free token: the deposit cannot be sized
    if (emissions_usd_per_year is None or liquidity is None or not sqrt_price
            or None in decimals or any(p is None or not p > 0 for p in prices)):
        return out
    for profile in PROFILES:
        lo, hi = profile_range(profile, tick, spacing)
        added = deposit_liquidity(DEPOSIT_USD, sqrt_price, sqrt_ratio_at_tick(lo), sqrt_ratio_at_tick(hi),
                                  decimals[0], decimals[1], prices[0], prices[1])
        if added is None:
            continue  # the range has no value per unit of liquidity: the APR stays unknown
        # every unit of active liquidity is taken as staked: the gauge exposes no staked liquidity
        share = diluted_share(added, liquidity)
        out[PROFILE_COLUMNS[profile]] = emissions_usd_per_year * share / DEPOSIT_USD
    return out
