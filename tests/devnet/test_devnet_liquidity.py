"""Liquidity providers (devnet/sim/liquidity.py): their positions follow the pools' own math,
what they earn equals a per-swap and per-hour recount from the market's and governance's own
records, staking follows the gauges, and the truth route serves it."""
from __future__ import annotations

import hashlib
import math
from collections import Counter

import httpx
import pytest
from eth_abi import decode, encode
from eth_utils import keccak

from devnet.clock import ManualClock
from devnet.deployments import lp_sugar_address
from devnet.rpc.liquidity import POSITION
from devnet.model import ChainSim, build_chain
from devnet.sim.liquidity import CL_FIRST_TOKEN_ID
from devnet.sim.vaults import position_amounts
from devnet.timeutil import DAY, HOUR

GENESIS = 1_750_000_000 - 1_750_000_000 % 3600  # as conftest.py


def digest(sim) -> str:
    h = hashlib.sha256()
    for e in sim.liquidity.events:
        h.update(repr(sorted(e.items())).encode())
    for pos in sim.liquidity.positions.values():
        h.update(repr((pos.key, pos.ev_ts, pos.ev_state)).encode())
    return h.hexdigest()


def test_generated_later_equals_generated_up_front_and_leaves_the_other_streams_alone():
    up_front = build_chain(56, seed=5, genesis_ts=GENESIS, history_days=4)
    clock = ManualClock(GENESIS + 2 * DAY)
    lazy = ChainSim(56, 5, GENESIS, 4, clock=clock)
    lazy.generate_history()
    clock.advance(2 * DAY)
    lazy.head()
    assert digest(lazy) == digest(up_front)
    assert len(up_front.liquidity.events) > 50


def test_every_action_happens_and_providers_include_voters(sim):
    kinds = Counter(e["kind"] for e in sim.liquidity.events)
    assert set(kinds) == {"v2Add", "v2Remove", "v2Stake", "v2Unstake", "clMint", "clStake", "clUnstake",
                          "clCollect", "clBurn", "claim"}, kinds
    voters = set(sim.gov.voters)
    assert {e["owner"] for e in sim.liquidity.events} & voters
    ids = [e["tokenId"] for e in sim.liquidity.events if e["kind"] == "clMint"]
    assert len(ids) == len(set(ids)) and min(ids) == CL_FIRST_TOKEN_ID


def test_staking_happens_only_into_alive_gauges(sim):
    for e in sim.liquidity.events:
        if e["kind"] in ("v2Stake", "clStake") or (e["kind"] == "clMint" and e["staked"]):
            gauge = sim.pool_by_id[e["pool"]].gauge
            assert gauge is not None and gauge.alive_at(e["timestamp"]), e


