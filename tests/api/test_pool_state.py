"""api/v1/pools/state.py, the pure part of a pool detail: a leg without a price leaves the USD
total null (never the other leg alone), holdings are exact, and marginal prices equal the devnet's
pool math (devnet.amm: the contracts' ports) for each pool type."""
from __future__ import annotations

from fractions import Fraction
from types import SimpleNamespace

from devnet.amm.cl import Q96
from devnet.amm.v2 import V2Pool
from ve_analytics.api.v1.common.prices import PriceAt
from ve_analytics.api.v1.pools.state import emissions_scenario, liquidity_state, marginal_prices
from ve_analytics.core.prices import CANONICAL, NO_PRICE_OBSERVATION

AT = 1_790_000_100
SNAPSHOT = SimpleNamespace(at_iso="2026-09-21T13:15:00Z", block_number=123, indexed_at="2026-09-21T13:14:58Z")
REL = 1e-12


def row(pool_type: str, **extra) -> dict:
    return {"pool_type": pool_type, "token0_address": "0x" + "a" * 40, "token1_address": "0x" + "b" * 40,
            "token0_symbol": "A", "token1_symbol": "B", "token0_decimals": 18, "token1_decimals": 6,
            "reserve0_raw": None, "reserve1_raw": None, "sqrt_price_x96": None, "tick": None, "liquidity_raw": None,
            "tick_spacing": None, "emissions_apr": 0.5, **extra}


def priced(price: float) -> PriceAt:
    return PriceAt(AT, True, {"p_source": CANONICAL, "p_price": price, "p_sampled_at": AT, "p_generation": 1,
                              "p_revision": 1, "p_block": 123, "first_activity": None})


UNPRICED = PriceAt(AT, True, {"p_source": "", "first_activity": None})


def close(text: str, expected: float) -> bool:
    return abs(float(text) - expected) <= REL * abs(expected)


def test_a_leg_without_a_price_leaves_the_total_unavailable_not_smaller():
    r = row("v2-volatile", reserve0_raw=str(3 * 10**18), reserve1_raw=str(4_500_000))
    state = liquidity_state(r, [priced(2.0), UNPRICED], 3600, SNAPSHOT)
    first, second = state["holdings"]
    assert (first["amountRaw"], first["amount"], first["valueUsd"]) == (str(3 * 10**18), "3", "6")
    assert (second["amount"], second["price"], second["priceReason"], second["valueUsd"]) == (
        "4.5", None, NO_PRICE_OBSERVATION, None)
    assert state["valueUsd"] is None and state["usdComplete"] is False
    both = liquidity_state(r, [priced(2.0), priced(1.0)], 3600, SNAPSHOT)
    assert (both["valueUsd"], both["usdComplete"]) == ("10.5", True)
    assert both["custody"] == {"source": "subgraph", "entity": "Pool", "fields": ["reserve0", "reserve1"],
                               "blockNumber": 123, "blockTimestamp": "2026-09-21T13:14:58Z"}


def test_unknown_holdings_are_null_not_zero():
    state = liquidity_state(row("v2-volatile"), [priced(2.0), priced(1.0)], 3600, SNAPSHOT)
    assert [h["amount"] for h in state["holdings"]] == [None, None] and state["valueUsd"] is None
    assert state["marginalPrices"] == {"token1PerToken0": None, "token0PerToken1": None, "derivedFrom": None}


def test_marginal_prices_equal_the_devnet_pool_math():
    r0, r1 = 1_234_567 * 10**15, 987_654_321
    for stable in (False, True):
        pool = V2Pool(stable, 18, 6, 0, r0, r1)
        prices = marginal_prices(row("v2-stable" if stable else "v2-volatile"), r0, r1)
        assert close(prices["token1PerToken0"], pool.price()) and close(prices["token0PerToken1"], 1 / pool.price())
        assert prices["derivedFrom"] == "reserves"
    sqrt_price = 79228162514264337593543950336 * 3 // 2  # price 2.25 (raw), token1 per token0
    prices = marginal_prices(row("cl", sqrt_price_x96=str(sqrt_price)), None, None)
    assert close(prices["token1PerToken0"], (sqrt_price / Q96) ** 2 * 10**12) and prices["derivedFrom"] == "sqrtPriceX96"
    assert Fraction(prices["token1PerToken0"]) == Fraction(sqrt_price**2, Q96**2) * 10**12  # exact: no digit lost


def test_a_cl_scenario_names_its_range_and_a_v2_one_the_staked_lp_value():
    scenario = emissions_scenario(row("cl", tick=-201, tick_spacing=100, liquidity_raw="5"), "five-spacing")
    assert scenario["range"]["tickLower"] == -500 and scenario["range"]["tickUpper"] == 0  # floor(-201/100) = -3
    assert scenario["range"]["widthSpacings"] == 5 and scenario["range"]["inRange"] is True
    assert (scenario["basis"], scenario["depositUsd"], scenario["emissionsApr"]) == ("cl-range-deposit", "100", "0.5")
    v2 = emissions_scenario(row("v2-stable"), "minimum")
    assert (v2["basis"], v2["range"], v2["depositUsd"], v2["inRangeLiquidityRaw"]) == ("v2-staked-lp", None, None, None)
