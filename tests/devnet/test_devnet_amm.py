"""AMM math: invariants, tick math, and CL swaps against independent closed forms."""
from __future__ import annotations

import random
from decimal import Decimal, getcontext

import pytest

from devnet.amm import cl
from devnet.amm.cl import CLPool, Q96, get_sqrt_ratio_at_tick, get_tick_at_sqrt_ratio
from devnet.amm.v2 import V2Pool

getcontext().prec = 80


def test_constant_product_k_never_decreases_and_matches_formula():
    rng = random.Random(1)
    pool = V2Pool(False, 18, 6, 3000, 1_000 * 10**18, 2_000_000 * 10**6)
    for _ in range(500):
        zero_in = rng.random() < 0.5
        amount = rng.randint(1, 10**21) if zero_in else rng.randint(1, 10**9)
        r_in, r_out = (pool.reserve0, pool.reserve1) if zero_in else (pool.reserve1, pool.reserve0)
        k0 = pool.k()
        out, fee = pool.swap(amount, zero_in)
        net = amount - amount * 3000 // 1_000_000
        assert fee == amount - net
        assert out == net * r_out // (r_in + net)
        assert pool.k() >= k0


def test_stable_invariant_never_decreases_with_mixed_decimals():
    rng = random.Random(2)
    pool = V2Pool(True, 18, 6, 500, 5_000_000 * 10**18, 5_000_000 * 10**6)
    for _ in range(400):
        zero_in = rng.random() < 0.5
        usd = rng.uniform(10, 200_000)
        amount = int(usd * 10**18) if zero_in else int(usd * 10**6)
        k0 = pool.k()
        pool.swap(amount, zero_in)
        assert pool.k() >= k0
    # on a balanced pool a stable swap pays out about the input less the fee
    fresh = V2Pool(True, 18, 6, 500, 5_000_000 * 10**18, 5_000_000 * 10**6)
    out, fee = fresh.quote(10_000 * 10**18, True)
    assert fee == 5 * 10**18
    assert out / 10**6 == pytest.approx(10_000 * (1 - 0.0005), rel=1e-4)


def test_stable_curve_is_flatter_than_constant_product():
    stable = V2Pool(True, 18, 18, 0, 10**24, 10**24)
    volatile = V2Pool(False, 18, 18, 0, 10**24, 10**24)
    amt = 10**23  # 10% of a side
    assert stable.quote(amt, True)[0] > volatile.quote(amt, True)[0]
    # invariant formula x^3 y + x y^3 on 18-decimal normalised reserves
    x = y = Decimal(10**6)
    assert float(Decimal(stable.k()) / Decimal(10**18)) == pytest.approx(float(x**3 * y + x * y**3), rel=1e-12)


def _ref_sqrt(tick: int) -> Decimal:
    return (Decimal("1.0001") ** tick).sqrt() * Q96


def test_tick_math_matches_reference_and_inverts():
    assert get_sqrt_ratio_at_tick(cl.MIN_TICK) == cl.MIN_SQRT_RATIO
    assert get_sqrt_ratio_at_tick(cl.MAX_TICK) == cl.MAX_SQRT_RATIO
    rng = random.Random(3)
    ticks = [0, 1, -1, 60, -60, 887271, -887271] + [rng.randint(-400_000, 400_000) for _ in range(300)]
    for t in ticks:
        r = get_sqrt_ratio_at_tick(t)
        assert abs(Decimal(r) / _ref_sqrt(t) - 1) < Decimal("1e-9")
        assert get_tick_at_sqrt_ratio(r) == t
        if abs(t) < 887271:
            assert get_tick_at_sqrt_ratio(r - 1) == t - 1


