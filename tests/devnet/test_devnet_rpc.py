"""The JSON-RPC endpoint as web3.py sees it: blocks, contract calls, Multicall3, time travel."""
from __future__ import annotations

import pytest
from eth_abi import decode, encode
from eth_utils import keccak
from web3 import Web3
from web3.exceptions import ContractLogicError, Web3RPCError

from devnet.deployments import DEPLOYMENTS, MULTICALL3
from devnet.timeutil import DAY, epoch_start

VOTER_ABI = [
    {"name": "length", "type": "function", "stateMutability": "view", "inputs": [],
     "outputs": [{"name": "", "type": "uint256"}]},
    {"name": "pools", "type": "function", "stateMutability": "view", "inputs": [{"name": "", "type": "uint256"}],
     "outputs": [{"name": "", "type": "address"}]},
    {"name": "gauges", "type": "function", "stateMutability": "view", "inputs": [{"name": "", "type": "address"}],
     "outputs": [{"name": "", "type": "address"}]},
    {"name": "isAlive", "type": "function", "stateMutability": "view", "inputs": [{"name": "", "type": "address"}],
     "outputs": [{"name": "", "type": "bool"}]},
    {"name": "totalWeight", "type": "function", "stateMutability": "view", "inputs": [],
     "outputs": [{"name": "", "type": "uint256"}]},
    {"name": "weights", "type": "function", "stateMutability": "view", "inputs": [{"name": "", "type": "address"}],
     "outputs": [{"name": "", "type": "uint256"}]},
]
VE_ABI = [
    {"name": "locked", "type": "function", "stateMutability": "view", "inputs": [{"name": "", "type": "uint256"}],
     "outputs": [{"name": "", "type": "tuple", "components": [
         {"name": "amount", "type": "int128"}, {"name": "end", "type": "uint256"},
         {"name": "isPermanent", "type": "bool"}]}]},
    {"name": "supply", "type": "function", "stateMutability": "view", "inputs": [],
     "outputs": [{"name": "", "type": "uint256"}]},
    {"name": "totalSupply", "type": "function", "stateMutability": "view", "inputs": [],
     "outputs": [{"name": "", "type": "uint256"}]},
    {"name": "balanceOfNFT", "type": "function", "stateMutability": "view",
     "inputs": [{"name": "", "type": "uint256"}], "outputs": [{"name": "", "type": "uint256"}]},
    {"name": "ownerOf", "type": "function", "stateMutability": "view", "inputs": [{"name": "", "type": "uint256"}],
     "outputs": [{"name": "", "type": "address"}]},
]
ERC20_ABI = [
    {"name": n, "type": "function", "stateMutability": "view", "inputs": [], "outputs": [{"name": "", "type": t}]}
    for n, t in (("symbol", "string"), ("decimals", "uint8"), ("totalSupply", "uint256"), ("name", "string"))
] + [{"name": "balanceOf", "type": "function", "stateMutability": "view",
      "inputs": [{"name": "", "type": "address"}], "outputs": [{"name": "", "type": "uint256"}]}]
MULTICALL_ABI = [
    {"name": "aggregate3", "type": "function", "stateMutability": "payable",
     "inputs": [{"name": "calls", "type": "tuple[]", "components": [
         {"name": "target", "type": "address"}, {"name": "allowFailure", "type": "bool"},
         {"name": "callData", "type": "bytes"}]}],
     "outputs": [{"name": "returnData", "type": "tuple[]", "components": [
         {"name": "success", "type": "bool"}, {"name": "returnData", "type": "bytes"}]}]},
    {"name": "getBlockNumber", "type": "function", "stateMutability": "view", "inputs": [],
     "outputs": [{"name": "", "type": "uint256"}]},
    {"name": "getCurrentBlockTimestamp", "type": "function", "stateMutability": "view", "inputs": [],
     "outputs": [{"name": "", "type": "uint256"}]},
]


def sel(signature: str) -> bytes:
    return keccak(text=signature)[:4]


@pytest.fixture(scope="module")
def w3(devnet_server):
    return Web3(Web3.HTTPProvider(devnet_server.rpc_url(56), request_kwargs={"timeout": 30}))


