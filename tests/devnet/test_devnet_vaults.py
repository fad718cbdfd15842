"""Simulated vaults: the vault book, contracts over JSON-RPC (web3.py), zaps, gating, subgraph
time travel, positions truth and determinism. Expected numbers are computed independently from
RPC reads and the AMM math, not taken from the vault module."""
from __future__ import annotations

import dataclasses
import math
import time

import httpx
import pytest
from web3 import Web3
from web3.exceptions import ContractLogicError

from devnet import addresses
from devnet.amm import cl as clmath
from devnet.amm.v2 import V2Pool
from devnet.model import ChainSim, build_chain
from devnet.deployments import MULTICALL3, chain_book, vault_address, vault_contracts
from devnet.params import CHAIN_PARAMS

GENESIS = 1_750_000_000 - 1_750_000_000 % 3600


def _fn(name, inputs, outputs, mutability="view"):
    return {"name": name, "type": "function", "stateMutability": mutability,
            "inputs": [{"name": f"a{i}", "type": t} for i, t in enumerate(inputs)],
            "outputs": [{"name": f"o{i}", "type": t} for i, t in enumerate(outputs)]}


VAULT_ABI = [
    _fn("name", [], ["string"]), _fn("symbol", [], ["string"]), _fn("decimals", [], ["uint8"]),
    _fn("totalSupply", [], ["uint256"]), _fn("balanceOf", ["address"], ["uint256"]),
    _fn("token0", [], ["address"]), _fn("token1", [], ["address"]), _fn("pool", [], ["address"]),
    _fn("gauge", [], ["address"]), _fn("strategy", [], ["address"]),
    _fn("getTotalAmounts", [], ["uint256", "uint256"]), _fn("idleBalances", [], ["uint256", "uint256"]),
    _fn("isCalm", [], ["bool"]), _fn("paused", [], ["bool"]), _fn("slippageBps", [], ["uint256"]),
    _fn("previewDeposit", ["uint256", "uint256"], ["uint256"]),
    _fn("deposit", ["uint256", "uint256", "uint256"], ["uint256"], "nonpayable"),
    _fn("withdraw", ["uint256", "uint256", "uint256"], ["uint256", "uint256"], "nonpayable"),
    _fn("previewWithdraw", ["uint256"], ["uint256", "uint256"]),
    _fn("tickLower", [], ["int24"]), _fn("tickUpper", [], ["int24"]),
    _fn("getPosition", [], ["uint128", "int24", "int24"]), _fn("lastRebalance", [], ["uint256"]),
    _fn("positionTokenId", [], ["uint256"]),
]
STRATEGY_ABI = [
    _fn("paused", [], ["bool"]), _fn("vault", [], ["address"]), _fn("needsRebalance", [], ["bool"]),
    _fn("maxTickDeviation", [], ["int24"]), _fn("twapInterval", [], ["uint32"]),
    _fn("rebalanceBandTicks", [], ["int24"]), _fn("tickLower", [], ["int24"]), _fn("tickUpper", [], ["int24"]),
]
FACTORY_ABI = [_fn("allVaults", [], ["address[]"]), _fn("vaultsLength", [], ["uint256"]),
               _fn("globalPause", [], ["bool"])]
ZAPPER_ABI = [
    _fn("zapIn", ["address", "address", "uint256", "uint256"], ["uint256"], "nonpayable"),
    _fn("zapInDual", ["address", "uint256", "uint256", "uint256"], ["uint256"], "nonpayable"),
    _fn("zapInNative", ["address", "uint256"], ["uint256"], "payable"),
    _fn("quoteZapIn", ["address", "address", "uint256"], ["uint256", "uint256", "uint256", "bool"]),
]
POOL_ABI = [
    _fn("slot0", [], ["uint160", "int24", "uint16", "uint16", "uint16", "bool"]), _fn("liquidity", [], ["uint128"]),
    _fn("fee", [], ["uint24"]), _fn("getReserves", [], ["uint256", "uint256", "uint256"]),
    _fn("getAmountOut", ["uint256", "address"], ["uint256"]), _fn("stable", [], ["bool"]),
]
PM_ABI = [_fn("ownerOf", ["uint256"], ["address"]),
          _fn("positions", ["uint256"], ["uint96", "address", "address", "address", "int24", "int24", "int24",
                                         "uint128", "uint256", "uint256", "uint128", "uint128"])]
