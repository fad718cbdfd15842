"""Chain 8453, Base: about 150 days of history, every pool kind, high activity, no vaults."""
from __future__ import annotations

from devnet.specs import NARROW, STABLE_CL, ChainParams, PoolSpec, TokenSpec, cl_pool, labelled_deployment, oft_endpoint

PARAMS = ChainParams(
    chain_id=8453,
    genesis_block=28_000_000,
    wrapped_native="WETH",
    core_symbol="CORE",
    tokens=(
        TokenSpec("CORE", "Core Protocol Token", 18, 0.85, 0.06, contract_key="coreToken", supply=400_000_000),
        TokenSpec("WETH", "Wrapped Ether", 18, 3_300.0, 0.03, supply=2_000_000),
        TokenSpec("USDC", "USD Coin", 6, 1.0, 0.0001, stable=True, supply=4e9),
        TokenSpec("DAI", "Dai Stablecoin", 18, 1.0, 0.00015, stable=True, supply=8e8),
        TokenSpec("USDbC", "USD Base Coin", 6, 1.0, 0.0002, stable=True, supply=1e8),
        TokenSpec("cbBTC", "Coinbase Wrapped BTC", 8, 95_000.0, 0.025, supply=30_000),
        TokenSpec("DEGEN", "Degen", 18, 0.012, 0.08, supply=30_000_000_000),
        TokenSpec("BRETT", "Brett", 18, 0.09, 0.07, supply=10_000_000_000),
    ),
    pools=(
        PoolSpec("CORE", "WETH", "v2-volatile", 3_000, 5_000_000, 10, 1_500, vote_popularity=3.0, bribe_rate=2.0),
        PoolSpec("CORE", "USDC", "v2-volatile", 3_000, 2_000_000, 7, 900, vote_popularity=2.0, bribe_rate=1.5),
        PoolSpec("WETH", "USDC", "v2-volatile", 3_000, 8_000_000, 12, 2_500, vote_popularity=1.5),
        PoolSpec("DEGEN", "WETH", "v2-volatile", 10_000, 900_000, 7, 350, gauge_killed_frac=0.55,
                 gauge_revived_frac=0.75),
        PoolSpec("BRETT", "WETH", "v2-volatile", 10_000, 700_000, 6, 300, created_frac=0.35),
        PoolSpec("USDC", "DAI", "v2-stable", 500, 6_000_000, 6, 5_000, vote_popularity=1.2),
        PoolSpec("USDC", "USDbC", "v2-stable", 100, 2_000_000, 3, 3_000, gauge_killed_frac=0.7),
        cl_pool("WETH", "USDC", 500, 100, 20_000_000, 16, 4_000, positions=NARROW,
                dynamic_fee=(400, 3_000, 4_000_000), vote_popularity=2.0),
        cl_pool("cbBTC", "WETH", 500, 100, 9_000_000, 8, 5_000, positions=NARROW),
        cl_pool("cbBTC", "USDC", 500, 100, 6_000_000, 6, 4_000, positions=NARROW, custom_fee=300),
        cl_pool("USDC", "DAI", 100, 1, 10_000_000, 8, 8_000, positions=STABLE_CL),
        cl_pool("CORE", "WETH", 3_000, 200, 3_000_000, 6, 1_000, positions=NARROW,
                dynamic_fee=(2_500, 10_000, 6_000_000), vote_popularity=2.5, bribe_rate=1.5),
        cl_pool("DEGEN", "USDC", 10_000, 200, 800_000, 4, 300, positions=NARROW, created_frac=0.5, gauge=False),
    ),
    initial_locks=160,
    locks_per_hour=0.2,
    traders=600,
    voters=320,
    unpriced_bribes_per_epoch=2.0,
    foundation_balances={"CORE": 4_000_000.0, "USDC": 1_000_000.0, "WETH": 100.0},
    history_days=150,
)

DEPLOYMENT = labelled_deployment(8453, "Base", "base", 2, "ETH", cl=True,
                                 bridge=oft_endpoint(8453, 30184, 45))
