"""Concentrated-liquidity (Uniswap v3 / Slipstream style) math, integer-exact.

TickMath, SqrtPriceMath and SwapMath are ports of the Solidity libraries. `CLPool` keeps the
initialized ticks in a sorted list instead of a bitmap: the swap loop visits the same
initialized ticks, so amounts match the contracts up to per-step rounding at word boundaries
(which only exist in the bitmap version and do not change the price path).
"""
from __future__ import annotations

import math
from bisect import bisect_left, bisect_right, insort

MIN_TICK = -887272
MAX_TICK = 887272
MIN_SQRT_RATIO = 4295128739
MAX_SQRT_RATIO = 1461446703485210103287273052203988822378723970342
Q96 = 1 << 96
Q192 = 1 << 192
PIPS = 1_000_000
_UINT256_MAX = (1 << 256) - 1

_TICK_FACTORS = (
    (0x2, 0xFFF97272373D413259A46990580E213A),
    (0x4, 0xFFF2E50F5F656932EF12357CF3C7FDCC),
    (0x8, 0xFFE5CACA7E10E4E61C3624EAA0941CD0),
    (0x10, 0xFFCB9843D60F6159C9DB58835C926644),
    (0x20, 0xFF973B41FA98C081472E6896DFB254C0),
    (0x40, 0xFF2EA16466C96A3843EC78B326B52861),
    (0x80, 0xFE5DEE046A99A2A811C461F1969C3053),
    (0x100, 0xFCBE86C7900A88AEDCFFC83B479AA3A4),
    (0x200, 0xF987A7253AC413176F2B074CF7815E54),
    (0x400, 0xF3392B0822B70005940C7A398E4B70F3),
    (0x800, 0xE7159475A2C29B7443B29C7FA6E889D9),
    (0x1000, 0xD097F3BDFD2022B8845AD8F792AA5825),
    (0x2000, 0xA9F746462D870FDF8A65DC1F90E061E5),
    (0x4000, 0x70D869A156D2A1B890BB3DF62BAF32F7),
    (0x8000, 0x31BE135F97D08FD981231505542FCFA6),
    (0x10000, 0x9AA508B5B7A84E1C677DE54F3E99BC9),
    (0x20000, 0x5D6AF8DEDB81196699C329225EE604),
    (0x40000, 0x2216E584F5FA1EA926041BEDFE98),
    (0x80000, 0x48A170391F7DC42444E8FA2),
)

_sqrt_cache: dict[int, int] = {}


def get_sqrt_ratio_at_tick(tick: int) -> int:
    """sqrt(1.0001^tick) * 2^96 rounded up, exactly as TickMath.getSqrtRatioAtTick."""
    cached = _sqrt_cache.get(tick)
    if cached is not None:
        return cached
    abs_tick = -tick if tick < 0 else tick
    if abs_tick > MAX_TICK:
        raise ValueError("T")
    ratio = 0xFFFCB933BD6FAD37AA2D162D1A594001 if abs_tick & 0x1 else 0x100000000000000000000000000000000
    for bit, factor in _TICK_FACTORS:
        if abs_tick & bit:
            ratio = (ratio * factor) >> 128
    if tick > 0:
        ratio = _UINT256_MAX // ratio
    result = (ratio >> 32) + (0 if ratio & 0xFFFFFFFF == 0 else 1)
    if len(_sqrt_cache) < 200_000:
        _sqrt_cache[tick] = result
    return result


_LOG_BASE = math.log(1.0001)


def get_tick_at_sqrt_ratio(sqrt_price_x96: int) -> int:
    """Greatest tick with get_sqrt_ratio_at_tick(tick) <= sqrt_price_x96 (TickMath semantics)."""
    if not (MIN_SQRT_RATIO <= sqrt_price_x96 < MAX_SQRT_RATIO):
        raise ValueError("R")
    approx = math.floor(2.0 * math.log(sqrt_price_x96 / Q96) / _LOG_BASE)
    tick = max(MIN_TICK, min(MAX_TICK, approx))
    while tick < MAX_TICK and get_sqrt_ratio_at_tick(tick + 1) <= sqrt_price_x96:
        tick += 1
    while tick > MIN_TICK and get_sqrt_ratio_at_tick(tick) > sqrt_price_x96:
        tick -= 1
    return tick


