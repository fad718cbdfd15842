"""The spec's deposit procedure with web3.py against the devnet RPC, using only what the API
returns: manifest addresses, method signatures and the JSON ABIs of include=abi."""
from __future__ import annotations

import pytest
from web3 import Web3
from web3.exceptions import ContractLogicError

CALLER = "0x00000000000000000000000000000000000A11cE"


@pytest.fixture(scope="module")
def cl_vaults(api):
    body = api.get("/vaults", params={"kind": "cl", "include": "integration,abi"}).json()
    return body["meta"]["indexedBlock"], body["data"]


@pytest.fixture(scope="module")
def w3(devnet):
    return Web3(Web3.HTTPProvider(devnet.server.rpc_url(), request_kwargs={"timeout": 30}))


def _contract(w3, manifest, name, address_key):
    return w3.eth.contract(address=manifest["contracts"][address_key], abi=manifest["abi"][name])


def _amounts(vault):
    # a small deposit near the vault's ratio, with 1 % more of token1 (the surplus stays with the caller)
    return int(vault["amount0Raw"]) // 1000, int(vault["amount1Raw"]) // 1000 * 101 // 100


def _pick(vaults, available):
    chosen = [v for v in vaults if v["integration"]["state"]["depositsAvailable"] is available]
    assert chosen, f"no CL vault with depositsAvailable={available} at the head block"
    return chosen[0]


def test_direct_deposit_when_available(cl_vaults, w3):
    block, vaults = cl_vaults
    vault = _pick(vaults, True)
    m = vault["integration"]
    assert m["state"]["isCalm"] and not m["state"]["globalPause"] and not m["state"]["strategyPaused"]
    contract = _contract(w3, m, "vault", "vault")
    assert [a["spender"] for a in m["deposit"]["direct"]["approvals"]] == [m["contracts"]["vault"]] * 2
    assert [a["token"] for a in m["deposit"]["direct"]["approvals"]] == [m["tokens"]["token0"]["address"], m["tokens"]["token1"]["address"]]
    a0, a1 = _amounts(vault)
    preview = contract.get_function_by_signature(m["deposit"]["direct"]["preview"]["method"])
    shares = preview(a0, a1).call(block_identifier=block)
    assert shares > 0
    min_shares = shares * (10000 - m["state"]["slippageBps"]) // 10000
    deposit = contract.get_function_by_signature(m["deposit"]["direct"]["methods"][0])
    got = deposit(a0, a1, min_shares).call({"from": CALLER}, block_identifier=block)
    assert got >= min_shares
    with pytest.raises(ContractLogicError, match="VAULT: slippage"):
        deposit(a0, a1, shares + 1).call({"from": CALLER}, block_identifier=block)


def test_deposit_reverts_when_unavailable(cl_vaults, w3, devnet):
    block, vaults = cl_vaults
    vault = _pick(vaults, False)
    m = vault["integration"]
    truth = {v["key"]: v for v in devnet.truth(block)["vaults"]}[vault["key"]]
    assert truth["depositsAvailable"] is False
    assert (m["state"]["isCalm"], m["state"]["strategyPaused"], m["state"]["globalPause"]) == (
        truth["isCalm"], truth["strategyPaused"], truth["globalPause"])
    contract = _contract(w3, m, "vault", "vault")
    a0, a1 = _amounts(vault)
    deposit = contract.get_function_by_signature(m["deposit"]["direct"]["methods"][0])
    with pytest.raises(ContractLogicError, match="VAULT: (global pause|strategy paused|not calm)"):
        deposit(a0, a1, 0).call({"from": CALLER}, block_identifier=block)
    zapper = _contract(w3, m, "zapper", "zapper")
    zap = zapper.get_function_by_signature(m["deposit"]["zap"]["methods"]["token"])
    with pytest.raises(ContractLogicError, match="VAULT: (global pause|strategy paused|not calm)"):
        zap(m["contracts"]["vault"], m["tokens"]["token0"]["address"], a0, 0).call({"from": CALLER}, block_identifier=block)


def test_zap_quote_and_gas(cl_vaults, w3):
    block, vaults = cl_vaults
    vault = _pick(vaults, True)
    m = vault["integration"]
    zap_info = m["deposit"]["zap"]
    assert [a["spender"] for a in zap_info["approvals"]] == [m["contracts"]["zapper"]] * 2
    zapper = _contract(w3, m, "zapper", "zapper")
    amount_in = int(vault["amount0Raw"]) // 500
    zap = zapper.get_function_by_signature(zap_info["methods"]["token"])
    call = zap(m["contracts"]["vault"], m["tokens"]["token0"]["address"], amount_in, 0)
    quoted = call.call({"from": CALLER}, block_identifier=block)  # the static call is the quote
    assert quoted > 0
    ungated = zapper.get_function_by_signature(zap_info["quote"]["method"])(m["contracts"]["vault"], m["tokens"]["token0"]["address"], amount_in)
    assert ungated.call(block_identifier=block)[0] == quoted
    min_shares = quoted * (10000 - m["state"]["slippageBps"]) // 10000
    guarded = zap(m["contracts"]["vault"], m["tokens"]["token0"]["address"], amount_in, min_shares)
    assert guarded.call({"from": CALLER}, block_identifier=block) >= min_shares
    estimate = guarded.estimate_gas({"from": CALLER}, block_identifier=block)
    gas_limit = max(estimate * zap_info["gas"]["multiplier"], zap_info["gas"]["minimum"])
    assert gas_limit == 2 * estimate and gas_limit >= 3_000_000
    dual = zapper.get_function_by_signature(zap_info["methods"]["dual"])
    assert dual(m["contracts"]["vault"], amount_in, 0, 0).call({"from": CALLER}, block_identifier=block) > 0


def test_manifest_shape_and_withdraw_not_gated(cl_vaults, w3):
    block, vaults = cl_vaults
    for vault in vaults:
        m = vault["integration"]
        assert set(m["contracts"]) == {"vault", "strategy", "pool", "gauge", "zapper", "positionManager", "factory"}
        assert set(m["tokens"]) == {"token0", "token1", "base", "shares"}
        assert m["state"]["depositsAvailable"] == (m["state"]["isCalm"] and not m["state"]["globalPause"] and not m["state"]["strategyPaused"])
        assert m["withdraw"]["gating"] == "none" and m["withdraw"]["approvals"] == []
        assert m["notes"]
        contract = _contract(w3, m, "vault", "vault")
        preview = contract.get_function_by_signature("previewWithdraw(uint256)")
        amounts = preview(int(vault["totalSupplyRaw"]) // 100).call(block_identifier=block)
        assert amounts[0] > 0 or amounts[1] > 0  # works whatever the gating state