def test_chain_and_blocks(w3, sim):
    head = sim.head()
    assert w3.eth.chain_id == 56
    assert w3.net.version == "56"
    assert w3.eth.block_number == head
    latest = w3.eth.get_block("latest")
    assert latest["number"] == head and latest["timestamp"] == sim.block_ts(head)
    old = w3.eth.get_block(head - 1000)
    assert old["timestamp"] == sim.block_ts(head) - 1000 * 3
    assert old["hash"].hex().removeprefix("0x") == sim.block_hash(head - 1000)[2:]
    assert w3.eth.get_block(head - 999)["parentHash"] == old["hash"]
    assert w3.eth.get_block("finalized")["number"] <= head
    assert w3.eth.get_block(old["hash"])["number"] == head - 1000
    assert w3.eth.gas_price > 0
    assert w3.eth.get_balance(Web3.to_checksum_address(sim.foundation_wallet)) > 0


def test_contract_calls(w3, sim):
    c = DEPLOYMENTS[56].contracts
    voter = w3.eth.contract(address=c["voter"], abi=VOTER_ABI)
    n = voter.functions.length().call()
    gauges_now = sim.gov.gauges_at(sim.block_ts(sim.head()))
    assert n == len(gauges_now) > 0
    pool0 = voter.functions.pools(0).call()
    gauge0 = voter.functions.gauges(pool0).call()
    assert gauge0.lower() == gauges_now[0].id
    assert voter.functions.totalWeight().call() == sim.gov.total_weight(sim.block_ts(sim.head()))
    ve = w3.eth.contract(address=c["votingEscrow"], abi=VE_ABI)
    amount, end, permanent = ve.functions.locked(1).call()
    assert permanent and end == 0 and amount > 0
    assert ve.functions.ownerOf(1).call().lower() == sim.foundation_wallet.lower()
    assert ve.functions.balanceOfNFT(1).call() == amount
    core = w3.eth.contract(address=c["coreToken"], abi=ERC20_ABI)
    assert core.functions.symbol().call() == "CORE" and core.functions.decimals().call() == 18
    assert core.functions.balanceOf(c["votingEscrow"]).call() == ve.functions.supply().call()
    pool = next(p for p in sim.pools if p.kind == "v2-volatile")
    reserves = w3.eth.call({"to": pool.address, "data": "0x" + sel("getReserves()").hex()})
    r0, r1, _last = decode(["uint256", "uint256", "uint256"], reserves)
    st = pool.state_at(sim.block_ts(sim.head()))
    assert (r0, r1) == (st.reserve0, st.reserve1)
    t0 = w3.eth.contract(address=pool.token0.address, abi=ERC20_ABI)
    assert t0.functions.balanceOf(pool.address).call() == r0
    with pytest.raises(ContractLogicError):
        w3.eth.call({"to": c["voter"], "data": "0x" + sel("doesNotExist()").hex()})
    with pytest.raises(ContractLogicError):
        w3.eth.call({"to": Web3.to_checksum_address("0x" + "12" * 20), "data": "0x" + sel("length()").hex()})


def test_cl_pool_and_fee_module(w3, sim):
    c = DEPLOYMENTS[56].contracts
    ts = sim.block_ts(sim.head())
    dyn = next(p for p in sim.pools if p.is_dynamic)
    out = w3.eth.call({"to": dyn.address, "data": "0x" + sel("slot0()").hex()})
    sqrt_p, tick, *_rest = decode(["uint160", "int24", "uint16", "uint16", "uint16", "bool"], out)
    st = dyn.state_at(ts)
    assert (sqrt_p, tick) == (st.sqrt_price, st.tick)
    liq = decode(["uint128"], w3.eth.call({"to": dyn.address, "data": "0x" + sel("liquidity()").hex()}))[0]
    assert liq == st.liquidity
    fee = decode(["uint24"], w3.eth.call({"to": c["dynamicFeeModule"],
                                          "data": "0x" + (sel("getFee(address)") + encode(["address"], [dyn.address])).hex()}))[0]
    assert fee == dyn.fee_at(ts) == decode(["uint24"], w3.eth.call({"to": dyn.address, "data": "0x" + sel("fee()").hex()}))[0]
    cfg = decode(["(uint24,uint24,uint64)"], w3.eth.call({"to": c["dynamicFeeModule"],
                  "data": "0x" + (sel("feeConfig(address)") + encode(["address"], [dyn.address])).hex()}))[0]
    assert cfg == dyn.spec.dynamic_fee
    custom = next(p for p in sim.pools if p.is_custom)
    cf = decode(["uint24"], w3.eth.call({"to": c["dynamicFeeModule"],
                 "data": "0x" + (sel("customFee(address)") + encode(["address"], [custom.address])).hex()}))[0]
    assert cf == custom.spec.custom_fee


