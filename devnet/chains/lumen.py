"""Chain 4663, Lumen (made up): a young chain, 5 days of market activity before now (an override
of the history length never makes it older), 1-second blocks, CL and v2 pools, two vaults."""
from __future__ import annotations

from devnet.specs import (NARROW, STABLE_CL, ChainParams, PoolSpec, TokenSpec, VaultSpec, cl_pool, labelled_deployment,
                          oft_endpoint)

PARAMS = ChainParams(
    chain_id=4663,
    genesis_block=1_200_000,
    wrapped_native="WLUM",
    core_symbol="CORE",
    tokens=(
        TokenSpec("CORE", "Core Protocol Token", 18, 0.85, 0.08, contract_key="coreToken", supply=100_000_000),
        TokenSpec("WLUM", "Wrapped Lumen", 18, 2.4, 0.06, supply=500_000_000),
        TokenSpec("USDC", "USD Coin", 6, 1.0, 0.0001, stable=True, supply=2e8),
        TokenSpec("USDT", "Tether USD", 6, 1.0, 0.0001, stable=True, supply=2e8),
        TokenSpec("WETH", "Wrapped Ether", 18, 3_300.0, 0.03, supply=50_000),
    ),
    pools=(
        PoolSpec("CORE", "WLUM", "v2-volatile", 3_000, 1_500_000, 5, 600, vote_popularity=3.0, bribe_rate=1.5),
        PoolSpec("WLUM", "USDC", "v2-volatile", 3_000, 2_000_000, 6, 800),
        PoolSpec("USDC", "USDT", "v2-stable", 100, 2_500_000, 3, 2_000),
        cl_pool("WLUM", "USDC", 500, 50, 4_000_000, 8, 1_500, positions=NARROW,
                dynamic_fee=(400, 5_000, 5_000_000), vote_popularity=2.0),
        cl_pool("WETH", "WLUM", 500, 100, 2_000_000, 4, 2_000, positions=NARROW, gauge_killed_frac=0.6),
        cl_pool("USDC", "USDT", 100, 1, 3_000_000, 4, 4_000, positions=STABLE_CL, custom_fee=50),
        cl_pool("CORE", "USDC", 3_000, 200, 800_000, 3, 500, positions=NARROW, created_frac=0.4),
    ),
    initial_locks=40,
    locks_per_hour=0.3,
    traders=200,
    voters=100,
    foundation_balances={"CORE": 2_000_000.0, "USDC": 300_000.0, "WLUM": 100_000.0},
    vaults=(
        VaultSpec("cl-wlum-usdc", "CL50-WLUM/USDC", 120_000, 0.5, 0.25, 2_000, calm_ticks=120,
                  half_width=5, band=1, reward_fee_bps=1000),
        VaultSpec("v2-core-wlum", "vAMM-CORE/WLUM", 80_000, 0.4, 0.2, 1_500, calm_ticks=170, slippage_bps=100,
                  reward_fee_bps=1500),
    ),
    vault_users=25,
    history_days=5,
    max_history_days=5,
)

DEPLOYMENT = labelled_deployment(4663, "Lumen", "lumen", 1, "LUM", cl=True,
                                 bridge=oft_endpoint(4663, 30663, 90))