def _mul_div_up(a: int, b: int, d: int) -> int:
    q, r = divmod(a * b, d)
    return q + 1 if r else q


def _div_up(a: int, b: int) -> int:
    return -(-a // b)


def get_amount0_delta(sqrt_a: int, sqrt_b: int, liquidity: int, round_up: bool) -> int:
    if sqrt_a > sqrt_b:
        sqrt_a, sqrt_b = sqrt_b, sqrt_a
    numerator1 = liquidity << 96
    numerator2 = sqrt_b - sqrt_a
    if round_up:
        return _div_up(_mul_div_up(numerator1, numerator2, sqrt_b), sqrt_a)
    return (numerator1 * numerator2 // sqrt_b) // sqrt_a


def get_amount1_delta(sqrt_a: int, sqrt_b: int, liquidity: int, round_up: bool) -> int:
    if sqrt_a > sqrt_b:
        sqrt_a, sqrt_b = sqrt_b, sqrt_a
    if round_up:
        return _mul_div_up(liquidity, sqrt_b - sqrt_a, Q96)
    return liquidity * (sqrt_b - sqrt_a) // Q96


def get_next_sqrt_price_from_amount0_rounding_up(sqrt_p: int, liquidity: int, amount: int, add: bool) -> int:
    if amount == 0:
        return sqrt_p
    numerator1 = liquidity << 96
    product = amount * sqrt_p
    if add:
        if product <= _UINT256_MAX:
            denominator = numerator1 + product
            if denominator <= _UINT256_MAX:
                return _mul_div_up(numerator1, sqrt_p, denominator)
        return _div_up(numerator1, numerator1 // sqrt_p + amount)
    if not numerator1 > product:
        raise ValueError("price underflow")
    return _mul_div_up(numerator1, sqrt_p, numerator1 - product)


def get_next_sqrt_price_from_amount1_rounding_down(sqrt_p: int, liquidity: int, amount: int, add: bool) -> int:
    if add:
        return sqrt_p + (amount << 96) // liquidity
    quotient = _div_up(amount << 96, liquidity)
    if not sqrt_p > quotient:
        raise ValueError("price underflow")
    return sqrt_p - quotient


def get_next_sqrt_price_from_input(sqrt_p: int, liquidity: int, amount_in: int, zero_for_one: bool) -> int:
    if zero_for_one:
        return get_next_sqrt_price_from_amount0_rounding_up(sqrt_p, liquidity, amount_in, True)
    return get_next_sqrt_price_from_amount1_rounding_down(sqrt_p, liquidity, amount_in, True)


def compute_swap_step(sqrt_cur: int, sqrt_target: int, liquidity: int, amount_remaining: int,
                      fee_pips: int) -> tuple[int, int, int, int]:
    """SwapMath.computeSwapStep for exact-input swaps: (sqrtNext, amountIn, amountOut, feeAmount)."""
    zero_for_one = sqrt_cur >= sqrt_target
    remaining_less_fee = amount_remaining * (PIPS - fee_pips) // PIPS
    if zero_for_one:
        amount_in = get_amount0_delta(sqrt_target, sqrt_cur, liquidity, True)
    else:
        amount_in = get_amount1_delta(sqrt_cur, sqrt_target, liquidity, True)
    if remaining_less_fee >= amount_in:
        sqrt_next = sqrt_target
    else:
        sqrt_next = get_next_sqrt_price_from_input(sqrt_cur, liquidity, remaining_less_fee, zero_for_one)
    reached = sqrt_next == sqrt_target
    if zero_for_one:
        if not reached:
            amount_in = get_amount0_delta(sqrt_next, sqrt_cur, liquidity, True)
        amount_out = get_amount1_delta(sqrt_next, sqrt_cur, liquidity, False)
    else:
        if not reached:
            amount_in = get_amount1_delta(sqrt_cur, sqrt_next, liquidity, True)
        amount_out = get_amount0_delta(sqrt_cur, sqrt_next, liquidity, False)
    if not reached:
        fee_amount = amount_remaining - amount_in
    else:
        fee_amount = _mul_div_up(amount_in, fee_pips, PIPS - fee_pips)
    return sqrt_next, amount_in, amount_out, fee_amount


def price_to_sqrt_x96(price_raw: float) -> int:
    """sqrt(price of token0 in token1, raw units) as Q64.96, from a float price."""
    return int(math.sqrt(price_raw) * Q96)


def max_liquidity_per_tick(tick_spacing: int) -> int:
    """Tick.tickSpacingToMaxLiquidityPerTick: the most liquidityGross one tick may hold."""
    ticks = 2 * (MAX_TICK // tick_spacing) + 1
    return ((1 << 128) - 1) // ticks


def tick_table(positions) -> tuple[tuple[int, int, int], ...]:
    """The initialized ticks of positions (lower, upper, liquidity): (tick, liquidityNet,
    liquidityGross) sorted by tick, as `CLPool.mint` of each position leaves them."""
    table: dict[int, list[int]] = {}  # tick -> [liquidityNet, liquidityGross]
    for lower, upper, liquidity in positions:
        lo = table.setdefault(lower, [0, 0])
        lo[0] += liquidity
        lo[1] += liquidity
        hi = table.setdefault(upper, [0, 0])
        hi[0] -= liquidity
        hi[1] += liquidity
    return tuple((t, net, gross) for t, (net, gross) in sorted(table.items()) if gross)


class CLPool:
    """Live state of one concentrated-liquidity pool: price, active liquidity, initialized ticks."""

    __slots__ = ("sqrt_price", "tick", "liquidity", "fee", "tick_spacing", "ticks", "init_ticks")

    def __init__(self, sqrt_price: int, fee: int, tick_spacing: int):
        self.sqrt_price = sqrt_price
        self.tick = get_tick_at_sqrt_ratio(sqrt_price)
        self.liquidity = 0
        self.fee = fee
        self.tick_spacing = tick_spacing
        self.ticks: dict[int, list[int]] = {}  # tick -> [liquidityGross, liquidityNet]
        self.init_ticks: list[int] = []  # sorted initialized ticks

    # -- ticks ---------------------------------------------------------------------------------
    def min_tick(self) -> int:
        return -(MAX_TICK // self.tick_spacing) * self.tick_spacing

    def max_tick(self) -> int:
        return (MAX_TICK // self.tick_spacing) * self.tick_spacing

    def _update_tick(self, tick: int, delta: int, upper: bool) -> None:
        info = self.ticks.get(tick)
        if info is None:
            info = self.ticks[tick] = [0, 0]
            insort(self.init_ticks, tick)
        info[0] += delta
        info[1] += -delta if upper else delta
        if info[0] == 0:
            del self.ticks[tick]
            self.init_ticks.pop(bisect_left(self.init_ticks, tick))

    def _position_amounts(self, lower: int, upper: int, delta: int, round_up: bool) -> tuple[int, int]:
        sa, sb = get_sqrt_ratio_at_tick(lower), get_sqrt_ratio_at_tick(upper)
        liq = abs(delta)
        if self.tick < lower:
            return get_amount0_delta(sa, sb, liq, round_up), 0
        if self.tick < upper:
            return (get_amount0_delta(self.sqrt_price, sb, liq, round_up),
                    get_amount1_delta(sa, self.sqrt_price, liq, round_up))
        return 0, get_amount1_delta(sa, sb, liq, round_up)

    def mint(self, lower: int, upper: int, liquidity: int) -> tuple[int, int]:
        """Add liquidity to [lower, upper); returns the token amounts paid in (rounded up)."""
        if not (lower < upper and lower % self.tick_spacing == 0 and upper % self.tick_spacing == 0):
            raise ValueError("bad tick range")
        if liquidity <= 0:
            raise ValueError("liquidity must be positive")
        amounts = self._position_amounts(lower, upper, liquidity, True)
        self._update_tick(lower, liquidity, False)
        self._update_tick(upper, liquidity, True)
        if lower <= self.tick < upper:
            self.liquidity += liquidity
        return amounts

    def burn(self, lower: int, upper: int, liquidity: int) -> tuple[int, int]:
        """Remove liquidity; returns the token amounts paid out (rounded down)."""
        amounts = self._position_amounts(lower, upper, liquidity, False)
        self._update_tick(lower, -liquidity, False)
        self._update_tick(upper, -liquidity, True)
        if lower <= self.tick < upper:
            self.liquidity -= liquidity
        return amounts

    def liquidity_at_tick(self, tick: int) -> int:
        """Active liquidity a price in `tick` would see: sum of liquidityNet of ticks <= tick."""
        total = 0
        for t in self.init_ticks:
            if t > tick:
                break
            total += self.ticks[t][1]
        return total

    # -- swaps ---------------------------------------------------------------------------------
    def swap(self, zero_for_one: bool, amount_in: int, sqrt_price_limit: int | None = None
             ) -> tuple[int, int, int, int]:
        """Exact-input swap. Returns (amountIn used incl. fee, amountOut, feeAmount, ticksCrossed).

        The loop follows UniswapV3Pool.swap: step to the next initialized tick (or the limit),
        cross it applying liquidityNet, repeat until the input is spent or the limit is reached.
        """
        if amount_in <= 0:
            raise ValueError("amount must be positive")
        if sqrt_price_limit is None:
            sqrt_price_limit = MIN_SQRT_RATIO + 1 if zero_for_one else MAX_SQRT_RATIO - 1
        if zero_for_one:
            if not (MIN_SQRT_RATIO < sqrt_price_limit < self.sqrt_price):
                raise ValueError("SPL")
        elif not (self.sqrt_price < sqrt_price_limit < MAX_SQRT_RATIO):
            raise ValueError("SPL")
        remaining = amount_in
        out_total = 0
        fee_total = 0
        crossed = 0
        sqrt_p, tick, liq, fee = self.sqrt_price, self.tick, self.liquidity, self.fee
        init = self.init_ticks
        while remaining != 0 and sqrt_p != sqrt_price_limit:
            start = sqrt_p
            if zero_for_one:
                i = bisect_right(init, tick) - 1
                if i >= 0:
                    tick_next, initialized = init[i], True
                else:
                    tick_next, initialized = MIN_TICK, False
            else:
                i = bisect_right(init, tick)
                if i < len(init):
                    tick_next, initialized = init[i], True
                else:
                    tick_next, initialized = MAX_TICK, False
            sqrt_next = get_sqrt_ratio_at_tick(tick_next)
            if zero_for_one:
                target = sqrt_price_limit if sqrt_next < sqrt_price_limit else sqrt_next
            else:
                target = sqrt_price_limit if sqrt_next > sqrt_price_limit else sqrt_next
            sqrt_p, step_in, step_out, step_fee = compute_swap_step(sqrt_p, target, liq, remaining, fee)
            remaining -= step_in + step_fee
            out_total += step_out
            fee_total += step_fee
            if sqrt_p == sqrt_next:
                if initialized:
                    net = self.ticks[tick_next][1]
                    liq += -net if zero_for_one else net
                    crossed += 1
                tick = tick_next - 1 if zero_for_one else tick_next
            elif sqrt_p != start:
                tick = get_tick_at_sqrt_ratio(sqrt_p)
        self.sqrt_price, self.tick, self.liquidity = sqrt_p, tick, liq
        return amount_in - remaining, out_total, fee_total, crossed