def test_amounts_follow_the_pool_state(sim):
    ts = sim.block_ts(sim.head())
    seen = Counter()
    for owner in sim.liquidity.providers:
        for v in sim.liquidity.positions_of(owner, ts):
            st = sim.pool_by_id[v["pool"]].state_at(ts)
            if v["kind"] == "v2":
                supply = math.isqrt(st.reserve0 * st.reserve1)
                assert (v["amount0"], v["amount1"]) == (v["wallet"] * st.reserve0 // supply, v["wallet"] * st.reserve1 // supply)
                assert v["wallet"] + v["stakedLp"] > 0
            else:
                assert (v["amount0"], v["amount1"]) == position_amounts(st.sqrt_price, st.tick, v["tickLower"],
                                                                       v["tickUpper"], v["liquidity"], False)
                assert v["inRange"] == (v["tickLower"] <= st.tick < v["tickUpper"])
            seen[v["kind"], v.get("staked", v.get("stakedLp", 0) > 0)] += 1
    assert all(seen[k] > 0 for k in (("v2", True), ("v2", False), ("cl", True), ("cl", False))), seen


def recount_fees(sim, pos, a: int, b: int) -> tuple[float, float]:
    """A position's trading fees over (a, b] at its state then, swap by swap from the market's own
    records: the pool's swaps and its state just before each one."""
    _t, (amount, staked, lower, upper, *_r) = pos.state_at(a)
    fee_amount = amount if pos.kind == "v2" else (0 if staked else amount)
    pool, f0, f1 = pos.pool, 0.0, 0.0
    swaps = [s for s in sim.swaps if s.pool is pool and a < s.ts <= b]
    states = [k for k, t in enumerate(pool.ev_ts) if a < t <= b and pool.ev_usd[k] > 0]
    assert len(swaps) == len(states)
    for s, k in zip(swaps, states):
        r0, r1, _sqrt, liq, tick = pool.ev_state[k - 1][:5]
        if pos.kind == "cl":
            share = fee_amount / (liq + fee_amount) if lower <= tick < upper else 0.0
        else:
            share = fee_amount / math.isqrt(r0 * r1)
        if s.amount0 > 0:
            f0 += s.fee_amount * share
        else:
            f1 += s.fee_amount * share
    return f0, f1


def recount_emissions(sim, pos, a: int, b: int) -> float:
    """Emissions over (a, b]: the gauge's rate, the seconds of each hour and the share at its start."""
    _t, (amount, staked, lower, upper, *_r) = pos.state_at(a)
    stake = staked if pos.kind == "v2" else (amount if staked else 0)
    total, h = 0.0, a - a % HOUR
    while h < b:
        st = pos.pool.state_at(h)
        rate = sim.gov.gauge_reward_rate(pos.pool.gauge, h)
        if pos.kind == "cl":
            share = stake / st.liquidity if lower <= st.tick < upper and st.liquidity else 0.0
        else:
            share = stake / math.isqrt(st.reserve0 * st.reserve1)
        total += rate * (min(b, h + HOUR) - max(a, h)) * min(share, 1.0)
        h += HOUR
    return total


def test_what_each_change_pays_is_what_was_earned_since_the_last(sim):
    """A collect, removal, stake or burn pays the trading fees earned since the position's last
    change; an unstake or claim the emissions: recounted from the swaps and the gauges' rates."""
    checked = Counter()
    for e in sim.liquidity.events:
        pos = sim.liquidity.positions[e["position"]]
        i = pos.ev_ts.index(e["timestamp"])
        if i == 0:
            continue
        a, b = pos.ev_ts[i - 1], e["timestamp"]
        before = pos.ev_state[i - 1]
        if e.get("fees0") is not None:
            f0, f1 = recount_fees(sim, pos, a, b)
            assert e["fees0"] == pytest.approx(before[4] - before[6] + f0, rel=1e-9, abs=2)
            assert e["fees1"] == pytest.approx(before[5] - before[7] + f1, rel=1e-9, abs=2)
            checked["fees", e["fees0"] + e["fees1"] > 0] += 1
        if e.get("emissions") is not None:
            em = recount_emissions(sim, pos, a, b)
            assert e["emissions"] == pytest.approx(before[8] - before[9] + em, rel=1e-9, abs=2)
            checked["emissions", e["emissions"] > 0] += 1
    assert checked["fees", True] > 10 and checked["emissions", True] > 10, checked


def test_no_gauge_pays_its_stakers_more_than_it_emits(sim):
    ts = sim.block_ts(sim.head())
    paid: Counter = Counter()
    for e in sim.liquidity.events:
        if e.get("emissions"):
            paid[e["pool"]] += e["emissions"]
    for owner in sim.liquidity.providers:
        for v in sim.liquidity.positions_of(owner, ts):
            paid[v["pool"]] += v["emissions"]
    for pool_id, amount in paid.items():
        gauge = sim.pool_by_id[pool_id].gauge
        emitted = sum(sim.gov.gauge_reward_rate(gauge, h) * HOUR for h in range(GENESIS, ts, HOUR))
        assert amount <= emitted, pool_id


def test_the_truth_route_serves_an_accounts_positions_and_events(devnet_server, sim):
    head = sim.head()
    owner = max(sim.liquidity.providers, key=lambda o: len(sim.liquidity.positions_of(o, sim.block_ts(head))))
    with httpx.Client(base_url=devnet_server.url, timeout=60) as http:
        got = http.get("/chains/56/truth/account-liquidity", params={"owner": owner, "block": head}).json()
        assert got["owner"] == owner and got["block"] == head
        views = sim.liquidity.positions_of(owner, sim.block_ts(head))
        assert [(p["kind"], p["tokenId"], p["pool"].lower()) for p in got["positions"]] == \
            [(v["kind"], v["tokenId"], v["pool"]) for v in views]
        for p, v in zip(got["positions"], views):
            assert int(p["amount0"]) == v["amount0"] and int(p["emissions"]) == v["emissions"]
            assert p["valueUsd"] + p.get("stakedValueUsd", 0.0) > 0
        assert [e["id"] for e in got["events"]] == [e["id"] for e in sim.liquidity.events_of(owner, sim.block_ts(head))]
        nobody = http.get("/chains/56/truth/account-liquidity", params={"owner": "0x" + "0" * 40}).json()
        assert nobody["positions"] == [] and nobody["events"] == []
        assert http.get("/chains/56/truth/account-liquidity", params={"owner": "nope"}).status_code == 400
        assert http.get("/chains/56/truth/account-liquidity",
                        params={"owner": owner, "block": head + 10**6}).status_code == 400


def sugar_positions(http, owner: str, block: int, limit: int = 100, offset: int = 0) -> list[tuple]:
    data = keccak(text="positions(uint256,uint256,address)")[:4] + encode(["uint256", "uint256", "address"],
                                                                        [limit, offset, owner])
    got = http.post("/chains/56/rpc", json={"jsonrpc": "2.0", "id": 1, "method": "eth_call",
                                           "params": [{"to": lp_sugar_address(56), "data": "0x" + data.hex()}, hex(block)]}).json()
    (rows,) = decode([POSITION], bytes.fromhex(got["result"][2:]))
    return list(rows)


def test_the_sugar_contract_and_the_subgraph_answer_the_truth(devnet_server, sim):
    """LpSugar.positions (Sugar's struct: unstaked and staked amounts apart, fees, emissions) and the
    subgraph's LiquidityPosition and LiquidityEvent rows, at a past block and the head."""
    book = httpx.get(devnet_server.url + "/book").json()["chains"][0]
    assert book["contracts"]["lpSugar"] == lp_sugar_address(56)
    head = sim.head()
    with httpx.Client(base_url=devnet_server.url, timeout=60) as http:
        for block in (head - 2 * 86400 // sim.block_time, head):
            ts = sim.block_ts(block)
            owner = max(sim.liquidity.providers, key=lambda o: len(sim.liquidity.positions_of(o, ts)))
            truth = http.get("/chains/56/truth/account-liquidity", params={"owner": owner, "block": block}).json()
            rows = sugar_positions(http, owner, block)
            assert len(rows) == len(truth["positions"]) > 3
            assert sugar_positions(http, owner, block, 2, 1) == rows[1:3]
            for row, t in zip(rows, truth["positions"]):
                (pid, lp, liq, staked, a0, a1, s0, s1, e0, e1, em, lo, hi, _sa, _sb, alm) = row
                assert lp.lower() == t["pool"].lower() and alm == "0x" + "0" * 40
                assert (e0, e1, em) == (int(t["fees0"]), int(t["fees1"]), int(t["emissions"]))
                if t["kind"] == "cl":
                    assert (pid, liq, bool(staked), lo, hi) == (t["tokenId"], int(t["liquidity"]), t["staked"],
                                                                t["tickLower"], t["tickUpper"])
                    assert (a0 + s0, a1 + s1) == (int(t["amount0"]), int(t["amount1"]))
                    assert (a0 + a1 == 0) if t["staked"] else (s0 + s1 == 0)
                else:
                    assert (pid, liq, staked) == (0, int(t["lp"]), int(t["stakedLp"]))
                    assert (a0, a1, s0, s1) == (int(t["amount0"]), int(t["amount1"]), int(t["staked0"]), int(t["staked1"]))
            q = """query($o: String!, $b: Int!) {
                ps: liquidityPositions(first: 1000, where: {owner: $o}, block: {number: $b}) { id kind tokenId liquidity staked pool { id } }
                es: liquidityEvents(first: 1000, where: {owner: $o}, orderBy: timestamp, block: {number: $b}) { id kind fees0 emissions }
            }"""
            got = http.post("/chains/56/subgraph", json={"query": q, "variables": {"o": owner, "b": block}}).json()["data"]
            assert sorted((p["tokenId"] or "", p["pool"]["id"]) for p in got["ps"]) == \
                sorted((str(t["tokenId"] or ""), t["pool"].lower()) for t in truth["positions"])
            assert sorted(e["id"] for e in got["es"]) == sorted(e["id"] for e in truth["events"])
