"""Chain 5042, Tessera (made up): about 60 days of history, contracts answer at the chain head
but the subgraph lags persistently (it indexes only up to 36 hours behind the head), CL and v2
pools, two vaults."""
from __future__ import annotations

from devnet.specs import NARROW, ChainParams, PoolSpec, TokenSpec, VaultSpec, cl_pool, labelled_deployment, oft_endpoint

PARAMS = ChainParams(
    chain_id=5042,
    genesis_block=2_500_000,
    wrapped_native="WTSR",
    core_symbol="CORE",
    tokens=(
        TokenSpec("CORE", "Core Protocol Token", 18, 0.85, 0.07, contract_key="coreToken", supply=150_000_000),
        TokenSpec("WTSR", "Wrapped Tessera", 18, 0.65, 0.05, supply=2_000_000_000),
        TokenSpec("USDC", "USD Coin", 6, 1.0, 0.0001, stable=True, supply=3e8),
        TokenSpec("USDT", "Tether USD", 18, 1.0, 0.00012, stable=True, supply=3e8),
        TokenSpec("WBTC", "Wrapped BTC", 8, 95_000.0, 0.025, supply=2_000),
    ),
    pools=(
        PoolSpec("CORE", "WTSR", "v2-volatile", 3_000, 1_800_000, 4, 700, vote_popularity=3.0, bribe_rate=1.5),
        PoolSpec("WTSR", "USDT", "v2-volatile", 3_000, 2_500_000, 5, 900),
        PoolSpec("USDC", "USDT", "v2-stable", 500, 3_000_000, 3, 3_000),
        cl_pool("WTSR", "USDC", 500, 50, 4_000_000, 6, 1_500, positions=NARROW, vote_popularity=2.0),
        cl_pool("WBTC", "WTSR", 500, 100, 2_500_000, 3, 3_000, positions=NARROW,
                dynamic_fee=(400, 3_000, 4_000_000)),
        cl_pool("CORE", "USDC", 3_000, 200, 900_000, 3, 600, positions=NARROW, created_frac=0.5,
                gauge_killed_frac=0.85),
    ),
    initial_locks=70,
    locks_per_hour=0.08,
    traders=200,
    voters=140,
    unpriced_bribes_per_epoch=2.0,
    foundation_balances={"CORE": 2_500_000.0, "USDC": 500_000.0, "WTSR": 1_000_000.0},
    vaults=(
        VaultSpec("cl-wtsr-usdc", "CL50-WTSR/USDC", 150_000, 0.3, 0.15, 2_500, calm_ticks=110,
                  half_width=5, band=1, strategy_pause=(0.5, 0.55), reward_fee_bps=500),
        VaultSpec("v2-core-wtsr", "vAMM-CORE/WTSR", 90_000, 0.25, 0.12, 1_500, calm_ticks=170, slippage_bps=100,
                  reward_fee_bps=1200),
    ),
    vault_users=30,
    history_days=60,
    subgraph_lag_seconds=36 * 3600,
)

DEPLOYMENT = labelled_deployment(5042, "Tessera", "tessera", 2, "TSR", cl=True,
                                 bridge=oft_endpoint(5042, 30542, 45))
