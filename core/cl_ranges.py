"""Concentrated-liquidity range math for the per-profile emissions APR
(docs/methodology/cl-emissions-apr.md): the sqrt price at a tick (Uniswap v3 TickMath), the
three aligned ranges around the current tick, the token amounts of a liquidity in a range
(LiquidityAmounts), the liquidity a USD deposit adds to a range, and its share of the in-range
emissions once it has diluted the liquidity already there.

Pure integer and float arithmetic: no I/O, nothing from the rest of the product.
"""
from __future__ import annotations

from fractions import Fraction

MIN_TICK = -887272
MAX_TICK = 887272
Q96 = 1 << 96
_UINT256_MAX = (1 << 256) - 1

PROFILES = ("minimum", "five-spacing", "standard")
# `standard`: every price within a factor (1 + H) of the current one either way, i.e.
# [P / (1 + H), P x (1 + H)]: symmetric in ticks, so it does not depend on which token quotes the
# other, and wide enough to contain the five-spacing range for every spacing up to 477.
STANDARD_HALF_SPREAD = Fraction(1, 10)  # H = 10 %


def _half_spread_ticks(h: Fraction) -> int:
    """Smallest W with 1.0001^W >= 1 + h, exactly (integer powers, no float logarithm)."""
    base, target, w = Fraction(10001, 10000), 1 + h, 0
    power = Fraction(1)
    while power < target:
        power *= base
        w += 1
    return w


STANDARD_HALF_TICKS = _half_spread_ticks(STANDARD_HALF_SPREAD)  # 954 for H = 10 %

# TickMath.getSqrtRatioAtTick's factors: 2^128 / sqrt(1.0001)^(2^i), for bit i of |tick|
_TICK_FACTORS = (
    0xFFF97272373D413259A46990580E213A, 0xFFF2E50F5F656932EF12357CF3C7FDCC, 0xFFE5CACA7E10E4E61C3624EAA0941CD0,
    0xFFCB9843D60F6159C9DB58835C926644, 0xFF973B41FA98C081472E6896DFB254C0, 0xFF2EA16466C96A3843EC78B326B52861,
    0xFE5DEE046A99A2A811C461F1969C3053, 0xFCBE86C7900A88AEDCFFC83B479AA3A4, 0xF987A7253AC413176F2B074CF7815E54,
    0xF3392B0822B70005940C7A398E4B70F3, 0xE7159475A2C29B7443B29C7FA6E889D9, 0xD097F3BDFD2022B8845AD8F792AA5825,
    0xA9F746462D870FDF8A65DC1F90E061E5, 0x70D869A156D2A1B890BB3DF62BAF32F7, 0x31BE135F97D08FD981231505542FCFA6,
    0x9AA508B5B7A84E1C677DE54F3E99BC9, 0x5D6AF8DEDB81196699C329225EE604, 0x2216E584F5FA1EA926041BEDFE98,
    0x48A170391F7DC42444E8FA2,
)


def sqrt_ratio_at_tick(tick: int) -> int:
    """sqrt(1.0001^tick) x 2^96, rounded up, exactly as TickMath.getSqrtRatioAtTick."""
    abs_tick = abs(tick)
    if abs_tick > MAX_TICK:
        raise ValueError(f"tick {tick} outside [{MIN_TICK}, {MAX_TICK}]")
    ratio = 0xFFFCB933BD6FAD37AA2D162D1A594001 if abs_tick & 1 else 1 << 128
    for i, factor in enumerate(_TICK_FACTORS, start=1):
        if abs_tick & (1 << i):
            ratio = (ratio * factor) >> 128
    if tick > 0:
        ratio = _UINT256_MAX // ratio
    return (ratio >> 32) + (1 if ratio & 0xFFFFFFFF else 0)