def test_cl_single_range_swap_matches_closed_form():
    """Inside one range: sqrtP' = L*sqrtP / (L + dx*sqrtP/Q96) and dy = L*(sqrtP - sqrtP')/Q96."""
    sp = get_sqrt_ratio_at_tick(1000)
    pool = CLPool(sp, 3000, 10)
    L = 10**22
    pool.mint(0, 2000, L)
    dx = 10**19
    used, out, fee, crossed = pool.swap(True, dx)
    assert crossed == 0 and used == dx
    net = Decimal(dx - fee)
    assert fee == -(-(dx * 3000) // 1_000_000) or abs(fee - dx * 3000 / 1e6) <= 1
    sqrt_new = Decimal(L) * Decimal(sp) / (Decimal(L) + net * Decimal(sp) / Q96)
    dy = Decimal(L) * (Decimal(sp) - sqrt_new) / Q96
    assert abs(Decimal(pool.sqrt_price) - sqrt_new) <= 1
    assert abs(Decimal(out) - dy) <= 2
    # and the other direction
    sp2 = pool.sqrt_price
    dy_in = 10**20
    used, out0, fee, crossed = pool.swap(False, dy_in)
    net = Decimal(dy_in - fee)
    sqrt_new = Decimal(sp2) + net * Q96 / Decimal(L)
    dx_out = Decimal(L) * Q96 * (sqrt_new - Decimal(sp2)) / (sqrt_new * Decimal(sp2))
    assert abs(Decimal(pool.sqrt_price) - sqrt_new) <= 1
    assert abs(Decimal(out0) - dx_out) <= 2


def _positions_liquidity(positions, tick):
    return sum(liq for lo, hi, liq in positions if lo <= tick < hi)


def test_cl_swap_across_ticks_matches_piecewise_reference():
    """Zero fee, three overlapping positions: the swap is a chain of single-range segments."""
    sp0 = get_sqrt_ratio_at_tick(0)
    pool = CLPool(sp0, 0, 10)
    positions = [(-600, 600, 4 * 10**21), (-200, 200, 6 * 10**21), (-100_000, 100_000, 10**21)]
    for lo, hi, liq in positions:
        pool.mint(lo, hi, liq)
    assert pool.liquidity == _positions_liquidity(positions, 0)
    dx = 3 * 10**20  # enough to cross -200 and -600
    used, out, fee, crossed = pool.swap(True, dx)
    assert fee == 0 and used == dx
    assert crossed == 2
    assert pool.tick < -600
    assert pool.liquidity == _positions_liquidity(positions, pool.tick) == pool.liquidity_at_tick(pool.tick)
    assert pool.liquidity == 10**21
    # independent piecewise computation: (lower boundary, liquidity above it)
    segments = [(-200, _positions_liquidity(positions, -1)), (-600, _positions_liquidity(positions, -201)),
                (None, _positions_liquidity(positions, -601))]
    remaining = Decimal(dx)
    sqrt_p = Decimal(sp0)
    total_out = Decimal(0)
    for boundary, liq in segments:
        liq = Decimal(liq)
        if boundary is not None:
            sb = Decimal(get_sqrt_ratio_at_tick(boundary))
            need = liq * Q96 * (sqrt_p - sb) / (sqrt_p * sb)
            if need <= remaining:
                total_out += liq * (sqrt_p - sb) / Q96
                remaining -= need
                sqrt_p = sb
                continue
        new = liq * sqrt_p / (liq + remaining * sqrt_p / Q96)
        total_out += liq * (sqrt_p - new) / Q96
        sqrt_p = new
        break
    # integer rounding (amounts rounded up per step) moves the end price by a few ulps of input
    assert abs(Decimal(pool.sqrt_price) / sqrt_p - 1) < Decimal("1e-15")
    assert abs(Decimal(out) - total_out) <= 10
    # crossing back up restores the liquidity of the ranges
    pool.swap(False, 10**22)
    assert pool.tick > 600
    assert pool.liquidity == _positions_liquidity(positions, pool.tick) == 10**21


def test_cl_price_limit_and_mint_burn_round_trip():
    pool = CLPool(get_sqrt_ratio_at_tick(500), 500, 10)
    a0, a1 = pool.mint(-1000, 2000, 10**20)
    b0, b1 = pool.burn(-1000, 2000, 10**20)
    assert (b0, b1) <= (a0, a1) and a0 - b0 <= 1 and a1 - b1 <= 1
    assert pool.liquidity == 0 and not pool.ticks
    pool.mint(-1000, 2000, 10**20)
    limit = get_sqrt_ratio_at_tick(300)
    used, out, fee, crossed = pool.swap(True, 10**30, limit)
    assert pool.sqrt_price == limit and used < 10**30
    assert pool.tick == 299 or pool.tick == 300 - 1 or get_sqrt_ratio_at_tick(pool.tick) <= limit
