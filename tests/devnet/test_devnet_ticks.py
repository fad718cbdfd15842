"""Concentrated-liquidity tick tables: side positions minted and burnt over time (far above the
price, on the lowest ticks), the per-snapshot table `PoolSim.ticks_at`, the tick lens contract
(directly and through Multicall3) and the `truth/ticks` route."""
from __future__ import annotations

import httpx
import pytest
from eth_abi import decode, encode
from eth_abi.exceptions import ValueOutOfBounds
from eth_utils import keccak
from web3 import Web3
from web3.exceptions import ContractLogicError

from devnet.amm.cl import MIN_TICK, max_liquidity_per_tick
from devnet.deployments import DEPLOYMENTS, MULTICALL3
from devnet.model import build_chain
from devnet.rpc.abi import _types_encoder, encode as devnet_encode
from devnet.timeutil import DAY, HOUR

GENESIS = 1_750_000_000 - 1_750_000_000 % 3600  # same fixed genesis and seed as conftest.py
SEED = 56

LENS = "getPopulatedTicks(address,int24,uint256)"
LENS_OUT = "(int24,int128,uint128)[]"
AGGREGATE3 = "aggregate3((address,bool,bytes)[])"
SNAPSHOT = 15 * 60
# history per chain for the side-position scan; chain 56 uses the shared 9-day session build
SCAN_DAYS = {4663: 5, 8453: 10, 5042: 10}


def sel(signature: str) -> bytes:
    return keccak(text=signature)[:4]


def lens_data(pool: str, start: int = MIN_TICK, count: int = 1000) -> bytes:
    return sel(LENS) + encode(["address", "int24", "uint256"], [pool, start, count])


@pytest.fixture(scope="module")
def chains(sim):
    out = {56: sim}
    for cid, days in SCAN_DAYS.items():
        out[cid] = build_chain(cid, SEED, genesis_ts=GENESIS, history_days=days)
    return out


@pytest.fixture(scope="module")
def w3(devnet_server):
    return Web3(Web3.HTTPProvider(devnet_server.rpc_url(56), request_kwargs={"timeout": 30}))


def cl_pools(sim):
    return [p for p in sim.pools if p.is_cl]


def snapshots(sim, pool):
    """(ts, tick, tick set) every 15 minutes from the pool's creation to the head."""
    end = sim.block_ts(sim.head())
    ts = pool.created_ts - pool.created_ts % SNAPSHOT + SNAPSHOT
    while ts <= end:
        yield ts, pool.state_at(ts).tick, {t for t, _, _ in pool.ticks_at(ts)}
        ts += SNAPSHOT


def side_changes(sim, pool):
    """Counts over consecutive 15-minute snapshots: how many differ, how many add and how many
    remove a tick more than 200 spacings from the price (a side position: the narrow layouts
    reach 80 spacings; the full range's two ticks never change)."""
    far = 200 * pool.tick_spacing
    differ = added = removed = 0
    prev = None
    for _ts, tick, ticks in snapshots(sim, pool):
        if prev is not None and ticks != prev:
            differ += 1
            added += any(abs(t - tick) > far for t in ticks - prev)
            removed += any(abs(t - tick) > far for t in prev - ticks)
        prev = ticks
    return differ, added, removed


def check_table(pool, ts):
    """The invariants of a tick table against the pool's recorded state at ts."""
    ticks = pool.ticks_at(ts)
    st = pool.state_at(ts)
    assert ticks == tuple(sorted(ticks)) and len({t for t, _, _ in ticks}) == len(ticks)
    assert sum(net for _, net, _ in ticks) == 0
    running, active = 0, 0
    for t, net, gross in ticks:
        assert t % pool.tick_spacing == 0 and gross > 0 and abs(net) <= gross
        assert gross <= max_liquidity_per_tick(pool.tick_spacing)
        running += net
        assert running >= 0
        if t <= st.tick:
            active = running
    assert active == st.liquidity
    return ticks