GAUGE_ABI = [_fn("earned", ["address"], ["uint256"]), _fn("balanceOf", ["address"], ["uint256"])]
MULTICALL_ABI = [{"name": "aggregate3", "type": "function", "stateMutability": "payable",
                  "inputs": [{"name": "calls", "type": "tuple[]", "components": [
                      {"name": "target", "type": "address"}, {"name": "allowFailure", "type": "bool"},
                      {"name": "callData", "type": "bytes"}]}],
                  "outputs": [{"name": "r", "type": "tuple[]", "components": [
                      {"name": "success", "type": "bool"}, {"name": "returnData", "type": "bytes"}]}]}]

VAULTS = [dataclasses.make_dataclass("Vault", ["key", "address"])(s.key, vault_address(56, s.key))
          for s in CHAIN_PARAMS[56].vaults]
BOOK = {v.key: v for v in VAULTS}
ZAPPER = vault_contracts(56)["zapper"]


@pytest.fixture(scope="module")
def w3(devnet_server):
    return Web3(Web3.HTTPProvider(devnet_server.rpc_url(56), request_kwargs={"timeout": 60}))


@pytest.fixture(scope="module")
def http(devnet_server):
    with httpx.Client(base_url=devnet_server.url, timeout=60) as c:
        yield c
        c.post("/control/faults", json={"mode": "ok"})


def vault(w3, key):
    return w3.eth.contract(address=BOOK[key].address, abi=VAULT_ABI)


def truth(http, block):
    r = http.get("/chains/56/truth/vaults", params={"block": block})
    assert r.status_code == 200
    return {v["key"]: v for v in r.json()["vaults"]}


def block_where(sim, http, key, pred, step_h=1):
    """The first hourly block (30 min past the hour) at which pred(truth row) holds."""
    start = sim.vaults.vaults[0].created_ts + 1800
    for ts in range(start, sim.block_ts(sim.head()), step_h * 3600):
        b = sim.block_at(ts)
        row = truth(http, b)[key]
        if pred(row):
            return b, row
    raise AssertionError(f"no block found for {key}")


# -- configuration ---------------------------------------------------------------------------------
def test_vault_book_matches_devnet_label_derivation(sim):
    for c in VAULTS:
        assert c.address == addresses.label_address(56, f"vault:{c.key}")
        assert Web3.to_checksum_address(c.address) == c.address
    for name, addr in vault_contracts(56).items():
        assert addr == addresses.label_address(56, name)
    entries = sim.vault_book_entries()
    assert [(e["key"], e["address"]) for e in entries] == [(v.key, v.address) for v in VAULTS]
    assert {e["kind"] for e in entries} == {"cl", "v2"}
    book = chain_book("http://devnet", {56: sim.book_facts()})["chains"][0]
    assert book["vaults"] == entries and book["vaultContracts"] == vault_contracts(56)
    assert book["subgraphUrl"] == "http://devnet/chains/56/subgraph" and book["contracts"]["multicall3"] == MULTICALL3


# -- contracts -------------------------------------------------------------------------------------
def test_vault_views_describe_the_pool_gauge_and_tokens(w3, sim, http):
    head = w3.eth.block_number
    dep = http.get("/chains/56/deployment").json()
    pools = {p["address"]: p for p in dep["pools"]}
    factory = w3.eth.contract(address=vault_contracts(56)["vaultFactory"], abi=FACTORY_ABI)
    assert factory.functions.allVaults().call() == [c.address for c in VAULTS]
    assert factory.functions.vaultsLength().call() == len(VAULTS)
    t = truth(http, head)
    for cfg in sim.vaults.vaults:
        c = vault(w3, cfg.key)
        pool = pools[c.functions.pool().call()]
        assert (c.functions.token0().call(), c.functions.token1().call()) == (pool["token0"], pool["token1"])
        assert c.functions.gauge().call() == pool["gauge"]
        assert pool["type"] == ("cl" if cfg.kind == "cl" else "v2-volatile")
        strat = w3.eth.contract(address=c.functions.strategy().call(), abi=STRATEGY_ABI)
        assert strat.functions.vault().call() == cfg.address
        assert c.functions.decimals().call() == 18
        row = t[cfg.key]
        assert str(c.functions.totalSupply().call()) == row["totalSupply"]
        assert [str(x) for x in c.functions.getTotalAmounts().call()] == [row["amount0"], row["amount1"]]
        assert c.functions.isCalm().call() == row["isCalm"]


