"""The chain book as configuration: parsing, validation and per-entry environment overrides."""
from __future__ import annotations

import json

import pytest

from ve_analytics.core.chains import MULTICALL3, ChainBookError, load_book

VAULT = "0x9bCabfFEeAf1365d3e1Ddc4c7f3CA283033f49E9"
ENTRY = {
    "chainId": 56, "name": "BNB Smart Chain", "network": "bsc", "blockTimeSeconds": 3, "nativeSymbol": "BNB",
    "subgraphUrl": "http://graph/56", "rpcUrl": "http://rpc/56",
    "contracts": {"voter": "0x3B70E3CaAE5C111FF7Af053393A9988fFdaf24b0"},
    "foundationWallet": "0x056c82FbB6e4DC3EF8f6424387ca4c2ad0E801B3",
    "vaultContracts": {"zapper": "0x16c9892BFA06f621E9Af97dC52280d052a6d99b6"},
    "vaults": [{"key": "cl-a", "address": VAULT.lower(), "kind": "cl"}],
}


def _book(tmp_path, *entries) -> object:
    path = tmp_path / "book.json"
    path.write_text(json.dumps({"chains": list(entries)}))
    return path


def test_book_entries_become_chain_configs(tmp_path):
    chain = load_book(_book(tmp_path, ENTRY), {})[56]
    assert (chain.name, chain.network, chain.subgraph_url, chain.rpc_url) == ("BNB Smart Chain", "bsc", "http://graph/56", "http://rpc/56")
    assert chain.contracts == {"voter": ENTRY["contracts"]["voter"], "multicall3": MULTICALL3}
    assert [(v.key, v.address, v.kind) for v in chain.vaults] == [("cl-a", VAULT, "cl")]  # EIP-55
    assert chain.vault_contracts == ENTRY["vaultContracts"] and chain.foundation_wallet == ENTRY["foundationWallet"]


def test_environment_overrides_one_entry(tmp_path):
    vaults = tmp_path / "vaults.json"
    vaults.write_text(json.dumps([{"key": "x", "address": VAULT, "kind": "v2"}]))
    env = {"RPC_URL_56": "http://other-rpc", "CHAIN_56_VOTER": "0x" + "11" * 20, "VAULTS_56": str(vaults)}
    chain = load_book(_book(tmp_path, ENTRY), env)[56]
    assert chain.rpc_url == "http://other-rpc" and chain.subgraph_url == "http://graph/56"
    assert chain.contracts["voter"] == "0x" + "11" * 20
    assert [(v.key, v.kind) for v in chain.vaults] == [("x", "v2")]


def test_a_missing_book_is_empty_and_a_malformed_one_names_the_entry(tmp_path):
    assert load_book(tmp_path / "absent.json", {}) == {}
    with pytest.raises(ChainBookError, match="entry 0.*subgraphUrl"):
        load_book(_book(tmp_path, {"chainId": 56, "rpcUrl": "x"}), {})
    with pytest.raises(ChainBookError, match="entry 0.*kind"):
        load_book(_book(tmp_path, {**ENTRY, "vaults": [{"key": "v", "address": VAULT, "kind": "v3"}]}), {})
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(ChainBookError, match="not JSON"):
        load_book(tmp_path / "bad.json", {})


def test_a_bridge_entry_gives_the_chain_its_endpoint_and_finality(tmp_path):
    oapp = "0x7A1b2C3d4E5f60718293A4b5C6d7E8f901234567"
    plain, bridged = load_book(_book(tmp_path, ENTRY, {**ENTRY, "chainId": 8453, "blockTimeSeconds": 2,
                                                       "bridge": {"eid": 30184, "confirmations": 10, "oapp": oapp}}),
                               {}).values()
    assert (plain.bridge, plain.has_bridge, plain.finality_seconds) == (None, False, 0)
    assert (bridged.bridge.eid, bridged.bridge.oapp, bridged.has_bridge, bridged.finality_seconds) == (
        30184, oapp.lower(), True, 20)
    off = load_book(_book(tmp_path, {**ENTRY, "bridge": {"eid": 1, "confirmations": 1, "oapp": oapp},
                                     "features": {"pools": True}}), {})[56]
    assert off.bridge is not None and not off.has_bridge  # the feature left out: no bridge assets
    with pytest.raises(ChainBookError, match="entry 0.*bridge must be an object"):
        load_book(_book(tmp_path, {**ENTRY, "bridge": 30102}), {})
    with pytest.raises(ChainBookError, match="entry 0.*confirmations"):
        load_book(_book(tmp_path, {**ENTRY, "bridge": {"eid": 1, "oapp": oapp}}), {})


def test_xcore_needs_its_token_named_and_the_canonical_chain_its_adapter(tmp_path):
    token, adapter = "0x" + "ab" * 20, "0x" + "cd" * 20
    entries = (ENTRY, {**ENTRY, "chainId": 8453, "contracts": {"xcore": token}},
               {**ENTRY, "chainId": 4663, "contracts": {"xcore": token, "xcoreAdapter": adapter}},
               {**ENTRY, "chainId": 1, "contracts": {"xcore": token, "xcoreAdapter": adapter},
                "features": {"pools": True}})
    book = load_book(_book(tmp_path, *entries), {})
    assert {cid: (c.has_xcore, c.xcore_canonical) for cid, c in book.items()} == {
        56: (False, False), 8453: (True, False), 4663: (True, True), 1: (False, False)}
    with pytest.raises(ChainBookError, match="unknown feature"):
        load_book(_book(tmp_path, {**ENTRY, "features": {"xCORE": True}}), {})
