"""The in-process simulation: determinism, coherent numbers, governance rules."""
from __future__ import annotations

import math
from datetime import datetime, timezone

import pytest

from devnet.timeutil import DAY, HOUR, WEEK, epoch_start
from devnet.amm.v2 import V2Pool
from devnet.clock import ManualClock
from devnet.model import ChainSim, build_chain
from devnet.sim.governance import MAXTIME, voting_power

GENESIS = 1_750_000_000 - 1_750_000_000 % 3600  # same fixed genesis as conftest.py
SHORT = 4  # days, for the builds made inside this module


def test_same_seed_same_events_and_different_seed_differs():
    a = build_chain(56, seed=11, genesis_ts=GENESIS, history_days=SHORT)
    b = build_chain(56, seed=11, genesis_ts=GENESIS, history_days=SHORT)
    c = build_chain(56, seed=12, genesis_ts=GENESIS, history_days=SHORT)
    assert a.fingerprint() == b.fingerprint()
    assert [s.id for s in a.swaps[:50]] == [s.id for s in b.swaps[:50]]
    assert a.fingerprint() != c.fingerprint()
    assert a.counts()["swaps"] > 1000


def test_lazy_generation_equals_up_front_generation():
    """Hours generated later, as the clock advances, are the same as hours generated at startup."""
    up_front = build_chain(56, seed=5, genesis_ts=GENESIS, history_days=SHORT)
    clock = ManualClock(GENESIS + 2 * DAY)
    lazy = ChainSim(56, 5, GENESIS, SHORT, clock=clock)
    lazy.generate_history()
    n_before = len(lazy.swaps)
    clock.advance(2 * DAY)
    lazy.head()  # any read catches up with the clock
    assert len(lazy.swaps) > n_before
    assert lazy.fingerprint() == up_front.fingerprint()


def test_blocks_follow_the_clock(sim):
    head = sim.head()
    assert sim.block_ts(head) <= sim.now() < sim.block_ts(head) + sim.block_time
    assert sim.block_ts(sim.genesis_block) == sim.genesis_ts
    assert sim.block_at(sim.genesis_ts + 3600) == sim.genesis_block + 3600 // sim.block_time
    assert sim.genesis_ts % HOUR == 0


def test_tvl_is_reserves_times_prices(sim):
    ts = sim.block_ts(sim.head() - 1234)
    truth = sim.state_at_block(sim.head() - 1234)
    total = []
    for p in sim.pools_at(ts):
        st = p.state_at(ts)
        tvl = (st.reserve0 / 10**p.token0.decimals * sim.price(p.token0, ts)
               + st.reserve1 / 10**p.token1.decimals * sim.price(p.token1, ts))
        assert truth["pools"][p.id]["tvlUsd"] == pytest.approx(tvl, rel=1e-12)
        total.append(tvl)
    assert truth["tvlUsd"] == pytest.approx(math.fsum(total), rel=1e-12)
    assert truth["tvlUsd"] == pytest.approx(truth["tvlV2Usd"] + truth["tvlClUsd"], rel=1e-12)


def test_swaps_are_valued_at_the_input_price_and_follow_the_amm(sim):
    checked = 0
    for s in sim.swaps[::97]:
        p = s.pool
        zero_in = s.amount0 > 0
        tok = p.token0 if zero_in else p.token1
        amount_in = s.amount0 if zero_in else s.amount1
        price = sim.price(tok, s.ts)
        assert s.amount_usd == pytest.approx(amount_in / 10**tok.decimals * price, rel=1e-12)
        assert s.fees_usd == pytest.approx(s.fee_amount / 10**tok.decimals * price, rel=1e-12)
        assert 0 < s.fee_amount < amount_in
        assert (s.amount1 < 0) if zero_in else (s.amount0 < 0)
        checked += 1
    assert checked > 20


