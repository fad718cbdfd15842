"""Per-chain simulation parameters: one table, one entry per chain.

Adding a chain (4663, 8453, 1, 5042) means adding a `ChainParams` entry here (and its contract
book in core.chains); nothing else in the devnet is chain-specific. Prices are USD, sizes are
USD, fees are pips (1e6 = 100%), rates are events per hour at scale 1.
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class TokenSpec:
    symbol: str
    name: str
    decimals: int
    price: float  # initial USD price
    daily_vol: float  # log-price volatility per day (for stables: size of the peg noise)
    stable: bool = False
    contract_key: str | None = None  # take the address from the deployment's contracts[...]
    supply: float = 1e9  # human units (the core token's supply grows with emissions)


@dataclass(frozen=True)
class PoolSpec:
    token_a: str
    token_b: str
    kind: str  # "v2-volatile" | "v2-stable" | "cl"
    fee: int  # pips; for dynamic pools the base fee, for custom-fee pools the tick-spacing default
    tvl_usd: float
    swaps_per_hour: float
    median_swap_usd: float
    tick_spacing: int | None = None
    gauge: bool = True
    created_frac: float = 0.0  # creation time as a fraction of the history (0 = at genesis)
    gauge_killed_frac: float | None = None
    dynamic_fee: tuple[int, int, int] | None = None  # (baseFee, feeCap, scalingFactor)
    custom_fee: int | None = None
    # CL liquidity layout: (half width in tick spacings or None for full range, share of TVL)
    positions: tuple[tuple[int | None, float], ...] = ()
    vote_popularity: float = 1.0
    bribe_rate: float = 1.0  # mean third-party bribes per epoch

    @property
    def label(self) -> str:
        tag = {"v2-volatile": "vAMM", "v2-stable": "sAMM", "cl": f"CL{self.tick_spacing}"}[self.kind]
        return f"{tag}-{self.token_a}/{self.token_b}"


@dataclass(frozen=True)
class VaultSpec:
    """An auto-managed liquidity vault over an existing pool (see devnet/sim/vaults.py).

    The address is keccak("devnet:<chain>:vault:<key>") (devnet.deployments); `pool` is a PoolSpec label.
    """

    key: str
    pool: str
    seed_usd: float  # the deployer's first deposit (share price starts at $1)
    deposits_per_hour: float
    withdrawals_per_hour: float
    median_deposit_usd: float
    calm_ticks: int  # isCalm: |tick(t) - tick(t - calm_window)| <= calm_ticks
    calm_window: int = 3600
    half_width: int = 5  # CL range: tick spacings on each side of the current one
    band: int = 1  # CL inner band: spacings trimmed off each edge; outside it a rebalance is due
    harvest_per_hour: float = 0.15
    slippage_bps: int = 50
    strategy_pause: tuple[float, float] | None = None  # fractions of the history


@dataclass(frozen=True)
class ChainParams:
    chain_id: int
    genesis_block: int
    wrapped_native: str  # symbol of the wrapped native token ("ETH" in subgraph terms)
    core_symbol: str
    tokens: tuple[TokenSpec, ...]
    pools: tuple[PoolSpec, ...]
    # governance
    initial_weekly: float = 5_000_000.0  # core tokens emitted in the genesis epoch
    weekly_decay_bps: int = 9_900  # weekly = weekly * 9900 / 10000 at each epoch flip
    initial_locks: int = 120
    locks_per_hour: float = 0.12
    lock_median: float = 8_000.0
    lock_increase_per_hour: float = 0.05
    lock_extend_per_hour: float = 0.03
    lock_permanent_per_hour: float = 0.01
    withdraw_per_hour: float = 0.03
    permanent_share: float = 0.2
    vote_probability: float = 0.85
    claim_probability: float = 0.6
    bribe_median_usd: float = 2_500.0
    # the foundation: its veNFTs (amount, permanent, lock years) are the first token ids
    foundation_locks: tuple[tuple[float, bool, float], ...] = ((2_000_000.0, True, 0.0),
                                                               (1_500_000.0, True, 0.0),
                                                               (1_000_000.0, False, 4.0))
    foundation_bribe_tokens: tuple[str, ...] = ("CORE", "USDC")
    foundation_bribes_per_epoch: tuple[int, int] = (3, 5)
    foundation_bribe_usd: tuple[float, float] = (5_000.0, 30_000.0)
    foundation_balances: dict[str, float] = field(default_factory=dict)
    traders: int = 400
    voters: int = 250
    vaults: tuple[VaultSpec, ...] = ()
    vault_users: int = 40
    vault_global_pause: tuple[float, float] | None = None  # fractions of the history


def _cl(a, b, fee, spacing, tvl, rate, median, **kw):
    return PoolSpec(a, b, "cl", fee, tvl, rate, median, tick_spacing=spacing, **kw)


_NARROW = ((None, 0.3), (4, 0.15), (12, 0.2), (30, 0.2), (80, 0.15))
_STABLE_CL = ((None, 0.1), (2, 0.4), (5, 0.3), (20, 0.2))

BSC = ChainParams(
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
        _cl("WBNB", "USDT", 500, 50, 15_000_000, 12, 4_000, positions=_NARROW,
            vote_popularity=2.0),
        _cl("BTCB", "WBNB", 500, 100, 9_000_000, 6, 5_000, positions=_NARROW,
            dynamic_fee=(400, 3_000, 4_000_000)),
        _cl("ETH", "WBNB", 500, 100, 7_000_000, 5, 3_500, positions=_NARROW),
        _cl("USDT", "USDC", 100, 1, 12_000_000, 8, 8_000, positions=_STABLE_CL),
        _cl("CORE", "WBNB", 3_000, 200, 3_000_000, 5, 1_000, positions=_NARROW,
            dynamic_fee=(2_500, 10_000, 6_000_000), vote_popularity=2.5, bribe_rate=1.5),
        _cl("BTCB", "USDT", 500, 50, 5_000_000, 4, 4_000, positions=_NARROW, custom_fee=250),
        _cl("ETH", "USDT", 500, 100, 2_000_000, 3, 2_000, positions=_NARROW, created_frac=0.6,
            gauge=False),
    ),
    foundation_balances={"CORE": 5_000_000.0, "USDC": 1_500_000.0, "WBNB": 500.0},
    vaults=(
        VaultSpec("cl-wbnb-usdt", "CL50-WBNB/USDT", 400_000, 0.35, 0.2, 6_000, calm_ticks=90,
                  half_width=6, band=2),
        VaultSpec("cl-btcb-wbnb", "CL100-BTCB/WBNB", 250_000, 0.25, 0.15, 8_000, calm_ticks=100,
                  half_width=4, band=1, strategy_pause=(0.40, 0.47)),
        VaultSpec("cl-core-wbnb", "CL200-CORE/WBNB", 150_000, 0.3, 0.18, 3_000, calm_ticks=120,
                  half_width=4, band=1, slippage_bps=100),
        VaultSpec("v2-core-wbnb", "vAMM-CORE/WBNB", 200_000, 0.3, 0.18, 2_500, calm_ticks=170,
                  slippage_bps=100),
    ),
    vault_global_pause=(0.70, 0.72),
)

CHAIN_PARAMS: dict[int, ChainParams] = {56: BSC}