def test_multicall3_aggregate3(w3, sim):
    c = DEPLOYMENTS[56].contracts
    mc = w3.eth.contract(address=MULTICALL3, abi=MULTICALL_ABI)
    calls = [
        (c["voter"], False, sel("length()")),
        (c["minter"], False, sel("weekly()")),
        (c["minter"], False, sel("activePeriod()")),
        (c["votingEscrow"], False, sel("totalSupply()")),
        (c["voter"], True, sel("nope()")),
        (MULTICALL3, False, sel("getCurrentBlockTimestamp()")),
    ]
    res = mc.functions.aggregate3(calls).call()
    assert [ok for ok, _ in res] == [True, True, True, True, False, True]
    ts = sim.block_ts(sim.head())
    assert decode(["uint256"], res[0][1])[0] == len(sim.gov.gauges_at(ts))
    assert decode(["uint256"], res[1][1])[0] == sim.gov.weekly_at(ts)
    assert decode(["uint256"], res[2][1])[0] == epoch_start(ts)
    assert decode(["uint256"], res[3][1])[0] == sim.gov.ve_totals(ts)[1]
    assert decode(["uint256"], res[5][1])[0] == ts
    with pytest.raises(ContractLogicError):
        mc.functions.aggregate3([(c["voter"], False, sel("nope()"))]).call()
    assert mc.functions.getBlockNumber().call() == sim.head()


def test_calls_at_a_past_block(w3, sim):
    c = DEPLOYMENTS[56].contracts
    head = sim.head()
    past = head - 4 * DAY // sim.block_time
    ve = w3.eth.contract(address=c["votingEscrow"], abi=VE_ABI)
    now_supply = ve.functions.supply().call()
    past_supply = ve.functions.supply().call(block_identifier=past)
    assert past_supply == sim.gov.ve_totals(sim.block_ts(past))[0] != now_supply
    pool = sim.pools[0]
    data = "0x" + sel("getReserves()").hex()
    r_now = decode(["uint256", "uint256", "uint256"], w3.eth.call({"to": pool.address, "data": data}))
    r_past = decode(["uint256", "uint256", "uint256"], w3.eth.call({"to": pool.address, "data": data}, past))
    assert r_now != r_past
    st = pool.state_at(sim.block_ts(past))
    assert r_past[:2] == (st.reserve0, st.reserve1)
    # a pool that did not exist yet has no code and its calls revert
    late = next(p for p in sim.pools if p.created_ts > sim.genesis_ts)
    before = late.created_block - 1
    assert w3.eth.get_code(late.address, before) == b""
    assert len(w3.eth.get_code(late.address)) > 0
    with pytest.raises(ContractLogicError):
        w3.eth.call({"to": late.address, "data": data}, before)
    with pytest.raises(Web3RPCError, match="header not found"):
        w3.eth.call({"to": pool.address, "data": data}, head + 100)


def test_batch_requests(w3, sim):
    head = sim.head()
    c = DEPLOYMENTS[56].contracts
    voter = w3.eth.contract(address=c["voter"], abi=VOTER_ABI)
    with w3.batch_requests() as batch:
        batch.add(w3.eth.get_block(head - 10))
        batch.add(w3.eth.get_block(head))
        batch.add(voter.functions.length())
        results = batch.execute()
    assert results[0]["number"] == head - 10 and results[1]["number"] == head
    assert results[2] == len(sim.gov.gauges_at(sim.block_ts(head)))
