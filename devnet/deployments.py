"""Where the devnet places its contracts, per chain, and the chain book it hands to the product.

The product holds no devnet address: the local stack (and the tests) fetch `GET /book` from a
running devnet and give it to the product as configuration (`CHAIN_BOOK`), exactly as a
production deployment hands over its own book.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from devnet.addresses import label_address

MULTICALL3 = "0xcA11bde05977b3631167028862bE2a173976CA11"  # the same address on every EVM chain


@dataclass(frozen=True)
class Deployment:
    chain_id: int
    name: str
    network: str
    block_time_seconds: int
    native_symbol: str
    contracts: dict[str, str] = field(default_factory=dict)
    foundation_wallet: str = ""


DEPLOYMENTS: dict[int, Deployment] = {
    56: Deployment(
        chain_id=56,
        name="BNB Smart Chain",
        network="bsc",
        block_time_seconds=3,
        native_symbol="BNB",
        contracts={
            "voter": "0x3B70E3CaAE5C111FF7Af053393A9988fFdaf24b0",
            "minter": "0xf32E2F4dd2fcA08E33C74Bd68f5d0d367B452081",
            "votingEscrow": "0xDEAC3c2895D810A3E6dF0fa51F67394A445fE4a8",
            "coreToken": "0x7bE6F408Ec5ed9136Bf01017dcB3d99847a57eE1",
            "rewardsDistributor": "0x8A9A232D69a9Bf7bc657F146e58Cb6644e821519",
            "v2Factory": "0x6bEFb5D2a56b38Ad0BBE09189F011a6F525985AC",
            "clFactory": "0xfcDDAaB484d0efDc36acdEc8CE8f9675fFB5cb32",
            "dynamicFeeModule": "0x176C9FfF62C96fA4502D1840216c6F8601Aadab0",
            "router": "0xAdA129ed0F0EBeAE0D06A56eBc1cd87BF119C613",
            "multicall3": MULTICALL3,
        },
        foundation_wallet="0x056c82FbB6e4DC3EF8f6424387ca4c2ad0E801B3",
    ),
}

# Shared vault-protocol contracts live at keccak("devnet:<chain>:<name>") like every labelled one.
VAULT_CONTRACT_NAMES = ("vaultFactory", "zapper", "positionManager")


def vault_contracts(chain_id: int) -> dict[str, str]:
    return {name: label_address(chain_id, name) for name in VAULT_CONTRACT_NAMES}


def vault_address(chain_id: int, key: str) -> str:
    return label_address(chain_id, f"vault:{key}")


def chain_book(base_url: str, chains: dict[int, list[dict]]) -> dict:
    """The book of the served chains in the product's configuration format (`CHAIN_BOOK`).

    `chains` maps a chain id to its vaults as `{"key", "address", "kind"}` entries.
    """
    out = []
    for cid, vaults in chains.items():
        d = DEPLOYMENTS[cid]
        out.append({
            "chainId": cid,
            "name": d.name,
            "network": d.network,
            "blockTimeSeconds": d.block_time_seconds,
            "nativeSymbol": d.native_symbol,
            "subgraphUrl": f"{base_url}/chains/{cid}/subgraph",
            "rpcUrl": f"{base_url}/chains/{cid}/rpc",
            "contracts": dict(d.contracts),
            "foundationWallet": d.foundation_wallet,
            "vaultContracts": vault_contracts(cid) if vaults else {},
            "vaults": vaults,
        })
    return {"chains": out}
