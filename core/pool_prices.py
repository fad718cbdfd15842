"""A pool's marginal price, exact: what an infinitesimal trade pays at the pool's state, in
token1 per token0 (human units: each token's decimals applied), as a Fraction.

- concentrated liquidity: (sqrtPriceX96 / 2^96)^2 x 10^(d0 - d1); a tick's price is the one at
  its TickMath sqrt ratio, as the pool itself computes it;
- V2 volatile (x y = k): y / x;
- V2 stable (x^3 y + y^3 x = k): (3 x^2 y + y^3) / (x^3 + 3 x y^2), minus the curve's slope;
with x, y the reserves in human units. None where the state gives no price (an empty side, a
zero sqrt price). Pure: no I/O.
"""
from __future__ import annotations

from fractions import Fraction

from .cl_ranges import Q96, sqrt_ratio_at_tick


def cl_price(sqrt_price_x96: int, decimals0: int, decimals1: int) -> Fraction | None:
    if sqrt_price_x96 <= 0:
        return None
    return Fraction(sqrt_price_x96 * sqrt_price_x96, Q96 * Q96) * Fraction(10) ** (decimals0 - decimals1)


def tick_price(tick: int, decimals0: int, decimals1: int) -> Fraction:
    """The price at a tick boundary (TickMath's sqrt ratio there, rounded up as the pool rounds it)."""
    return cl_price(sqrt_ratio_at_tick(tick), decimals0, decimals1)  # type: ignore[return-value]


def v2_price(stable: bool, reserve0_raw: int, reserve1_raw: int, decimals0: int, decimals1: int) -> Fraction | None:
    if reserve0_raw <= 0 or reserve1_raw <= 0:
        return None
    x, y = Fraction(reserve0_raw, 10**decimals0), Fraction(reserve1_raw, 10**decimals1)
    if not stable:
        return y / x
    return (3 * x * x * y + y ** 3) / (x ** 3 + 3 * x * y * y)