def test_cl_vault_amounts_follow_the_pool_math(w3, sim):
    """getTotalAmounts = the position's amounts at the pool's price (cl math, rounded down) + idle."""
    blocks = [sim.genesis_block + k * 40_000 for k in range(2, 6)]
    for key in ("cl-wbnb-usdt", "cl-btcb-wbnb", "cl-core-wbnb"):
        c = vault(w3, key)
        pool = w3.eth.contract(address=c.functions.pool().call(), abi=POOL_ABI)
        for b in blocks:
            liq, lo, hi = c.functions.getPosition().call(block_identifier=b)
            assert (lo, hi) == (c.functions.tickLower().call(block_identifier=b),
                                c.functions.tickUpper().call(block_identifier=b))
            sqrt_p, tick = pool.functions.slot0().call(block_identifier=b)[:2]
            sa, sb = clmath.get_sqrt_ratio_at_tick(lo), clmath.get_sqrt_ratio_at_tick(hi)
            if tick < lo:
                p0, p1 = clmath.get_amount0_delta(sa, sb, liq, False), 0
            elif tick < hi:
                p0 = clmath.get_amount0_delta(sqrt_p, sb, liq, False)
                p1 = clmath.get_amount1_delta(sa, sqrt_p, liq, False)
            else:
                p0, p1 = 0, clmath.get_amount1_delta(sa, sb, liq, False)
            i0, i1 = c.functions.idleBalances().call(block_identifier=b)
            assert c.functions.getTotalAmounts().call(block_identifier=b) == [p0 + i0, p1 + i1]
            assert p0 + p1 > 0
        pm = w3.eth.contract(address=vault_contracts(56)["positionManager"], abi=PM_ABI)
        nft = c.functions.positionTokenId().call()
        pos = pm.functions.positions(nft).call()
        assert pos[5:8] == [c.functions.tickLower().call(), c.functions.tickUpper().call(),
                            c.functions.getPosition().call()[0]]
        assert pm.functions.ownerOf(nft).call() == c.functions.strategy().call()