def usable_ticks(spacing: int) -> tuple[int, int]:
    """The lowest and highest ticks a position may use at this spacing."""
    edge = (MAX_TICK // spacing) * spacing
    return -edge, edge


def profile_range(profile: str, tick: int, spacing: int) -> tuple[int, int]:
    """[lower, upper) ticks of a profile around the current tick, both multiples of the spacing.

    minimum: the one spacing interval holding the tick; five-spacing: that interval and two on
    each side; standard: the ticks of every price within a factor (1 + H) of the current one,
    widened outward to spacing multiples. Clamped to the usable ticks."""
    if spacing <= 0:
        raise ValueError(f"tick spacing must be positive, not {spacing}")
    base = (tick // spacing) * spacing  # floor: Python's // rounds toward -inf for negative ticks
    if profile == "minimum":
        lower, upper = base, base + spacing
    elif profile == "five-spacing":
        lower, upper = base - 2 * spacing, base + 3 * spacing
    elif profile == "standard":
        # the price is in [1.0001^tick, 1.0001^(tick + 1)), so these ticks cover P / (1 + H) .. P x (1 + H)
        lower = ((tick - STANDARD_HALF_TICKS) // spacing) * spacing
        upper = -((-(tick + 1 + STANDARD_HALF_TICKS)) // spacing) * spacing
    else:
        raise ValueError(f"unknown profile {profile!r}")
    low, high = usable_ticks(spacing)
    return max(lower, low), min(upper, high)


def _mul_div(a: int, b: int, d: int, round_up: bool) -> int:
    q, r = divmod(a * b, d)
    return q + 1 if round_up and r else q


def amount0_for_liquidity(sqrt_a: int, sqrt_b: int, liquidity: int, round_up: bool = False) -> int:
    """Token0 (raw) of `liquidity` between two sqrt prices: L x (sqrtB - sqrtA) / (sqrtA x sqrtB)."""
    sqrt_a, sqrt_b = min(sqrt_a, sqrt_b), max(sqrt_a, sqrt_b)
    num = _mul_div(liquidity << 96, sqrt_b - sqrt_a, sqrt_b, round_up)
    return -(-num // sqrt_a) if round_up else num // sqrt_a


def amount1_for_liquidity(sqrt_a: int, sqrt_b: int, liquidity: int, round_up: bool = False) -> int:
    """Token1 (raw) of `liquidity` between two sqrt prices: L x (sqrtB - sqrtA)."""
    sqrt_a, sqrt_b = min(sqrt_a, sqrt_b), max(sqrt_a, sqrt_b)
    return _mul_div(liquidity, sqrt_b - sqrt_a, Q96, round_up)


def amounts_for_liquidity(sqrt_price: int, sqrt_a: int, sqrt_b: int, liquidity: int,
                          round_up: bool = False) -> tuple[int, int]:
    """(token0, token1) raw of a position [sqrtA, sqrtB) at the current sqrt price
    (LiquidityAmounts.getAmountsForLiquidity; round_up gives what a mint pays)."""
    sqrt_a, sqrt_b = min(sqrt_a, sqrt_b), max(sqrt_a, sqrt_b)
    if sqrt_price <= sqrt_a:
        return amount0_for_liquidity(sqrt_a, sqrt_b, liquidity, round_up), 0
    if sqrt_price < sqrt_b:
        return (amount0_for_liquidity(sqrt_price, sqrt_b, liquidity, round_up),
                amount1_for_liquidity(sqrt_a, sqrt_price, liquidity, round_up))
    return 0, amount1_for_liquidity(sqrt_a, sqrt_b, liquidity, round_up)


def usd_per_liquidity(sqrt_price: int, sqrt_a: int, sqrt_b: int, decimals0: int, decimals1: int,
                      price0_usd: float, price1_usd: float) -> float:
    """USD value of one unit of liquidity in [sqrtA, sqrtB) at the current sqrt price.

    The amounts are linear in L, so the exact rational per unit is taken in floats: the
    differences of sqrt prices are exact integers before the one conversion."""
    sqrt_a, sqrt_b = min(sqrt_a, sqrt_b), max(sqrt_a, sqrt_b)
    sp = min(max(sqrt_price, sqrt_a), sqrt_b)  # outside the range the position is one token
    per0 = (sqrt_b - sp) * Q96 / sp / sqrt_b  # token0 raw per unit of L
    per1 = (sp - sqrt_a) / Q96  # token1 raw per unit of L
    return per0 / 10**decimals0 * price0_usd + per1 / 10**decimals1 * price1_usd


def deposit_liquidity(deposit_usd: float, sqrt_price: int, sqrt_a: int, sqrt_b: int, decimals0: int,
                      decimals1: int, price0_usd: float, price1_usd: float) -> float | None:
    """The liquidity a deposit worth `deposit_usd` adds to [sqrtA, sqrtB); None when the range
    has no USD value per unit of liquidity (a price of zero): it cannot be sized."""
    per_unit = usd_per_liquidity(sqrt_price, sqrt_a, sqrt_b, decimals0, decimals1, price0_usd, price1_usd)
    if not per_unit > 0:
        return None
    return deposit_usd / per_unit


def diluted_share(deposit: float, in_range: int | float) -> float:
    """The deposit's share of the range's emissions once it has joined the liquidity there."""
    if deposit < 0 or in_range < 0:
        raise ValueError("liquidity cannot be negative")
    total = in_range + deposit
    return deposit / total if total > 0 else 0.0
