"""Vault detail: the strategies' reward fee, what a rebalance did (totals before and after, the
trading fees collected, the pool price, the surplus swap) and one vault's events truth
(/truth/vault-events). Expected values come from RPC reads, the subgraph, the AMM math and the
market simulation's swaps, not from the vault modules."""
from __future__ import annotations

import dataclasses
import math
from collections import Counter
from decimal import Decimal

import httpx
import pytest
from eth_abi import decode
from eth_utils import keccak
from web3 import Web3

from devnet import addresses
from devnet.amm import cl as clmath
from devnet.model import ChainSim
from devnet.params import CHAIN_PARAMS
from devnet.rpc.node import RpcNode
from devnet.specs import VaultSpec

GENESIS = 1_750_000_000 - 1_750_000_000 % 3600
KINDS = ("deposit", "withdrawal", "harvest", "rebalance")


def _fn(name, inputs, outputs):
    return {"name": name, "type": "function", "stateMutability": "view",
            "inputs": [{"name": f"a{i}", "type": t} for i, t in enumerate(inputs)],
            "outputs": [{"name": f"o{i}", "type": t} for i, t in enumerate(outputs)]}


VAULT_ABI = [_fn("getTotalAmounts", [], ["uint256", "uint256"]), _fn("idleBalances", [], ["uint256", "uint256"]),
             _fn("getPosition", [], ["uint128", "int24", "int24"]), _fn("strategy", [], ["address"]),
             _fn("gauge", [], ["address"]), _fn("pool", [], ["address"])]
STRATEGY_ABI = [_fn("rewardFee", [], ["uint256"]), _fn("feeRecipient", [], ["address"])]
POOL_ABI = [_fn("slot0", [], ["uint160", "int24", "uint16", "uint16", "uint16", "bool"]),
            _fn("fee", [], ["uint24"]), _fn("getReserves", [], ["uint256", "uint256", "uint256"])]
ERC20_ABI = [_fn("balanceOf", ["address"], ["uint256"])]
GAUGE_ABI = [_fn("balanceOf", ["address"], ["uint256"])]


@pytest.fixture(scope="module")
def w3(devnet_server):
    return Web3(Web3.HTTPProvider(devnet_server.rpc_url(56), request_kwargs={"timeout": 60}))


@pytest.fixture(scope="module")
def http(devnet_server):
    with httpx.Client(base_url=devnet_server.url, timeout=60) as c:
        yield c


def truth(http, block=None):
    r = http.get("/chains/56/truth/vaults", params={} if block is None else {"block": block})
    assert r.status_code == 200
    return r.json()


def events(http, vault, block=None):
    params = {"vault": vault} | ({} if block is None else {"block": block})
    r = http.get("/chains/56/truth/vault-events", params=params)
    assert r.status_code == 200, r.text
    return r.json()


def contract(w3, address, abi):
    return w3.eth.contract(address=Web3.to_checksum_address(address), abi=abi)


def cl_amounts(sqrt_p, tick, lo, hi, liq):
    """A position's amounts at a price, rounded down (Uniswap v3's burn)."""
    sa, sb = clmath.get_sqrt_ratio_at_tick(lo), clmath.get_sqrt_ratio_at_tick(hi)
    if tick < lo:
        return clmath.get_amount0_delta(sa, sb, liq, False), 0
    if tick < hi:
        return clmath.get_amount0_delta(sqrt_p, sb, liq, False), clmath.get_amount1_delta(sa, sqrt_p, liq, False)
    return 0, clmath.get_amount1_delta(sa, sb, liq, False)


def alone_in_block(evs, e):
    """No other event of the vault in e's block."""
    return sum(x["blockNumber"] == e["blockNumber"] for x in evs) == 1