def test_stable_pool_invariant_never_decreases_along_its_swaps(sim):
    """Fees leave the pool and outputs round down, so k is non-decreasing across every swap."""
    pool = next(p for p in sim.pools if p.kind == "v2-stable")
    amm = V2Pool(True, pool.token0.decimals, pool.token1.decimals, 0)
    swap_ts = {s.ts for s in sim.swaps if s.pool is pool}
    ks = [amm.k(st[0], st[1]) for st in pool.ev_state]
    checked = 0
    for k_prev, k_next, ts, usd in zip(ks, ks[1:], pool.ev_ts[1:], pool.ev_usd[1:]):
        if usd > 0 and ts in swap_ts:
            assert k_next >= k_prev
            checked += 1
    assert checked > 100


def test_pool_prices_track_token_prices(sim):
    ts = sim.block_ts(sim.head())
    for p in sim.pools_at(ts):
        st = p.state_at(ts)
        market = sim.price(p.token0, ts) / sim.price(p.token1, ts)
        assert abs(math.log(p.price1_per_0(st) / market)) < 0.05, p.spec.label


def test_epochs_are_thursday_aligned(sim):
    gov = sim.gov
    assert gov.votes and gov.bribes and gov.claims
    for row in gov.votes + gov.bribes:
        assert row["epoch"] == epoch_start(row["timestamp"])
        assert row["epoch"] % WEEK == 0
        assert datetime.fromtimestamp(row["epoch"], tz=timezone.utc).weekday() == 3
    for row in gov.claims:
        assert row["epoch"] % WEEK == 0 and row["epoch"] < epoch_start(row["timestamp"])


def test_ve_voting_power_decays_linearly(sim):
    gov = sim.gov
    now = sim.block_ts(sim.head())
    decaying = [lk for lk in gov.locks if not lk.current[2] and lk.current[1] > now and lk.current[0] > 0]
    permanent = [lk for lk in gov.locks if lk.current[2]]
    assert len(decaying) > 20 and permanent
    for lk in decaying[:40]:
        amount, end, _perm, _owner = lk.state_at(now)
        assert end % WEEK == 0 and end - lk.hist_ts[-1] <= MAXTIME  # set at the last update
        power = gov.balance_of_nft(lk.token_id, now)
        assert power == amount * (end - now) // MAXTIME
        # linear: equal decay over equal time, zero at the unlock time
        p1, p2 = (voting_power(amount, end, False, now + k * DAY) for k in (1, 2))
        assert abs((power - p1) - (p1 - p2)) <= 1
        assert power - p1 == pytest.approx(amount * DAY / MAXTIME, abs=1)
        assert voting_power(amount, end, False, end) == 0
    for lk in permanent[:10]:
        assert gov.balance_of_nft(lk.token_id, now) == lk.state_at(now)[0] > 0
    supply, power, perm = gov.ve_totals(now)
    assert perm <= power <= supply
    assert power == sum(gov.balance_of_nft(lk.token_id, now) for lk in gov.locks)
    assert supply == sum(lk.state_at(now)[0] for lk in gov.locks)


def test_emissions_decay_one_percent_per_epoch(sim):
    weekly = sim.gov.weekly
    epochs = sorted(weekly)
    assert len(epochs) >= 2
    for a, b in zip(epochs, epochs[1:]):
        assert b == a + WEEK
        assert weekly[b] == weekly[a] * 9900 // 10000
    # the split over gauges never exceeds the epoch's emissions
    for e, split in sim.gov.gauge_emissions.items():
        assert 0 < sum(split.values()) <= weekly[e]


def test_gauge_kill_and_late_pools(sim):
    killed = [g for g in sim.gov.gauges if g.killed_ts is not None]
    assert killed
    g = killed[0]
    assert g.alive_at(g.killed_ts - 1) and not g.alive_at(g.killed_ts)
    before = sim.state_at_block(sim.block_at(g.killed_ts - 1))["activeGaugeCount"]
    after = sim.state_at_block(sim.block_at(g.killed_ts))["activeGaugeCount"]
    assert after == before - 1
    late = [p for p in sim.pools if p.created_ts > sim.genesis_ts]
    assert late
    p = late[0]
    assert p.state_at(p.created_ts - 1) is None and p.state_at(p.created_ts) is not None
    assert all(s.ts >= p.created_ts for s in sim.swaps if s.pool is p)


