"""Per-chain deployment book: contract addresses and upstream endpoints.

The defaults describe the devnet simulator, which places its contracts at these addresses.
Production overrides any of them through configuration (see core.config), never through code.
"""
from __future__ import annotations

from dataclasses import dataclass, field

MULTICALL3 = "0xcA11bde05977b3631167028862bE2a173976CA11"  # same address on every EVM chain


@dataclass(frozen=True)
class ChainDeployment:
    chain_id: int
    name: str
    network: str
    block_time_seconds: int
    native_symbol: str
    contracts: dict[str, str] = field(default_factory=dict)


# Contract names are the keys readers and the /config route use.
CHAINS: dict[int, ChainDeployment] = {
    56: ChainDeployment(
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
    ),
}

FOUNDATION_WALLET = {56: "0x056c82FbB6e4DC3EF8f6424387ca4c2ad0E801B3"}
STATS_CHAIN_ID = 56
