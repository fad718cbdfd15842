"""CL range state and per-profile emissions APRs of the session's published chain-56 snapshots,
checked against the devnet model at each snapshot block (devnet.sim, devnet.amm.cl), computed
here from the model's own state rather than through ve_analytics.core.cl_ranges."""
from __future__ import annotations

from devnet.amm.cl import get_amount0_delta, get_amount1_delta, get_sqrt_ratio_at_tick
from devnet.timeutil import epoch_start

from cl_truth import ranges

REL = 1e-9
UNIT = 10**30  # a liquidity large enough that the pool's integer rounding is negligible


def close(a: float, b: float) -> bool:
    return abs(a - b) <= REL * max(abs(a), abs(b), 1e-300)


def published(stack) -> list[tuple[int, int]]:
    return stack.query("SELECT toInt64(toUnixTimestamp(snapshot_at)), block_number FROM snapshot_runs FINAL "
                       "WHERE chain_id = 56 AND status = 'success' ORDER BY snapshot_at")


def expected_apr(sim, pool, state, ts: int, emissions_raw: int, lower: int, upper: int) -> float:
    """A 100 USD deposit's emissions per year over 100, diluted by the pool's active liquidity."""
    sp, sa, sb = state.sqrt_price, get_sqrt_ratio_at_tick(lower), get_sqrt_ratio_at_tick(upper)
    a0 = get_amount0_delta(sp, sb, UNIT, False)
    a1 = get_amount1_delta(sa, sp, UNIT, False)
    usd = a0 / pool.token0.unit * sim.price(pool.token0, ts) + a1 / pool.token1.unit * sim.price(pool.token1, ts)
    deposit = 100 * UNIT / usd
    per_year = emissions_raw / 1e18 * sim.price(sim.core, ts) * 365 / 7
    return per_year * deposit / (state.liquidity + deposit) / 100


def test_cl_range_state_equals_the_model_at_every_snapshot_block(stack):
    sim = stack.devnet.sim(56)
    snapshots = published(stack)
    assert len(snapshots) >= 2  # the older ones were read at historical blocks, below the subgraph's head
    for at, block in snapshots:
        ts = sim.block_ts(block)
        rows = {r[0]: r[1:] for r in stack.query(
            "SELECT pool_address, pool_type, toString(liquidity_raw), toString(sqrt_price_x96), tick FROM pool_snap15m "
            "FINAL WHERE chain_id = 56 AND snapshot_at = toDateTime64({t:Int64}, 3, 'UTC')", t=at)}
        pools = sim.pools_at(ts)
        assert set(rows) == {p.id for p in pools} and any(p.is_cl for p in pools)
        for p in pools:
            kind, liquidity, sqrt_price, tick = rows[p.id]
            if p.is_cl:
                st = p.state_at(ts)
                assert (int(liquidity), int(sqrt_price), tick) == (st.liquidity, st.sqrt_price, st.tick), (at, p.id)
            else:
                assert kind != "cl" and (liquidity, sqrt_price, tick) == (None, None, None)


def test_profile_aprs_equal_a_deposit_diluted_in_the_models_pool(stack):
    sim = stack.devnet.sim(56)
    at, block = published(stack)[-1]
    ts = sim.block_ts(block)
    rows = {r[0]: r[1:] for r in stack.query(
        "SELECT pool_address, emission_apr, emission_apr_minimum, emission_apr_five_spacing, emission_apr_standard, "
        "range_tick_lower, range_tick_upper FROM gauge_snap15m FINAL "
        "WHERE chain_id = 56 AND snapshot_at = toDateTime64({t:Int64}, 3, 'UTC')", t=at)}
    with_emissions = 0
    for p in sim.pools_at(ts):
        g = p.gauge
        if g is None or not g.exists_at(ts):
            continue
        average, minimum, five, standard, lower, upper = rows[p.id]
        if not p.is_cl:  # staked LP value: the pool average under every profile
            assert minimum == five == standard == average and lower is None and upper is None
            continue
        emitted = sim.gov.gauge_emissions.get(epoch_start(ts), {}).get(p.id, 0) if g.alive_at(ts) else 0
        st = p.state_at(ts)
        expected = {name: expected_apr(sim, p, st, ts, emitted, *bounds)
                    for name, bounds in ranges(st.tick, p.tick_spacing).items()}
        assert (lower, upper) == ranges(st.tick, p.tick_spacing)["standard"]
        for name, got in zip(("minimum", "five-spacing", "standard"), (minimum, five, standard)):
            assert close(got, expected[name]), (p.id, name, got, expected[name])
        if emitted > 0:
            with_emissions += 1
            assert minimum > five > standard > 0
    assert with_emissions > 0