def test_preview_deposit_is_proportional_to_totals_and_equals_truth(w3, sim, http):
    head = w3.eth.block_number
    t = truth(http, head)
    for cfg in sim.vaults.vaults:
        c = vault(w3, cfg.key)
        t0, t1 = int(t[cfg.key]["amount0"]), int(t[cfg.key]["amount1"])
        supply = int(t[cfg.key]["totalSupply"])
        for a0, a1 in ((t0 // 100, t1 // 50), (t0 // 37, t1 // 400), (10**15, 0), (0, 0)):
            expected = min(a0 * supply // t0, a1 * supply // t1)
            assert c.functions.previewDeposit(a0, a1).call(block_identifier=head) == expected
        # a 1% proportional deposit gets 1% of the supply (up to flooring t/100 of an 8-decimal token)
        shares = c.functions.previewDeposit(t0 // 100, t1 // 100).call(block_identifier=head)
        assert shares <= supply // 100 and shares == pytest.approx(supply / 100, rel=1e-6)


def test_deposit_static_call_is_gated_by_calm_and_pauses(w3, sim, http):
    key = "cl-btcb-wbnb"  # the vault with a strategy pause window
    c = vault(w3, key)
    calm_block, row = block_where(sim, http, key, lambda r: r["depositsAvailable"])
    a0, a1 = int(row["amount0"]) // 200, int(row["amount1"]) // 200
    shares = c.functions.previewDeposit(a0, a1).call(block_identifier=calm_block)
    minimum = shares * (10_000 - c.functions.slippageBps().call()) // 10_000
    got = c.functions.deposit(a0, a1, minimum).call(block_identifier=calm_block)
    assert got == shares and got >= minimum
    with pytest.raises(ContractLogicError, match="VAULT: slippage"):
        c.functions.deposit(a0, a1, shares + 1).call(block_identifier=calm_block)
    cases = (
        (lambda r: not r["isCalm"] and not r["strategyPaused"] and not r["globalPause"], "VAULT: not calm"),
        (lambda r: r["strategyPaused"] and not r["globalPause"], "VAULT: strategy paused"),
        (lambda r: r["globalPause"], "VAULT: global pause"),
    )
    for pred, reason in cases:
        b, _ = block_where(sim, http, key, pred)
        with pytest.raises(ContractLogicError, match=reason):
            c.functions.deposit(a0, a1, 0).call(block_identifier=b)
        assert c.functions.paused().call(block_identifier=b) == (reason != "VAULT: not calm")
    # withdrawals are never gated: a holder withdraws during the strategy pause
    b, _ = block_where(sim, http, key, lambda r: r["strategyPaused"])
    ts = sim.block_ts(b)
    users = http.get("/chains/56/truth/vault-users", params={"block": b}).json()["users"]
    holder = next(u["user"] for u in users if BOOK[key].address in u["openPositions"])
    holder = Web3.to_checksum_address(holder)
    bal = c.functions.balanceOf(holder).call(block_identifier=b)
    assert bal > 0 and sim.vaults.global_paused(ts) is False
    preview = c.functions.previewWithdraw(bal // 2).call(block_identifier=b)
    assert c.functions.withdraw(bal // 2, 0, 0).call({"from": holder}, block_identifier=b) == preview
    with pytest.raises(ContractLogicError, match="VAULT: insufficient shares"):
        c.functions.withdraw(bal + 1, 0, 0).call({"from": holder}, block_identifier=b)
    with pytest.raises(ContractLogicError, match="VAULT: slippage"):
        c.functions.withdraw(bal // 2, preview[0] + 1, 0).call({"from": holder}, block_identifier=b)


def _tick_v2(reserves):
    return math.floor(math.log(reserves[1] / reserves[0]) / math.log(1.0001))


def test_is_calm_follows_the_tick_deviation_rule_and_changes_over_time(w3, sim):
    head = w3.eth.block_number
    for cfg in sim.vaults.vaults:
        c = vault(w3, cfg.key)
        strat = w3.eth.contract(address=c.functions.strategy().call(), abi=STRATEGY_ABI)
        pool = w3.eth.contract(address=c.functions.pool().call(), abi=POOL_ABI)
        max_dev = strat.functions.maxTickDeviation().call()
        window_blocks = strat.functions.twapInterval().call() // 3
        seen = []
        for b in range(sim.genesis_block + 4_800, head, 2_700):
            def tick(n):
                if cfg.kind == "cl":
                    return pool.functions.slot0().call(block_identifier=n)[1]
                return _tick_v2(pool.functions.getReserves().call(block_identifier=n))
            expected = abs(tick(b) - tick(b - window_blocks)) <= max_dev
            got = c.functions.isCalm().call(block_identifier=b)
            assert got == expected, (cfg.key, b)
            seen.append(got)
        assert True in seen and False in seen, cfg.key


def test_pause_windows_exist_and_end(w3, sim):
    factory = w3.eth.contract(address=vault_contracts(56)["vaultFactory"], abi=FACTORY_ABI)
    c = vault(w3, "cl-btcb-wbnb")
    strat = w3.eth.contract(address=c.functions.strategy().call(), abi=STRATEGY_ABI)
    other = w3.eth.contract(address=vault(w3, "cl-wbnb-usdt").functions.strategy().call(), abi=STRATEGY_ABI)
    head = w3.eth.block_number
    g_flags, s_flags, o_flags = [], [], []
    for b in range(sim.genesis_block + 2_400, head, 1_200):
        g_flags.append(factory.functions.globalPause().call(block_identifier=b))
        s_flags.append(strat.functions.paused().call(block_identifier=b))
        o_flags.append(other.functions.paused().call(block_identifier=b))
    for flags in (g_flags, s_flags):
        first, last = flags.index(True), len(flags) - 1 - flags[::-1].index(True)
        assert all(flags[first:last + 1]) and 0 < first and last < len(flags) - 1  # one window, inside
    assert not any(o_flags)
    assert 2 <= sum(g_flags) < sum(s_flags)  # the global pause is the shorter one


def test_zap_returns_shares_of_a_swap_through_the_pool(w3, sim, http):
    zapper = w3.eth.contract(address=ZAPPER, abi=ZAPPER_ABI)
    # v2: the swap is the pool's own getAmountOut; the shares are previewDeposit of the result
    key = "v2-core-wbnb"
    b, row = block_where(sim, http, key, lambda r: r["depositsAvailable"])
    c = vault(w3, key)
    token0 = c.functions.token0().call()
    pool = w3.eth.contract(address=c.functions.pool().call(), abi=POOL_ABI)
    amount = int(row["amount0"]) // 40
    shares, swap_in, swap_out, zero_for_one = zapper.functions.quoteZapIn(c.address, token0, amount).call(
        block_identifier=b)
    assert zero_for_one and 0 < swap_in < amount
    assert swap_out == pool.functions.getAmountOut(swap_in, token0).call(block_identifier=b)
    r0, r1, _ = pool.functions.getReserves().call(block_identifier=b)
    fee = pool.functions.fee().call(block_identifier=b)
    assert swap_out == V2Pool(False, 18, 18, fee, r0, r1).quote(swap_in, True)[0]

    def preview(x):
        out = pool.functions.getAmountOut(x, token0).call(block_identifier=b)
        return c.functions.previewDeposit(amount - x, out).call(block_identifier=b)

    assert shares == preview(swap_in)
    for dx in (-10**15, -10**12, 10**12, 10**15):  # no better split nearby
        assert preview(swap_in + dx) <= shares
    # the naive estimate: the amount's share of the vault's value at the pool's price
    t0, t1 = int(row["amount0"]), int(row["amount1"])
    naive = amount * int(row["totalSupply"]) / (t0 + t1 * r0 / r1)
    assert shares < naive  # fee and price impact are paid
    assert zapper.functions.zapIn(c.address, token0, amount, shares).call(block_identifier=b) == shares
    with pytest.raises(ContractLogicError, match="ZAP: slippage"):
        zapper.functions.zapIn(c.address, token0, amount, shares + 1).call(block_identifier=b)
    # native: msg.value is WBNB, one of the vault's tokens
    wbnb = sim.native.address
    assert zapper.functions.zapInNative(c.address, 0).call({"value": amount}, block_identifier=b) == \
        zapper.functions.zapIn(c.address, wbnb, amount, 0).call(block_identifier=b)
    gas = zapper.functions.zapIn(c.address, token0, amount, 0).estimate_gas(block_identifier=b)
    assert 1_200_000 <= gas <= 1_800_000
    nb, _ = block_where(sim, http, key, lambda r: not r["isCalm"])
    with pytest.raises(ContractLogicError, match="VAULT: not calm"):
        zapper.functions.zapIn(c.address, token0, amount, 0).call(block_identifier=nb)
    with pytest.raises(ContractLogicError, match="VAULT: not calm"):
        zapper.functions.zapIn(c.address, token0, amount, 0).estimate_gas(block_identifier=nb)


def test_cl_zap_swap_matches_the_swap_math_on_the_active_liquidity(w3, sim, http):
    """A small zap does not cross an initialized tick: its swap is one SwapMath step on the pool's
    active liquidity, computed here from slot0/liquidity/fee read over RPC."""
    zapper = w3.eth.contract(address=ZAPPER, abi=ZAPPER_ABI)
    key = "cl-wbnb-usdt"
    b, row = block_where(sim, http, key, lambda r: r["depositsAvailable"])
    c = vault(w3, key)
    pool = w3.eth.contract(address=c.functions.pool().call(), abi=POOL_ABI)
    token1 = c.functions.token1().call()
    amount = int(row["amount1"]) // 100
    shares, swap_in, swap_out, zero_for_one = zapper.functions.quoteZapIn(c.address, token1, amount).call(
        block_identifier=b)
    assert not zero_for_one and 0 < swap_in < amount
    sqrt_p = pool.functions.slot0().call(block_identifier=b)[0]
    liq = pool.functions.liquidity().call(block_identifier=b)
    fee = pool.functions.fee().call(block_identifier=b)
    step = clmath.compute_swap_step(sqrt_p, clmath.MAX_SQRT_RATIO - 1, liq, swap_in, fee)
    assert step[2] == swap_out and step[1] + step[3] == swap_in
    assert shares == c.functions.previewDeposit(swap_out, amount - swap_in).call(block_identifier=b)
    assert zapper.functions.zapInDual(c.address, 0, amount, 0).call(block_identifier=b) == shares
    gas = zapper.functions.zapInDual(c.address, 0, amount, 0).estimate_gas(block_identifier=b)
    assert 1_200_000 <= gas <= 1_800_000


def test_rebalances_recentre_the_range_when_price_leaves_the_band(w3, sim):
    book = sim.vaults
    head_ts = sim.block_ts(sim.head())
    rebs = [r for r in book.rebalances if r["timestamp"] <= head_ts]
    assert {r["vault"] for r in rebs} >= {BOOK["cl-wbnb-usdt"].address.lower(), BOOK["cl-btcb-wbnb"].address.lower()}
    for r in rebs[:6]:
        v = book.by_id[r["vault"]]
        c = vault(w3, v.key)
        strat = w3.eth.contract(address=v.strategy, abi=STRATEGY_ABI)
        b = r["blockNumber"]
        band = strat.functions.rebalanceBandTicks().call(block_identifier=b)
        assert (c.functions.tickLower().call(block_identifier=b - 1),
                c.functions.tickUpper().call(block_identifier=b - 1)) == (r["oldTickLower"], r["oldTickUpper"])
        assert strat.functions.needsRebalance().call(block_identifier=b - 1)
        assert not (r["oldTickLower"] + band <= r["tick"] < r["oldTickUpper"] - band)
        assert (c.functions.tickLower().call(block_identifier=b),
                c.functions.tickUpper().call(block_identifier=b)) == (r["newTickLower"], r["newTickUpper"])
        assert r["newTickLower"] <= r["tick"] < r["newTickUpper"]
        mid = (r["newTickLower"] + r["newTickUpper"]) / 2
        assert abs(mid - r["tick"]) <= v.pool.tick_spacing
        assert c.functions.lastRebalance().call(block_identifier=b) == r["timestamp"]
        # value is kept through a rebalance up to the swap fee on the re-balanced part
        t_before = v.snapshot(r["timestamp"] - 1)["tvlUsd"]
        t_after = v.snapshot(r["timestamp"])["tvlUsd"]
        assert t_after == pytest.approx(t_before, rel=v.pool.fee_at(r["timestamp"]) / 1e6 + 5e-3)


def test_gauge_rewards_accrue_and_are_harvested(w3, sim):
    head = w3.eth.block_number
    for cfg in sim.vaults.vaults:
        c = vault(w3, cfg.key)
        gauge = w3.eth.contract(address=c.functions.gauge().call(), abi=GAUGE_ABI)
        e1 = gauge.functions.earned(cfg.address).call(block_identifier=head - 100)
        e2 = gauge.functions.earned(cfg.address).call(block_identifier=head)
        assert e2 >= e1
        assert gauge.functions.earned(c.functions.strategy().call()).call(block_identifier=head) == e2
        assert gauge.functions.earned(Web3.to_checksum_address("0x" + "11" * 20)).call() == 0
        assert gauge.functions.balanceOf(cfg.address).call() > 0
    harvests = [h for h in sim.vaults.harvests if h["timestamp"] <= sim.block_ts(head)]
    assert len(harvests) > 20 and all(h["amount"] > 0 for h in harvests[:20])
    h = harvests[5]
    v = sim.vaults.by_id[h["vault"]]
    gauge = w3.eth.contract(address=v.gauge().address, abi=GAUGE_ABI)
    # right before the harvest block, earned is what the harvest claims (accrual is linear per
    # hour, so one block earlier it is smaller by at most one block of rewards)
    pre = gauge.functions.earned(v.address).call(block_identifier=h["blockNumber"] - 1)
    assert pre <= h["amount"] and h["amount"] - pre <= h["amount"] // 100 + 10**12
    assert gauge.functions.earned(v.address).call(block_identifier=h["blockNumber"]) == 0


# -- subgraph ---------------------------------------------------------------------------------------
def _gql(http, query, variables=None):
    r = http.post("/chains/56/subgraph", json={"query": query, "variables": variables or {}})
    body = r.json()
    assert "errors" not in body, body
    return body["data"]


def test_subgraph_time_travel_hides_later_vault_events(http, sim, w3):
    b = sim.genesis_block + 120_000
    ts = sim.block_ts(b)
    q = """query($b: Int!, $ts: BigInt!) {
      later: vaultDeposits(block: {number: $b}, where: {timestamp_gt: $ts}) { id }
      now: vaultDeposits(where: {timestamp_gt: $ts}, first: 5) { id }
      upto: vaultDeposits(block: {number: $b}, first: 1000) { id vault { id } shares amount0 amountUSD }
      rebs: vaultRebalances(block: {number: $b}, first: 1000) { id timestamp }
      vaults(block: {number: $b}) { id totalSupply amount0 amount1 totalValueLockedUSD }
      hours: vaultHourDatas(block: {number: $b}, orderBy: periodStartUnix, orderDirection: desc, first: 8) {
        periodStartUnix vault { id } totalSupply tvlUSD }
    }"""
    d = _gql(http, q, {"b": b, "ts": ts})
    assert d["later"] == [] and len(d["now"]) == 5
    expected = [r["id"] for r in sim.vaults.deposits if r["timestamp"] <= ts]
    assert sorted(x["id"] for x in d["upto"]) == sorted(expected)
    assert all(int(r["timestamp"]) <= ts for r in d["rebs"])
    t = {v["address"].lower(): v for v in truth(http, b).values()}
    for row in d["vaults"]:
        assert row["totalSupply"] == t[row["id"]]["totalSupply"]
        c = w3.eth.contract(address=Web3.to_checksum_address(row["id"]), abi=VAULT_ABI)
        assert int(row["totalSupply"]) == c.functions.totalSupply().call(block_identifier=b)
    # the period containing the block is partial: its row is the state at the block
    current = [h for h in d["hours"] if int(h["periodStartUnix"]) + 3600 > ts]
    assert len(current) == 4
    for h in current:
        assert h["totalSupply"] == t[h["vault"]["id"]]["totalSupply"]
        assert float(h["tvlUSD"]) == pytest.approx(t[h["vault"]["id"]]["tvlUsd"], rel=1e-12)
    # closed hours: the state at the hour's last block
    closed = [h for h in d["hours"] if int(h["periodStartUnix"]) + 3600 <= ts][0]
    end_block = sim.block_at(int(closed["periodStartUnix"]) + 3600) - 1
    assert closed["totalSupply"] == truth(http, end_block)[
        next(k for k, c in BOOK.items() if c.address.lower() == closed["vault"]["id"])]["totalSupply"]


# -- positions truth ----------------------------------------------------------------------------------
def test_positions_truth_equals_the_sum_of_interactions(http, w3, sim):
    head = w3.eth.block_number
    users = http.get("/chains/56/truth/vault-users", params={"block": head}).json()["users"]
    assert len(users) >= 20 and users[0]["interactions"] >= 5
    for u in users[:3]:
        body = http.get("/chains/56/truth/vault-positions", params={"user": u["user"], "block": head}).json()
        assert body["positions"]
        d = _gql(http, """query($u: String!) { vaultDeposits(where: {user: $u}, first: 1000) { id vault { id } shares amountUSD }
                          vaultWithdrawals(where: {user: $u}, first: 1000) { id vault { id } shares amountUSD } }""",
                 {"u": u["user"]})
        for p in body["positions"]:
            vid = p["vault"].lower()
            deps = [x for x in d["vaultDeposits"] if x["vault"]["id"] == vid]
            wds = [x for x in d["vaultWithdrawals"] if x["vault"]["id"] == vid]
            assert len(deps) + len(wds) == len(p["interactions"])
            shares = sum(int(x["shares"]) for x in deps) - sum(int(x["shares"]) for x in wds)
            assert int(p["shares"]) == shares
            c = w3.eth.contract(address=p["vault"], abi=VAULT_ABI)
            assert c.functions.balanceOf(Web3.to_checksum_address(u["user"])).call(block_identifier=head) == shares
            dep_usd = math.fsum(float(x["amountUSD"]) for x in deps)
            wd_usd = math.fsum(float(x["amountUSD"]) for x in wds)
            assert p["depositedUsd"] == pytest.approx(dep_usd, rel=1e-12)
            assert p["withdrawnUsd"] == pytest.approx(wd_usd, rel=1e-12)
            assert p["pnlUsd"] == pytest.approx(p["valueUsd"] + wd_usd - dep_usd, rel=1e-9, abs=1e-6)
            t0, t1 = c.functions.getTotalAmounts().call(block_identifier=head)
            supply = c.functions.totalSupply().call(block_identifier=head)
            assert (int(p["amount0"]), int(p["amount1"])) == (t0 * shares // supply, t1 * shares // supply)
            row = truth(http, head)[p["key"]]
            # the value of floored raw amounts: within a cent of shares x share price
            assert p["valueUsd"] == pytest.approx(shares / 1e18 * row["sharePriceUsd"], abs=0.01)
    r = http.get("/chains/56/truth/vault-positions", params={"user": "nope"})
    assert r.status_code == 400 and r.json() == {"error": "user must be a 0x address"}


# -- faults ---------------------------------------------------------------------------------------------
def test_vault_fault_makes_one_vault_fail_inside_multicall(http, w3):
    mc = w3.eth.contract(address=MULTICALL3, abi=MULTICALL_ABI)
    keys = list(BOOK)
    calls = [(BOOK[k].address, True, vault(w3, k).encode_abi("totalSupply")) for k in keys]
    try:
        r = http.post("/control/faults", json={"chainId": 56, "target": "vaults", "mode": "error",
                                                "vault": BOOK["cl-core-wbnb"].address})
        assert r.status_code == 200
        assert any(f["target"] == "vaults" for f in r.json()["faults"])
        res = mc.functions.aggregate3(calls).call()
        assert [ok for ok, _ in res] == [k != "cl-core-wbnb" for k in keys]
        with pytest.raises(ContractLogicError, match="devnet fault injection"):
            vault(w3, "cl-core-wbnb").functions.isCalm().call()
        http.post("/control/faults", json={"chainId": 56, "target": "vaults", "mode": "slow", "delayMs": 300})
        t0 = time.perf_counter()
        vault(w3, "cl-wbnb-usdt").functions.totalSupply().call()
        assert time.perf_counter() - t0 >= 0.3
        assert http.post("/control/faults", json={"target": "vaults", "mode": "lag"}).status_code == 400
    finally:
        http.post("/control/faults", json={"mode": "ok"})
    assert all(ok for ok, _ in mc.functions.aggregate3(calls).call())
    assert http.get("/control/faults").json()["faults"] == []


# -- determinism ------------------------------------------------------------------------------------
def test_vault_events_are_deterministic_and_leave_the_market_untouched():
    a = build_chain(56, seed=31, genesis_ts=GENESIS, history_days=3)
    b = build_chain(56, seed=31, genesis_ts=GENESIS, history_days=3)
    c = build_chain(56, seed=32, genesis_ts=GENESIS, history_days=3)
    assert a.vault_fingerprint() == b.vault_fingerprint() != c.vault_fingerprint()
    assert len(a.vaults.deposits) > 20 and a.vaults.withdrawals
    # the same chain without vaults has the same market and governance events
    bare = ChainSim(56, 31, GENESIS, 3, params=dataclasses.replace(CHAIN_PARAMS[56], vaults=()))
    bare.generate_history()
    assert bare.fingerprint() == a.fingerprint()
    assert not bare.vaults.deposits