# -- reward fee -------------------------------------------------------------------------------------
def test_strategy_fee_views_equal_truth(w3, http, sim):
    head = w3.eth.block_number
    rows = truth(http, head)["vaults"]
    assert len({r["rewardFeeBps"] for r in rows}) >= 3
    for r in rows:
        strat = contract(w3, r["strategy"], STRATEGY_ABI)
        assert strat.functions.rewardFee().call(block_identifier=head) == r["rewardFeeBps"]
        assert 0 < r["rewardFeeBps"] < 10_000
        assert strat.functions.feeRecipient().call(block_identifier=head) == r["feeRecipient"]
        assert r["feeRecipient"] == addresses.label_address(56, "vaultFeeRecipient")
        ev = events(http, r["address"], head)
        assert (ev["rewardFeeBps"], ev["feeRecipient"]) == (r["rewardFeeBps"], r["feeRecipient"])


def test_harvest_fee_is_taken_exactly_and_paid_to_the_recipient(w3, http, sim):
    head = w3.eth.block_number
    rows = truth(http, head)["vaults"]
    core = contract(w3, sim.core.address, ERC20_ABI)
    recipient = rows[0]["feeRecipient"]
    fees_by_block: dict[int, int] = {}
    for r in rows:
        bps = contract(w3, r["strategy"], STRATEGY_ABI).functions.rewardFee().call()
        hs = [e for e in events(http, r["address"], head)["events"] if e["type"] == "harvest"]
        assert len(hs) > 10
        for h in hs:
            gross, fee = int(h["amount"]), int(h["feeAmount"])
            assert fee == gross * bps // 10_000 and (gross == 0 or 0 < fee < gross)
            if gross:
                assert h["feeAmountUSD"] / h["amountUSD"] == pytest.approx(fee / gross, rel=1e-12)
            fees_by_block[h["blockNumber"]] = fees_by_block.get(h["blockNumber"], 0) + fee
    # the recipient's core balance is the running sum of every vault's fees
    assert core.functions.balanceOf(recipient).call(block_identifier=head) == sum(fees_by_block.values())
    mid = sim.genesis_block + (head - sim.genesis_block) // 2
    assert core.functions.balanceOf(recipient).call(block_identifier=mid) == sum(
        f for b, f in fees_by_block.items() if b <= mid)
    for b in sorted(fees_by_block)[:: max(1, len(fees_by_block) // 12)]:
        got = (core.functions.balanceOf(recipient).call(block_identifier=b)
               - core.functions.balanceOf(recipient).call(block_identifier=b - 1))
        assert got == fees_by_block[b]


def test_harvest_compounds_the_claim_less_the_fee(w3, http, sim):
    """The vault's value rises by the rest of the claim (gross - fee) sold at the pool fee, to a raw
    unit of each token: its totals before the harvest are its position at the block before valued
    at the harvest block's pool state, plus its idle balances then."""
    head = w3.eth.block_number
    checked = 0
    for r in truth(http, head)["vaults"]:
        c = contract(w3, r["address"], VAULT_ABI)
        pool = contract(w3, r["pool"], POOL_ABI)
        evs = events(http, r["address"], head)["events"]
        hs = [e for e in evs if e["type"] == "harvest" and int(e["amount"]) > 0 and alone_in_block(evs, e)]
        for h in hs[:4]:
            b = h["blockNumber"]
            i0, i1 = c.functions.idleBalances().call(block_identifier=b - 1)
            if r["kind"] == "cl":
                liq, lo, hi = c.functions.getPosition().call(block_identifier=b - 1)
                sqrt_p, tick = pool.functions.slot0().call(block_identifier=b)[:2]
                p0, p1 = cl_amounts(sqrt_p, tick, lo, hi, liq)
            else:
                lp = contract(w3, r["gauge"], GAUGE_ABI).functions.balanceOf(r["address"]).call(block_identifier=b - 1)
                r0, r1, _ = pool.functions.getReserves().call(block_identifier=b)
                supply = math.isqrt(r0 * r1)
                p0, p1 = lp * r0 // supply, lp * r1 // supply
            a0, a1 = c.functions.getTotalAmounts().call(block_identifier=b)
            tokens = http.get("/chains/56/truth/state", params={"block": b}).json()["tokens"]
            # USD per raw unit of token0 and token1 at the harvest block
            per0, per1 = (tokens[r[k].lower()]["priceUsd"] / 10**sim.token_by_id[r[k].lower()].decimals
                          for k in ("token0", "token1"))
            keep = 1 - pool.functions.fee().call(block_identifier=b) / 1e6
            rise = (a0 - p0 - i0) * per0 + (a1 - p1 - i1) * per1
            # position amounts are whole raw units, rounded both ways: one raw unit of each token apart
            # (a raw unit of an 8-decimal token is worth about 1e-3 USD)
            assert rise == pytest.approx((h["amountUSD"] - h["feeAmountUSD"]) * keep, rel=1e-6, abs=per0 + per1)
            checked += 1
    assert checked >= 12


# -- rebalances -----------------------------------------------------------------------------------------
def test_rebalance_amounts_price_and_swap_follow_rpc_reads(w3, http, sim):
    head = w3.eth.block_number
    timeline = http.get("/chains/56/truth/gauge-timeline").json()
    n_equal_before = n_after = 0
    for r in [r for r in truth(http, head)["vaults"] if r["kind"] == "cl"]:
        # staked in a gauge never killed: the positions earned emissions, no trading fees
        assert [e["kind"] for e in timeline["gauges"][r["gauge"].lower()]["events"]] == ["created"]
        c = contract(w3, r["address"], VAULT_ABI)
        pool = contract(w3, r["pool"], POOL_ABI)
        evs = events(http, r["address"], head)["events"]
        for e in [e for e in evs if e["type"] == "rebalance"]:
            b = e["blockNumber"]
            sqrt_p, tick = pool.functions.slot0().call(block_identifier=b)[:2]
            assert (int(e["sqrtPriceX96"]), e["tick"]) == (sqrt_p, tick)
            assert (e["fees0"], e["fees1"]) == ("0", "0")
            before = [int(e["amount0Before"]), int(e["amount1Before"])]
            after = [int(e["amount0After"]), int(e["amount1After"])]
            liq, lo, hi = c.functions.getPosition().call(block_identifier=b - 1)
            assert (lo, hi) == (e["oldTickLower"], e["oldTickUpper"])
            i0, i1 = c.functions.idleBalances().call(block_identifier=b - 1)
            p0, p1 = cl_amounts(sqrt_p, tick, lo, hi, liq)
            assert before == [p0 + i0, p1 + i1]
            if pool.functions.slot0().call(block_identifier=b - 1)[0] == sqrt_p:
                t = next(x for x in truth(http, b - 1)["vaults"] if x["key"] == r["key"])
                assert before == c.functions.getTotalAmounts().call(block_identifier=b - 1) == [
                    int(t["amount0"]), int(t["amount1"])]
                n_equal_before += 1
            if alone_in_block(evs, e):
                t = next(x for x in truth(http, b)["vaults"] if x["key"] == r["key"])
                assert after == c.functions.getTotalAmounts().call(block_identifier=b) == [
                    int(t["amount0"]), int(t["amount1"])]
                n_after += 1
            check_swap_and_conservation(e, pool.functions.fee().call(block_identifier=b))
    assert n_equal_before >= 10 and n_after >= 10


def check_swap_and_conservation(e, fee_pips):
    """The surplus swap is priced at sqrtPriceX96 minus the pool fee; after = before + fees -/+ the
    swap, less at most one unit per token (the new position's amounts are rounded up when minted,
    down when valued)."""
    x_in, x_out, zfo = int(e["swapAmountIn"]), int(e["swapAmountOut"]), e["swapZeroForOne"]
    price = (int(e["sqrtPriceX96"]) / 2**96) ** 2  # raw token1 per raw token0
    ideal = x_in * price if zfo else x_in / price
    assert x_in > 0 and x_out == pytest.approx(ideal * (1 - fee_pips / 1e6), rel=1e-9, abs=1)
    d0, d1 = (-x_in, x_out) if zfo else (x_out, -x_in)
    for k, d in (("0", d0), ("1", d1)):
        expected = int(e[f"amount{k}Before"]) + int(e[f"fees{k}"]) + d
        assert 0 <= expected - int(e[f"amount{k}After"]) <= 1


# -- subgraph vs events truth ----------------------------------------------------------------------------
SG_FIELDS = {
    "deposit": ("vaultDeposits", "user shares amount0 amount1 amountUSD"),
    "withdrawal": ("vaultWithdrawals", "user shares amount0 amount1 amountUSD"),
    "harvest": ("vaultHarvests", "token { id decimals } amount amountUSD feeAmount feeAmountUSD"),
    "rebalance": ("vaultRebalances", ("oldTickLower oldTickUpper newTickLower newTickUpper tick sqrtPriceX96 "
                                      "amount0Before amount1Before amount0After amount1After fees0 fees1 "
                                      "swapAmountIn swapAmountOut swapZeroForOne")),
}


def raw(text: str, decimals: int) -> str:
    """A BigDecimal token amount back to the raw integer (exact)."""
    value = Decimal(text).scaleb(decimals)
    assert value == value.to_integral_value()
    return str(int(value))


# BigDecimal token amounts -> the token they are in: "0"/"1" the vault's, "core" the harvest's
TOKEN_OF = {"amount0": "0", "amount1": "1", "amount0Before": "0", "amount1Before": "1", "amount0After": "0",
            "amount1After": "1", "fees0": "0", "fees1": "1", "amount": "core", "feeAmount": "core"}


def subgraph_events(http, vault, block):
    """The vault's four event entities at the block, in the events truth's form (raw strings)."""
    out = []
    for kind, (field, fields) in SG_FIELDS.items():
        q = (f"query($v: String!, $b: Int!) {{ {field}(where: {{vault: $v}}, block: {{number: $b}}, first: 1000) "
             f"{{ id timestamp blockNumber transactionHash logIndex {fields} "
             f"vault {{ token0 {{ decimals }} token1 {{ decimals }} }} }} }}")
        body = http.post("/chains/56/subgraph", json={"query": q, "variables": {"v": vault.lower(), "b": block}}).json()
        assert "errors" not in body, body
        for row in body["data"][field]:
            e = {"type": kind, **row}
            v = e.pop("vault")
            dec = {"0": v["token0"]["decimals"], "1": v["token1"]["decimals"]}
            if kind == "harvest":
                dec["core"] = e["token"]["decimals"]
                e["token"] = e["token"]["id"]
            if kind == "rebalance":
                side_in, side_out = ("0", "1") if e["swapZeroForOne"] else ("1", "0")
                e["swapAmountIn"] = raw(e["swapAmountIn"], dec[side_in])
                e["swapAmountOut"] = raw(e["swapAmountOut"], dec[side_out])
            for k, val in e.items():
                if k in ("timestamp", "blockNumber", "logIndex"):
                    e[k] = int(val)
                elif k.endswith("USD"):
                    e[k] = float(val)
                elif k in TOKEN_OF:
                    e[k] = raw(val, dec[TOKEN_OF[k]])
            out.append(e)
    return sorted(out, key=lambda e: (e["blockNumber"], e["logIndex"]))


@pytest.mark.parametrize("at", ["mid", "head"])
def test_subgraph_vault_events_equal_the_events_truth(w3, http, sim, at):
    head = w3.eth.block_number
    block = head if at == "head" else sim.genesis_block + (head - sim.genesis_block) * 2 // 3
    for r in truth(http, block)["vaults"]:
        body = events(http, r["address"], block)
        assert (body["block"], body["vault"], body["key"]) == (block, r["address"], r["key"])
        evs = body["events"]
        assert {e["type"] for e in evs} == set(KINDS) - ({"rebalance"} if r["kind"] == "v2" else set())
        assert [(e["blockNumber"], e["logIndex"]) for e in evs] == sorted({(e["blockNumber"], e["logIndex"]) for e in evs})
        assert all(e["timestamp"] <= body["timestamp"] for e in evs)
        assert subgraph_events(http, r["address"], block) == evs


def test_vault_events_route_defaults_and_errors(w3, http, sim):
    v = sim.vaults.vaults[0]
    head = w3.eth.block_number
    now = http.get("/chains/56/truth/vault-events", params={"vault": v.address.lower()})
    assert now.status_code == 200 and now.json() == events(http, v.address, head)
    past = events(http, v.address, head - 20_000)
    assert past["events"] == [e for e in now.json()["events"] if e["timestamp"] <= past["timestamp"]]
    cases = [
        ({"vault": "0x" + "11" * 20}, 404), ({"vault": "nope"}, 400), ({}, 400),
        ({"vault": v.address, "block": head + 1}, 400), ({"vault": v.address, "block": "x"}, 400),
        ({"vault": v.address, "block": v.created_block - 1}, 404),
    ]
    for params, status in cases:
        r = http.get("/chains/56/truth/vault-events", params=params)
        assert r.status_code == status and isinstance(r.json()["error"], str), params
    assert http.get("/chains/9/truth/vault-events", params={"vault": v.address}).status_code == 404


# -- a position unstaked part of the time -------------------------------------------------------------------
def _call(node, to, sig, outs, block):
    data = "0x" + keccak(text=sig)[:4].hex()
    res = node.handle({"jsonrpc": "2.0", "id": 1, "method": "eth_call", "params": [{"to": to, "data": data}, hex(block)]})
    return decode(outs, bytes.fromhex(res["result"][2:]))


def test_rebalance_collects_trading_fees_while_the_gauge_is_killed():
    """Chain 4663 with a narrow vault on CL100-WETH/WLUM, whose gauge is killed at 60% of the
    history: after the kill the burnt positions bring the fees of the swaps that started in range,
    fee x vaultL / (poolL + vaultL) with the pool's state before the swap (read at the block before,
    for swaps alone in their block), and nothing before it."""
    extra = VaultSpec("cl-weth-wlum", "CL100-WETH/WLUM", 100_000, 0.3, 0.15, 2_000, calm_ticks=400,
                      half_width=1, band=0, reward_fee_bps=800)
    p = CHAIN_PARAMS[4663]
    sim = ChainSim(4663, 56, GENESIS, 5, params=dataclasses.replace(p, vaults=p.vaults + (extra,)))
    sim.generate_history()
    node = RpcNode(sim)
    v = sim.vaults.vaults[-1]
    killed = next(e["timestamp"] for e in v.gauge().timeline if e["kind"] == "killed")
    evs = sim.vault_events(v.address)["events"]
    rebs = [e for e in evs if e["type"] == "rebalance"]
    pool_events = Counter(v.pool.ev_ts)  # the market's events of the pool per timestamp (= block here)
    prev, checked = v.created_ts, 0
    for e in rebs:
        swaps = [s for s in sim.swaps if s.pool is v.pool and prev < s.ts <= e["timestamp"]]
        prev = e["timestamp"]
        if e["timestamp"] < killed:
            assert (e["fees0"], e["fees1"]) == ("0", "0")
            continue
        if any(pool_events[s.ts] > 1 for s in swaps):
            continue  # another pool event in a swap's block: its starting state is not readable
        fees = [0, 0]
        for s in swaps:
            if s.ts < killed:
                continue
            liq, lo, hi = _call(node, v.address, "getPosition()", ["uint128", "int24", "int24"], s.block)
            tick = _call(node, v.pool.address, "slot0()", ["uint160", "int24", "uint16", "uint16", "uint16", "bool"],
                         s.block - 1)[1]
            (pool_liq,) = _call(node, v.pool.address, "liquidity()", ["uint128"], s.block - 1)
            if lo <= tick < hi:
                fees[0 if s.amount0 > 0 else 1] += s.fee_amount * liq // (pool_liq + liq)
        assert [int(e["fees0"]), int(e["fees1"])] == fees
        check_swap_and_conservation(e, _call(node, v.pool.address, "fee()", ["uint24"], e["blockNumber"])[0])
        checked += sum(fees) > 0
    assert checked >= 5