def test_hour_rows_sum_to_the_flows(sim):
    head_ts = sim.block_ts(sim.head())
    start = sim.genesis_ts + DAY
    end = start + 2 * DAY
    truth = sim.flows(start, end)
    rows = [r for r in sim.hour_rows if start <= r["periodStartUnix"] < end]
    assert truth["volumeUsd"] == pytest.approx(math.fsum(r["volumeUSD"] for r in rows), rel=1e-12)
    assert truth["feesUsd"] == pytest.approx(math.fsum(r["feesUSD"] for r in rows), rel=1e-12)
    assert truth["txCount"] == sum(r["txCount"] for r in rows)
    assert truth["swapCount"] == len([s for s in sim.swaps if start <= s.ts < end]) > 0
    assert end < head_ts


def test_foundation_bribes_votes_and_claims(sim):
    gov = sim.gov
    wallet = sim.foundation_wallet.lower()
    fb = [b for b in gov.bribes if b["isFoundation"]]
    assert fb and all(b["from"] == wallet for b in fb)
    assert all(not b["isFoundation"] for b in gov.bribes if b["from"] != wallet)
    epochs = {b["epoch"] for b in gov.bribes}
    for e in epochs:
        voters = {v["veNFT"] for v in gov.votes if v["epoch"] == e}
        assert {str(t) for t in gov.foundation_ids} <= voters
    # claims never exceed what was deposited (bribes) per epoch, pool and token
    deposited: dict = {}
    for b in gov.bribes:
        key = (b["epoch"], b["pool"], b["token"])
        deposited[key] = deposited.get(key, 0) + b["amount"]
    claimed: dict = {}
    for c in gov.claims:
        if c["kind"] == "bribe":
            key = (c["epoch"], c["pool"], c["token"])
            claimed[key] = claimed.get(key, 0) + c["amount"]
    assert claimed
    for key, amount in claimed.items():
        assert amount <= deposited[key]


def test_dynamic_fees_move_within_their_bounds(sim):
    dyn = [p for p in sim.pools if p.is_dynamic]
    assert dyn
    for p in dyn:
        base, cap, _scaling = p.spec.dynamic_fee
        assert all(base <= f <= cap for f in p.fee_val)
        assert len(set(p.fee_val)) > 1
    custom = [p for p in sim.pools if p.is_custom]
    assert custom and all(p.fee_at(sim.block_ts(sim.head())) == p.spec.custom_fee for p in custom)


def test_clock_advance_adds_data():
    clock = ManualClock(GENESIS + 2 * DAY)
    s = ChainSim(56, 9, GENESIS, 2, clock=clock)
    s.generate_history()
    head0, n0 = s.head(), len(s.swaps_between(0, 2**40))
    clock.advance(3 * HOUR)
    assert s.head() == head0 + 3 * HOUR // s.block_time
    later = s.swaps_between(s.block_ts(head0) + 1, 2**40)
    assert later and len(s.swaps_between(0, 2**40)) == n0 + len(later)
    # nothing after the head is visible, although the current hour is generated ahead
    assert all(x.ts <= s.block_ts(s.head()) for x in s.swaps_between(0, 2**40))


def test_determinism_holds_across_processes():
    """No dependence on hash randomisation or process state: a fresh interpreter agrees."""
    import os
    import subprocess
    import sys

    code = ("from devnet.model import build_chain; "
            f"print(build_chain(56, seed=21, genesis_ts={GENESIS}, history_days=2).fingerprint())")
    here = build_chain(56, seed=21, genesis_ts=GENESIS, history_days=2).fingerprint()
    for hash_seed in ("1", "2"):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                             env=dict(os.environ, PYTHONHASHSEED=hash_seed)).stdout.strip()
        assert out == here
