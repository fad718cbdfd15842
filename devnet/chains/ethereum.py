"""Chain 1, Ethereum: about 200 days of history, v2 pools only (volatile and stable, no
concentrated liquidity, so no CL factory or fee module), low activity, no vaults."""
from __future__ import annotations

from devnet.specs import ChainParams, PoolSpec, TokenSpec, labelled_deployment, oft_endpoint

PARAMS = ChainParams(
    chain_id=1,
    genesis_block=21_000_000,
    wrapped_native="WETH",
    core_symbol="CORE",
    tokens=(
        TokenSpec("CORE", "Core Protocol Token", 18, 0.85, 0.05, contract_key="coreToken", supply=300_000_000),
        TokenSpec("WETH", "Wrapped Ether", 18, 3_300.0, 0.03, supply=3_000_000),
        TokenSpec("USDC", "USD Coin", 6, 1.0, 0.0001, stable=True, supply=3e10),
        TokenSpec("USDT", "Tether USD", 6, 1.0, 0.0001, stable=True, supply=4e10),
        TokenSpec("DAI", "Dai Stablecoin", 18, 1.0, 0.00015, stable=True, supply=5e9),
        TokenSpec("WBTC", "Wrapped BTC", 8, 95_000.0, 0.025, supply=150_000),
        TokenSpec("LINK", "ChainLink Token", 18, 18.0, 0.045, supply=1_000_000_000),
    ),
    pools=(
        PoolSpec("CORE", "WETH", "v2-volatile", 3_000, 3_000_000, 2.5, 4_000, vote_popularity=3.0, bribe_rate=1.5),
        PoolSpec("WETH", "USDC", "v2-volatile", 3_000, 10_000_000, 3, 9_000, vote_popularity=1.5),
        PoolSpec("WBTC", "WETH", "v2-volatile", 3_000, 6_000_000, 1.5, 12_000),
        PoolSpec("LINK", "WETH", "v2-volatile", 3_000, 1_500_000, 0.8, 3_000, gauge_killed_frac=0.6,
                 gauge_revived_frac=0.8),
        PoolSpec("USDC", "USDT", "v2-stable", 100, 12_000_000, 2, 20_000, vote_popularity=1.2),
        PoolSpec("USDC", "DAI", "v2-stable", 100, 5_000_000, 1, 15_000, created_frac=0.4),
    ),
    initial_locks=60,
    locks_per_hour=0.04,
    lock_median=20_000.0,
    bribe_median_usd=6_000.0,
    traders=150,
    voters=120,
    foundation_balances={"CORE": 3_000_000.0, "USDC": 800_000.0, "WETH": 60.0},
    history_days=200,
)

DEPLOYMENT = labelled_deployment(1, "Ethereum", "ethereum", 12, "ETH", cl=False,
                                 bridge=oft_endpoint(1, 30101, 15))
