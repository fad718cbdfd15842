"""Chain 56, BNB Smart Chain: the reference chain, with the longest history (420 days by default).

Its tokens, pools, vaults, governance constants and fixed addresses are the ones the product's
tests were written against: for a given seed, genesis and history length its events must stay
bit-identical (tests/devnet pins its fingerprint). Change nothing here but the history length.
"""
from __future__ import annotations

from devnet.addresses import label_address
from devnet.specs import (MULTICALL3, NARROW, STABLE_CL, ChainParams, Deployment, PoolSpec, TokenSpec, VaultSpec,
                          cl_pool, oft_endpoint)

PARAMS = ChainParams(
    chain_id=56,
    genesis_block=40_000_000,
    wrapped_native="WBNB",
    core_symbol="CORE",
    tokens=(
        TokenSpec("CORE", "Core Protocol Token", 18, 0.85, 0.06, contract_key="coreToken",
                  supply=600_000_000),
        TokenSpec("WBNB", "Wrapped BNB", 18, 600.0, 0.03, supply=12_000_000),
        TokenSpec("USDT", "Tether USD", 18, 1.0, 0.0001, stable=True, supply=5e9),
        TokenSpec("USDC", "USD Coin", 6, 1.0, 0.0001, stable=True, supply=2e9),
        TokenSpec("BTCB", "BTCB Token", 8, 95_000.0, 0.025, supply=60_000),
        TokenSpec("ETH", "Ethereum Token", 18, 3_300.0, 0.03, supply=500_000),
        TokenSpec("FDUSD", "First Digital USD", 18, 1.0, 0.00015, stable=True, supply=1e9),
        TokenSpec("CAKE", "PancakeSwap Token", 18, 2.4, 0.05, supply=380_000_000),
        TokenSpec("DOGE", "Dogecoin", 8, 0.32, 0.05, supply=300_000_000),
    ),
    pools=(
        PoolSpec("CORE", "WBNB", "v2-volatile", 3_000, 4_000_000, 8, 1_200, vote_popularity=3.0,
                 bribe_rate=2.0),
        PoolSpec("CORE", "USDT", "v2-volatile", 3_000, 2_500_000, 6, 900, vote_popularity=2.5,
                 bribe_rate=1.5),
        PoolSpec("WBNB", "USDT", "v2-volatile", 3_000, 6_000_000, 10, 2_500, vote_popularity=1.5),
        PoolSpec("CAKE", "WBNB", "v2-volatile", 3_000, 1_200_000, 4, 700, gauge_killed_frac=0.8),
        PoolSpec("DOGE", "WBNB", "v2-volatile", 10_000, 600_000, 2, 400, gauge_killed_frac=0.45,
                 vote_popularity=0.5),
        PoolSpec("USDT", "USDC", "v2-stable", 500, 8_000_000, 7, 5_000, vote_popularity=1.2),
        PoolSpec("USDT", "FDUSD", "v2-stable", 500, 3_000_000, 3, 3_000, created_frac=0.3),
        cl_pool("WBNB", "USDT", 500, 50, 15_000_000, 12, 4_000, positions=NARROW,
            vote_popularity=2.0),
        cl_pool("BTCB", "WBNB", 500, 100, 9_000_000, 6, 5_000, positions=NARROW,
            dynamic_fee=(400, 3_000, 4_000_000)),
        cl_pool("ETH", "WBNB", 500, 100, 7_000_000, 5, 3_500, positions=NARROW),
        cl_pool("USDT", "USDC", 100, 1, 12_000_000, 8, 8_000, positions=STABLE_CL),
        cl_pool("CORE", "WBNB", 3_000, 200, 3_000_000, 5, 1_000, positions=NARROW,
            dynamic_fee=(2_500, 10_000, 6_000_000), vote_popularity=2.5, bribe_rate=1.5),
        cl_pool("BTCB", "USDT", 500, 50, 5_000_000, 4, 4_000, positions=NARROW, custom_fee=250),
        cl_pool("ETH", "USDT", 500, 100, 2_000_000, 3, 2_000, positions=NARROW, created_frac=0.6,
            gauge=False),
    ),
    unpriced_bribes_per_epoch=2.0,
    foundation_balances={"CORE": 5_000_000.0, "USDC": 1_500_000.0, "WBNB": 500.0},
    vaults=(
        VaultSpec("cl-wbnb-usdt", "CL50-WBNB/USDT", 400_000, 0.35, 0.2, 6_000, calm_ticks=90,
                  half_width=6, band=2, reward_fee_bps=500),
        VaultSpec("cl-btcb-wbnb", "CL100-BTCB/WBNB", 250_000, 0.25, 0.15, 8_000, calm_ticks=100,
                  half_width=4, band=1, strategy_pause=(0.40, 0.47), reward_fee_bps=1000),
        VaultSpec("cl-core-wbnb", "CL200-CORE/WBNB", 150_000, 0.3, 0.18, 3_000, calm_ticks=120,
                  half_width=4, band=1, slippage_bps=100, reward_fee_bps=1500),
        VaultSpec("v2-core-wbnb", "vAMM-CORE/WBNB", 200_000, 0.3, 0.18, 2_500, calm_ticks=170,
                  slippage_bps=100, reward_fee_bps=750),
    ),
    vault_global_pause=(0.70, 0.72),
    history_days=420,
)

DEPLOYMENT = Deployment(
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
        "tickLens": label_address(56, "tickLens"),  # added later, a labelled address like other chains'
        "multicall3": MULTICALL3,
    },
    foundation_wallet="0x056c82FbB6e4DC3EF8f6424387ca4c2ad0E801B3",
    bridge=oft_endpoint(56, 30102, 20),  # LayerZero V2 endpoint id, source confirmations
)
