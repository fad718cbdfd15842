"""Range and liquidity math of the CL emissions APR against Uniswap v3's published examples and
the devnet's own port of the pool contract (devnet.amm.cl), not against core.cl_ranges itself."""
from __future__ import annotations

import math
import random

import pytest

from devnet.amm import cl as devnet_cl
from ve_analytics.core.cl_ranges import (
    MAX_TICK,
    MIN_TICK,
    Q96,
    STANDARD_HALF_TICKS,
    amounts_for_liquidity,
    deposit_liquidity,
    diluted_share,
    profile_range,
    sqrt_ratio_at_tick,
    usd_per_liquidity,
)


def encode_price_sqrt(reserve1: int, reserve0: int) -> int:
    """Uniswap's test helper encodePriceSqrt: sqrt(reserve1 / reserve0) x 2^96, floored."""
    return math.isqrt((reserve1 << 192) // reserve0)


def test_sqrt_ratio_at_tick_is_tickmath():
    # TickMath's published constants
    assert sqrt_ratio_at_tick(0) == Q96
    assert sqrt_ratio_at_tick(MIN_TICK) == 4295128739
    assert sqrt_ratio_at_tick(MAX_TICK) == 1461446703485210103287273052203988822378723970342
    rng = random.Random(7)
    for tick in [*range(-300, 300), *(rng.randint(MIN_TICK, MAX_TICK) for _ in range(2000))]:
        assert sqrt_ratio_at_tick(tick) == devnet_cl.get_sqrt_ratio_at_tick(tick)
    with pytest.raises(ValueError):
        sqrt_ratio_at_tick(MAX_TICK + 1)


def test_amounts_for_liquidity_match_uniswap_periphery_examples():
    # v3-periphery LiquidityAmounts tests: price 1, range 100/110 .. 110/100
    a, b = encode_price_sqrt(100, 110), encode_price_sqrt(110, 100)
    assert amounts_for_liquidity(encode_price_sqrt(1, 1), a, b, 2148) == (99, 99)
    assert amounts_for_liquidity(encode_price_sqrt(99, 110), a, b, 1048) == (99, 0)
    assert amounts_for_liquidity(encode_price_sqrt(111, 100), a, b, 2097) == (0, 199)
    # on a bound the position is all one token, as in the contract
    assert amounts_for_liquidity(a, a, b, 1048)[1] == 0 and amounts_for_liquidity(b, a, b, 2097)[0] == 0


def test_mint_amounts_match_the_uniswap_v3_book_example():
    # Uniswap V3 Development Book, milestone 2: ETH/USDC at 5000, ticks 84222 .. 86129, rounded up as a mint pays
    sqrt_price, liquidity = 5602277097478614198912276234240, 1517882343751509868544
    lower, upper = sqrt_ratio_at_tick(84222), sqrt_ratio_at_tick(86129)
    assert amounts_for_liquidity(sqrt_price, lower, upper, liquidity, round_up=True) == (
        998628802115141959, 5000209190920489524100)


def test_amounts_equal_the_devnet_pools_mint_and_burn():
    rng = random.Random(3)
    for _ in range(300):
        spacing = rng.choice((1, 50, 100, 200))
        pool = devnet_cl.CLPool(devnet_cl.get_sqrt_ratio_at_tick(rng.randint(-200_000, 200_000)) + rng.randint(0, 10**9),
                                500, spacing)
        lo = (pool.tick // spacing - rng.randint(-3, 5)) * spacing
        hi = lo + rng.randint(1, 8) * spacing
        liquidity = rng.randint(1, 10**24)
        sa, sb = sqrt_ratio_at_tick(lo), sqrt_ratio_at_tick(hi)
        paid = pool.mint(lo, hi, liquidity)
        assert amounts_for_liquidity(pool.sqrt_price, sa, sb, liquidity, round_up=True) == paid
        assert amounts_for_liquidity(pool.sqrt_price, sa, sb, liquidity) == pool.burn(lo, hi, liquidity)


def test_symmetric_range_at_price_one_holds_equal_amounts():
    for k in (1, 10, 954, 20_000):
        a0, a1 = amounts_for_liquidity(Q96, sqrt_ratio_at_tick(-k), sqrt_ratio_at_tick(k), 10**30)
        assert a0 > 0 and abs(a0 - a1) <= 1e-12 * a0
        value = usd_per_liquidity(Q96, sqrt_ratio_at_tick(-k), sqrt_ratio_at_tick(k), 18, 18, 2.0, 2.0)
        assert value == pytest.approx(2 * 2.0 * a0 / 10**30 / 1e18, rel=1e-12)


def test_profile_ranges_are_aligned_and_nested():
    assert profile_range("minimum", 0, 10) == (0, 10)
    assert profile_range("minimum", 9, 10) == (0, 10)
    assert profile_range("minimum", -1, 10) == (-10, 0)  # floor, not truncation toward zero
    assert profile_range("minimum", -10, 10) == (-10, 0)
    assert profile_range("five-spacing", -1, 10) == (-30, 20)
    assert profile_range("five-spacing", 12345, 1) == (12343, 12348)
    assert profile_range("standard", 0, 200) == (-1000, 1000)
    assert profile_range("standard", 0, 1) == (-954, 955)
    assert profile_range("minimum", MAX_TICK - 1, 200)[1] == (MAX_TICK // 200) * 200  # clamped to usable ticks
    with pytest.raises(ValueError):
        profile_range("wide", 0, 1)
    rng = random.Random(11)
    for _ in range(2000):
        spacing, tick = rng.choice((1, 10, 50, 60, 100, 200, 381, 477)), rng.randint(-500_000, 500_000)
        ranges = {p: profile_range(p, tick, spacing) for p in ("minimum", "five-spacing", "standard")}
        for lo, hi in ranges.values():
            assert lo % spacing == 0 and hi % spacing == 0 and lo <= tick < hi
        (l1, u1), (l5, u5), (ls, us) = ranges.values()
        assert u1 - l1 == spacing and (l5, u5) == (l1 - 2 * spacing, u1 + 2 * spacing)
        assert ls <= l5 and u5 <= us  # standard contains five-spacing up to spacing 477 (2 x 954 / 4)
        if spacing <= 381:  # 2 x 954 + 1 > 5 spacings: at least six intervals, strictly wider
            assert (ls, us) != (l5, u5)


def test_standard_range_covers_every_price_within_ten_percent_and_no_spacing_more():
    assert 1.0001 ** (STANDARD_HALF_TICKS - 1) < 1.1 <= 1.0001 ** STANDARD_HALF_TICKS
    rng = random.Random(5)
    for _ in range(500):
        spacing, tick = rng.choice((1, 50, 100, 200)), rng.randint(-300_000, 300_000)
        lo, hi = profile_range("standard", tick, spacing)
        # the price is anywhere in [1.0001^tick, 1.0001^(tick+1)): the range covers a factor 1.1 either way
        assert lo * math.log(1.0001) <= tick * math.log(1.0001) - math.log(1.1) + 1e-9
        assert hi * math.log(1.0001) >= (tick + 1) * math.log(1.0001) + math.log(1.1) - 1e-9
        # widened only to the next spacing multiple
        assert (lo + spacing) * math.log(1.0001) > tick * math.log(1.0001) - math.log(1.1) - math.log(1.0001)
        assert (hi - spacing) * math.log(1.0001) < (tick + 1) * math.log(1.0001) + math.log(1.1) + math.log(1.0001)


def test_deposit_liquidity_is_what_the_pool_charges_100_usd_for():
    rng = random.Random(9)
    for _ in range(200):
        d0, d1 = rng.choice((6, 8, 18)), rng.choice((6, 18))
        p0, p1 = rng.uniform(0.5, 70_000), rng.uniform(0.5, 4_000)
        spacing = rng.choice((1, 50, 100, 200))
        # the pool price follows the USD prices: token1 per token0 in raw units
        raw = p0 / p1 * 10**d1 / 10**d0
        pool = devnet_cl.CLPool(int(math.sqrt(raw) * Q96), 500, spacing)
        for profile in ("minimum", "five-spacing", "standard"):
            lo, hi = profile_range(profile, pool.tick, spacing)
            added = deposit_liquidity(100.0, pool.sqrt_price, sqrt_ratio_at_tick(lo), sqrt_ratio_at_tick(hi),
                                      d0, d1, p0, p1)
            # amounts are linear in L: a trillion such deposits make the pool's raw-unit rounding negligible
            a0, a1 = pool.mint(lo, hi, int(added * 10**12))
            assert (a0 / 10**d0 * p0 + a1 / 10**d1 * p1) / 10**12 == pytest.approx(100.0, rel=1e-9)
    assert deposit_liquidity(100.0, Q96, sqrt_ratio_at_tick(-10), sqrt_ratio_at_tick(10), 18, 18, 0.0, 0.0) is None


def test_the_deposit_dilutes_the_liquidity_it_joins():
    assert diluted_share(1.0, 0) == 1.0  # alone in range: every emission is its own
    assert diluted_share(5.0, 5) == 0.5
    assert diluted_share(1.0, 3 * 10**24) == pytest.approx(1 / (3 * 10**24 + 1), rel=1e-15)
    assert diluted_share(0.0, 0) == 0.0
    with pytest.raises(ValueError):
        diluted_share(-1.0, 10)
