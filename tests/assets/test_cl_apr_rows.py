"""Range state in pool rows and the per-profile emissions APR in gauge rows, from subgraph-shaped
entities (the independent check against the devnet's truth is tests/orchestration/test_cl_aprs.py)."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest

from devnet.amm.cl import get_sqrt_ratio_at_tick
from ve_analytics.assets.rows.gauges import GAUGE_COLUMNS, epoch_state, gauge_rows
from ve_analytics.assets.rows.market import POOL_COLUMNS, pool_rows
from ve_analytics.core.epochs import DAY, HOUR, WEEK
from ve_analytics.core.flows import HourlySeries

T0 = int(datetime(2026, 3, 5, tzinfo=timezone.utc).timestamp())  # a Thursday: an epoch start
AT = T0 + 2 * DAY + 15 * 60
HOURS = HourlySeries([T0 + i * HOUR for i in range(48)], [10.0] * 48, [1.0] * 48)
PER_YEAR = 365 * DAY / WEEK
TOKEN = {"decimals": "18", "priceUSD": "1"}


def cl_pool(pid="0xc", liquidity="0", tick=0, price0="1", spacing=100):
    return {"id": pid, "type": "cl", "totalValueLockedUSD": "1000", "tickSpacing": spacing, "liquidity": liquidity,
            "sqrtPrice": str(get_sqrt_ratio_at_tick(tick)), "tick": tick,
            "token0": {"id": "0xa", "decimals": "18", "priceUSD": price0}, "token1": {"id": "0xb", **TOKEN}}


def rows(pools, core_price="2", emissions="7"):
    gauges = [{"id": f"0xg{p['id']}", "pool": {"id": p["id"]}, "isAlive": True, "emissionsEpoch": emissions,
               "votes": "1"} for p in pools]
    state = epoch_state(gauges, pools, {"priceUSD": core_price} if core_price else None, [], [])
    return {r["pool_address"]: r for r in gauge_rows(56, AT, state, HOURS, {})}


def test_gauge_rows_carry_every_column_of_the_table():
    (row,) = rows([cl_pool()]).values()
    assert set(row) == set(GAUGE_COLUMNS)


def test_alone_in_range_a_deposit_earns_every_emission():
    # no active liquidity: the 100 USD deposit is all the range has, whatever its width
    (row,) = rows([cl_pool(liquidity="0", tick=-150)]).values()
    full = 7 * 2 * PER_YEAR / 100
    assert row["emission_apr_minimum"] == row["emission_apr_five_spacing"] == row["emission_apr_standard"] == full
    assert (row["range_tick_lower"], row["range_tick_upper"]) == (-1200, 900)  # -150 -/+ 954 ticks, aligned outward
    assert row["emission_apr"] == pytest.approx(14 * PER_YEAR / 1000)  # the pool-average APR is unchanged


def test_narrower_ranges_earn_more_once_the_deposit_is_diluted():
    (row,) = rows([cl_pool(liquidity=str(10**24), tick=37)]).values()
    assert row["emission_apr_minimum"] > row["emission_apr_five_spacing"] > row["emission_apr_standard"] > 0


def test_v2_pools_keep_the_pool_average_under_every_profile():
    v2 = {"id": "0xv", "type": "v2-volatile", "totalValueLockedUSD": "1000", "tickSpacing": None,
          "liquidity": "31622", "sqrtPrice": "79228162514264337593543950336", "tick": None,
          "token0": {"id": "0xa", **TOKEN}, "token1": {"id": "0xb", **TOKEN}}
    row = rows([v2])["0xv"]
    assert row["emission_apr"] == pytest.approx(14 * PER_YEAR / 1000)
    assert row["emission_apr_minimum"] == row["emission_apr_five_spacing"] == row["emission_apr_standard"] == (
        row["emission_apr"])
    assert row["range_tick_lower"] is None and row["range_tick_upper"] is None


def test_unknown_inputs_give_unknown_aprs_and_no_emissions_give_zero():
    profiles = ("emission_apr_minimum", "emission_apr_five_spacing", "emission_apr_standard")
    no_price = rows([cl_pool()], core_price=None)["0xc"]
    assert all(no_price[c] is None for c in profiles) and no_price["range_tick_lower"] == -1000
    no_token_price = rows([cl_pool(price0=None)])["0xc"]
    assert all(no_token_price[c] is None for c in profiles)
    no_tick = rows([{**cl_pool(), "tick": None}])["0xc"]
    assert all(no_tick[c] is None for c in (*profiles, "range_tick_lower", "range_tick_upper"))
    no_liquidity = rows([{**cl_pool(), "liquidity": None}])["0xc"]
    assert all(no_liquidity[c] is None for c in profiles)
    zero_priced = rows([cl_pool(price0="0")])["0xc"]  # the subgraph's 0: no price source
    assert all(zero_priced[c] is None for c in profiles)
    killed = rows([cl_pool(liquidity=str(10**20))], emissions="0")["0xc"]
    assert all(killed[c] == 0.0 for c in profiles)
    unknown_pool = rows([{"id": "0xu", "totalValueLockedUSD": "1"}])["0xu"]  # no type read: unknown
    assert all(unknown_pool[c] is None for c in profiles)


def test_pool_rows_store_range_state_of_cl_pools_only():
    common = {"token0": {"id": "0xa", "symbol": "A", "decimals": "18"}, "token1": {"id": "0xb", "symbol": "B",
              "decimals": "6"}, "feeTier": "500", "reserve0": "1", "reserve1": "2", "totalValueLockedUSD": "3"}
    pools = [{"id": "0xC", "type": "cl", "tickSpacing": 50, "liquidity": "340282366920938463463374607431768211455",
              "sqrtPrice": "1461446703485210103287273052203988822378723970341", "tick": -887220, **common},
             {"id": "0xv", "type": "v2-stable", "liquidity": "5", "sqrtPrice": "7", "tick": None, **common}]
    cl, v2 = pool_rows(56, AT, pools, HOURS, {})
    assert set(cl) == set(POOL_COLUMNS)
    assert (cl["liquidity_raw"], cl["sqrt_price_x96"], cl["tick"]) == (
        2**128 - 1, 1461446703485210103287273052203988822378723970341, -887220)
    assert (v2["liquidity_raw"], v2["sqrt_price_x96"], v2["tick"]) == (None, None, None)