# -- (a) side positions ---------------------------------------------------------------------------
@pytest.mark.parametrize("cid", (56, 4663, 8453, 5042))
def test_side_positions_change_the_tick_sets_between_snapshots(chains, cid):
    sim = chains[cid]
    found = {}
    for pool in cl_pools(sim):
        differ, added, removed = side_changes(sim, pool)
        found[pool.spec.label] = (differ, added, removed)
    assert any(d >= 3 and a >= 1 and r >= 1 for d, a, r in found.values()), found
    # the side positions are tagged apart from the layout and never re-centred
    for pool in cl_pools(sim):
        assert all(p[3] in (-2, -1) or p[3] >= 0 for p in pool.positions)
        assert sum(1 for p in pool.positions if p[3] == -2) <= 1


def test_a_spacing_1_pool_has_a_side_position_on_the_lowest_tick(chains):
    hits = []
    for cid, sim in chains.items():
        for pool in cl_pools(sim):
            if pool.tick_spacing != 1:
                continue
            for ts, _tick, ticks in snapshots(sim, pool):
                # -887272 is the full range's lower tick too; -887262 is the side position's upper
                if MIN_TICK in ticks and MIN_TICK + 10 in ticks:
                    hits.append((cid, pool.spec.label, ts))
                    break
    assert hits
    cid, label, ts = hits[0]
    pool = chains[cid].pool(label)
    table = {t: (net, gross) for t, net, gross in pool.ticks_at(ts)}
    full_range = next(p for p in pool.positions if p[3] == -1)[2]
    assert table[MIN_TICK][1] > full_range  # the full range and the side position share the tick
    assert table[MIN_TICK + 10] == (-(table[MIN_TICK][1] - full_range), table[MIN_TICK][1] - full_range)


