"""Where the devnet places its contracts, per chain, and the chain book it hands to the product.

The product holds no devnet address: the local stack (and the tests) fetch `GET /book` from a
running devnet and give it to the product as configuration (`CHAIN_BOOK`), exactly as a
production deployment hands over its own book.
"""
from __future__ import annotations

from devnet.addresses import label_address
from devnet.chains import DEPLOYMENTS
from devnet.specs import MULTICALL3, Deployment

# Shared vault-protocol contracts live at keccak("devnet:<chain>:<name>") like every labelled one.
VAULT_CONTRACT_NAMES = ("vaultFactory", "zapper", "positionManager")


def vault_contracts(chain_id: int) -> dict[str, str]:
    return {name: label_address(chain_id, name) for name in VAULT_CONTRACT_NAMES}


def vault_address(chain_id: int, key: str) -> str:
    return label_address(chain_id, f"vault:{key}")


def lp_sugar_address(chain_id: int) -> str:
    """The providers' positions reader (devnet/rpc/liquidity.py), on every chain."""
    return label_address(chain_id, "lpSugar")


def vault_fee_recipient(chain_id: int) -> str:
    """Where every vault strategy of the chain sends its cut of the harvested rewards (an EOA:
    not in the chain book, read from the strategies' `feeRecipient()`)."""
    return label_address(chain_id, "vaultFeeRecipient")


def chain_book(base_url: str, chains: dict[int, dict]) -> dict:
    """The book of the served chains in the product's configuration format (`CHAIN_BOOK`).

    `chains` maps a chain id to what the simulation knows of it (`ChainSim.book_facts()`):
    `vaults` as `{"key", "address", "kind"}` entries, `features` (booleans), `deployedAt` (ISO
    8601 UTC of the genesis) and `startBlock` (the genesis block). Vault fields only on chains
    with vaults; `bridge` ({eid, confirmations, oapp}) on chains whose simulation has bridge messages;
    `xcoreContracts` ({xcore[, xcoreAdapter]}) join `contracts` on chains with xCORE.
    """
    out = []
    for cid, facts in chains.items():
        d = DEPLOYMENTS[cid]
        vaults = facts.get("vaults") or []
        entry = {
            "chainId": cid,
            "name": d.name,
            "network": d.network,
            "blockTimeSeconds": d.block_time_seconds,
            "nativeSymbol": d.native_symbol,
            "subgraphUrl": f"{base_url}/chains/{cid}/subgraph",
            "rpcUrl": f"{base_url}/chains/{cid}/rpc",
            "contracts": {**d.contracts, "lpSugar": lp_sugar_address(cid), **(facts.get("xcoreContracts") or {})},
            "foundationWallet": d.foundation_wallet,
            "features": facts["features"],
            "deployedAt": facts["deployedAt"],
            "startBlock": facts["startBlock"],
        }
        if facts["features"].get("bridge") and d.bridge is not None:
            entry["bridge"] = {"eid": d.bridge.eid, "confirmations": d.bridge.confirmations, "oapp": d.bridge.oapp}
        if vaults:
            entry["vaultContracts"] = vault_contracts(cid)
            entry["vaults"] = vaults
        out.append(entry)
    return {"chains": out}


__all__ = ["DEPLOYMENTS", "MULTICALL3", "Deployment", "VAULT_CONTRACT_NAMES", "chain_book", "lp_sugar_address", "vault_address",
           "vault_contracts", "vault_fee_recipient"]
