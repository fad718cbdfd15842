"""The shapes of the per-chain parameters (the tables are in devnet/chains/).

Prices are USD, sizes are USD, fees are pips (1e6 = 100%), rates are events per hour at scale 1.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from devnet.addresses import label_address

MULTICALL3 = "0xcA11bde05977b3631167028862bE2a173976CA11"  # the same address on every EVM chain
CORE_CONTRACTS = ("voter", "minter", "votingEscrow", "coreToken", "rewardsDistributor", "v2Factory", "router")
CL_CONTRACTS = ("clFactory", "dynamicFeeModule", "tickLens")


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
    gauge_revived_frac: float | None = None  # reviveGauge after the kill (same placement rule)
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
    reward_fee_bps: int = 1000  # the strategy's cut of harvested gauge rewards (rewardFee(), bps)
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
    # persisting allocations (devnet/sim/votebook.py): each epoch, a veNFT that is not re-voting
    # and holds an allocation pokes or resets with these probabilities, else carries it over
    poke_share: float = 0.3
    reset_share: float = 0.08
    system_gauge: bool = True  # one gauge on a non-pool system address (devnet/sim/gauges.py)
    system_vote_share: float = 0.12  # share of (non-foundation) votes that include the system gauge
    system_bribe_rate: float = 1.0  # mean CORE bribes per epoch on the system gauge
    # a bribe token with no price anywhere in the devnet (no pool, no price path)
    unpriced_token: tuple[str, str, int] = ("PTS", "Points (no market)", 18)
    unpriced_bribes_per_epoch: float = 0.0
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
    lp_providers: int = 14  # wallets that provide liquidity (devnet/sim/liquidity.py), besides a few voters
    vault_global_pause: tuple[float, float] | None = None  # fractions of the history
    # history and indexing
    history_days: float = 90.0  # default length of the history before now (DEVNET_HISTORY_DAYS overrides)
    max_history_days: float | None = None  # an override never makes the history longer (a young chain)
    subgraph_lag_seconds: int = 0  # the subgraph indexes only up to this far behind the chain head


@dataclass(frozen=True)
class BridgeEndpoint:
    """The chain's side of the core token's OFT bridge (LayerZero V2): its endpoint id, the source
    confirmations a message sent from it waits for, and the OFT adapter (the OApp)."""

    eid: int
    confirmations: int
    oapp: str


def oft_endpoint(chain_id: int, eid: int, confirmations: int) -> BridgeEndpoint:
    """The chain's endpoint, its OApp at keccak("devnet:<chain>:coreOFT") (on chain 56 too)."""
    return BridgeEndpoint(eid, confirmations, label_address(chain_id, "coreOFT"))


@dataclass(frozen=True)
class Deployment:
    """Where a chain's contracts are (the chain book's entry, without the URLs)."""

    chain_id: int
    name: str
    network: str
    block_time_seconds: int
    native_symbol: str
    contracts: dict[str, str] = field(default_factory=dict)
    foundation_wallet: str = ""
    bridge: BridgeEndpoint | None = None

    @property
    def finality_seconds(self) -> int:
        """How long a message sent from this chain waits for its confirmations."""
        return 0 if self.bridge is None else self.bridge.confirmations * self.block_time_seconds


def labelled_deployment(chain_id: int, name: str, network: str, block_time: int, native_symbol: str,
                        cl: bool, bridge: BridgeEndpoint | None = None) -> Deployment:
    """A deployment whose contracts (and foundation wallet) sit at keccak("devnet:<chain>:<name>");
    the CL factory, the dynamic fee module and the tick lens only where the chain has CL pools."""
    names = CORE_CONTRACTS + (CL_CONTRACTS if cl else ())
    contracts = {n: label_address(chain_id, n) for n in names}
    contracts["multicall3"] = MULTICALL3
    return Deployment(chain_id, name, network, block_time, native_symbol, contracts,
                      label_address(chain_id, "foundation"), bridge)


def cl_pool(a, b, fee, spacing, tvl, rate, median, **kw) -> PoolSpec:
    return PoolSpec(a, b, "cl", fee, tvl, rate, median, tick_spacing=spacing, **kw)


NARROW = ((None, 0.3), (4, 0.15), (12, 0.2), (30, 0.2), (80, 0.15))  # CL liquidity layouts
STABLE_CL = ((None, 0.1), (2, 0.4), (5, 0.3), (20, 0.2))