def test_ticks_at_is_the_rebuilt_amm_table_and_cached(sim):
    pool = next(p for p in cl_pools(sim) if p.created_ts > sim.genesis_ts)
    assert pool.ticks_at(pool.created_ts - 1) == ()
    assert next(p for p in sim.pools if not p.is_cl).ticks_at(sim.block_ts(sim.head())) == ()
    head_ts = sim.block_ts(sim.head())
    for p in cl_pools(sim):
        for ts in (p.created_ts, (p.created_ts + head_ts) // 2, head_ts):
            amm = p.amm_at(ts)
            expected = tuple((t, amm.ticks[t][1], amm.ticks[t][0]) for t in amm.init_ticks)
            assert p.ticks_at(ts) == expected
            assert p.ticks_at(ts) is p.ticks_at(ts)  # one cached tuple per position snapshot


# -- (b) invariants -------------------------------------------------------------------------------
def test_tick_table_invariants_at_several_blocks(chains, w3, sim):
    for s in chains.values():
        head = s.head()
        for block in (head, head - 7 * HOUR // s.block_time - 11, head - 2 * DAY // s.block_time - 3):
            ts = s.block_ts(block)
            for pool in cl_pools(s):
                if pool.exists_at(ts):
                    check_table(pool, ts)
    # and against what the node answers for liquidity() and slot0()
    head = sim.head()
    for block in (head, head - 5000):
        ts = sim.block_ts(block)
        for pool in cl_pools(sim):
            if not pool.exists_at(ts):
                continue
            ticks = check_table(pool, ts)
            liq = decode(["uint128"], w3.eth.call({"to": pool.address, "data": "0x" + sel("liquidity()").hex()},
                                                  block))[0]
            slot0 = w3.eth.call({"to": pool.address, "data": "0x" + sel("slot0()").hex()}, block)
            tick = decode(["uint160", "int24", "uint16", "uint16", "uint16", "bool"], slot0)[1]
            assert liq == sum(net for t, net, _ in ticks if t <= tick)


# -- (c) the lens ---------------------------------------------------------------------------------
def test_lens_abi_encoding_of_signed_tuples_matches_eth_abi():
    rows = [(MIN_TICK, 2**127 - 1, 2**128 - 1), (-1, -(2**127), 5), (0, 0, 1), (887272, -7, 7)]
    fast = _types_encoder((LENS_OUT,))
    assert fast is not None  # the devnet's own encoder, not eth_abi's fallback
    for value in ([], rows, rows[1:2], tuple(rows)):
        data = devnet_encode([LENS_OUT], [value])
        assert fast([value]) == data == encode([LENS_OUT], [list(value)])
        assert decode([LENS_OUT], data) == (tuple(value),)
    # out of range values are eth_abi's to reject, as from any contract
    for bad, bits in (([(MIN_TICK - 2**23, 0, 1)], 24), ([(0, 2**127, 1)], 128), ([(0, 0, -1)], 128)):
        with pytest.raises(ValueOutOfBounds, match=f"Cannot be encoded in {bits} bits"):
            devnet_encode([LENS_OUT], [bad])


def test_lens_answers_ticks_at_the_block(w3, sim):
    lens = DEPLOYMENTS[56].contracts["tickLens"]
    head = sim.head()
    for block in (head, head - 3 * DAY // sim.block_time, head - 8 * DAY // sim.block_time):
        ts = sim.block_ts(block)
        for pool in cl_pools(sim):
            if not pool.exists_at(ts):
                continue
            out = w3.eth.call({"to": lens, "data": "0x" + lens_data(pool.address).hex()}, block)
            assert decode([LENS_OUT], out)[0] == pool.ticks_at(ts)


def test_lens_paging(w3, sim):
    lens = DEPLOYMENTS[56].contracts["tickLens"]
    head = sim.head()
    ts = sim.block_ts(head)
    pool = max(cl_pools(sim), key=lambda p: len(p.ticks_at(ts)))
    full = pool.ticks_at(ts)
    assert len(full) > 6

    def page(start, count):
        out = w3.eth.call({"to": lens, "data": "0x" + lens_data(pool.address, start, count).hex()}, head)
        return decode([LENS_OUT], out)[0]

    got, start = [], MIN_TICK
    while True:
        rows = page(start, 3)
        got += rows
        if len(rows) < 3:
            break
        start = rows[-1][0] + 1
    assert tuple(got) == full
    mid = full[len(full) // 2][0]
    assert page(mid, 2) == full[len(full) // 2: len(full) // 2 + 2]  # startTick itself included
    assert page(mid + 1, 1000) == full[len(full) // 2 + 1:]
    assert page(mid, 0) == () and page(full[-1][0] + 1, 5) == ()
    assert page(MIN_TICK, 2**256 - 1) == full


def test_lens_reverts_for_non_cl_pools_and_before_creation(w3, sim):
    lens = DEPLOYMENTS[56].contracts["tickLens"]
    v2 = next(p for p in sim.pools if not p.is_cl)
    late = next(p for p in cl_pools(sim) if p.created_ts > sim.genesis_ts)
    for address in (v2.address, DEPLOYMENTS[56].contracts["voter"], "0x" + "12" * 20):
        with pytest.raises(ContractLogicError):
            w3.eth.call({"to": lens, "data": "0x" + lens_data(Web3.to_checksum_address(address)).hex()})
    with pytest.raises(ContractLogicError):
        w3.eth.call({"to": lens, "data": "0x" + lens_data(late.address).hex()}, late.created_block - 1)
    out = w3.eth.call({"to": lens, "data": "0x" + lens_data(late.address).hex()}, late.created_block)
    assert decode([LENS_OUT], out)[0] == late.ticks_at(late.created_ts) != ()


def test_lens_through_multicall3_aggregate3(w3, sim):
    lens = DEPLOYMENTS[56].contracts["tickLens"]
    head = sim.head()
    v2 = next(p for p in sim.pools if not p.is_cl)
    for block in (head, head - DAY // sim.block_time):
        ts = sim.block_ts(block)
        pools = [p for p in cl_pools(sim) if p.exists_at(ts)]
        calls = []
        for p in pools:
            calls += [(lens, False, lens_data(p.address)), (p.address, False, sel("slot0()")),
                      (p.address, False, sel("liquidity()"))]
        calls.append((lens, True, lens_data(v2.address)))
        data = sel(AGGREGATE3) + encode(["(address,bool,bytes)[]"], [calls])
        out = decode(["(bool,bytes)[]"], w3.eth.call({"to": MULTICALL3, "data": "0x" + data.hex()}, block))[0]
        assert len(out) == 3 * len(pools) + 1
        assert out[-1][0] is False  # the v2 pool: allowFailure
        for i, p in enumerate(pools):
            (ok_t, ticks), (ok_s, slot0), (ok_l, liq) = out[3 * i: 3 * i + 3]
            assert ok_t and ok_s and ok_l
            assert decode([LENS_OUT], ticks)[0] == p.ticks_at(ts)
            st = p.state_at(ts)
            assert decode(["uint160", "int24", "uint16", "uint16", "uint16", "bool"], slot0)[:2] == (st.sqrt_price,
                                                                                                      st.tick)
            assert decode(["uint128"], liq)[0] == st.liquidity
    with pytest.raises(ContractLogicError):  # a failing lens call without allowFailure fails the batch
        data = sel(AGGREGATE3) + encode(["(address,bool,bytes)[]"], [[(lens, False, lens_data(v2.address))]])
        w3.eth.call({"to": MULTICALL3, "data": "0x" + data.hex()})


# -- (d) the truth route --------------------------------------------------------------------------
def test_truth_ticks_route(devnet_server, sim):
    head = sim.head()
    pool = max(cl_pools(sim), key=lambda p: len(p.ticks_at(sim.block_ts(head))))
    late = next(p for p in cl_pools(sim) if p.created_ts > sim.genesis_ts)
    with httpx.Client(base_url=devnet_server.url, timeout=30) as c:
        for params, block in (({"pool": pool.address}, head), ({"pool": pool.id.upper().replace("0X", "0x"),
                                                                 "block": head - 4000}, head - 4000)):
            r = c.get("/chains/56/truth/ticks", params=params)
            assert r.status_code == 200
            body = r.json()
            ts = sim.block_ts(block)
            st = pool.state_at(ts)
            assert body == {
                "pool": pool.id, "block": block, "timestamp": ts, "tick": st.tick,
                "sqrtPriceX96": str(st.sqrt_price), "liquidity": str(st.liquidity),
                "ticks": [{"tick": t, "liquidityNet": str(n), "liquidityGross": str(g)}
                          for t, n, g in pool.ticks_at(ts)],
            }
            running = 0
            for row in body["ticks"]:
                if row["tick"] <= body["tick"]:
                    running += int(row["liquidityNet"])
            assert str(running) == body["liquidity"]
        v2 = next(p for p in sim.pools if not p.is_cl)
        assert c.get("/chains/56/truth/ticks", params={"pool": v2.address}).status_code == 404
        assert c.get("/chains/56/truth/ticks", params={"pool": "0x" + "ab" * 20}).status_code == 404
        assert c.get("/chains/56/truth/ticks",
                     params={"pool": late.address, "block": late.created_block - 1}).status_code == 404
        for bad in ({"pool": "0x1234"}, {}, {"pool": "0x" + "zz" * 20}, {"pool": pool.address, "block": "x"},
                    {"pool": pool.address, "block": head + 10}):
            r = c.get("/chains/56/truth/ticks", params=bad)
            assert r.status_code == 400 and "error" in r.json()
        assert c.get("/chains/999/truth/ticks", params={"pool": pool.address}).status_code == 404
