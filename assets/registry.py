"""The snapshot assets, listed once: name, tables, description and write function of each.

assets.snapshots builds one Dagster asset per entry and `snapshot_publication` downstream of
them all; the snapshot job's selection (orchestration.jobs), publication's check that every one
succeeded in the run, and the asset checks that name snapshot assets all read this list.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..core.chains import ChainConfig

from .governance_snapshots import write_foundation, write_gauges, write_kpis, write_ve
from .liquidity_snapshots import write_liquidity_positions
from .market_snapshots import write_core_token, write_pools, write_protocol, write_tokens
from .snapshot_step import SnapshotStep
from .tick_snapshots import write_ticks
from .vault_snapshots import write_vaults
from .xcore_snapshots import write_xcore


@dataclass(frozen=True)
class SnapshotAsset:
    name: str
    tables: tuple[str, ...]
    description: str
    write: Callable[[SnapshotStep], dict[str, int]]  # rows written per table


TOKENS = SnapshotAsset("token_snapshots", ("token_snap15m",),
                       "Every token at each snapshot block (token_snap15m).", write_tokens)
POOLS = SnapshotAsset("pool_snapshots", ("pool_snap15m",),
                      "Every pool at each snapshot block with its 24h flows from pool_hourly (pool_snap15m).",
                      write_pools)
PROTOCOL = SnapshotAsset("protocol_snapshot", ("protocol_snap15m",),
                         "Protocol TVL, rolling flows and governance state per snapshot (protocol_snap15m).",
                         write_protocol)
VE = SnapshotAsset("ve_snapshots", ("ve_snap15m", "venft_snap15m"),
                   "Vote-escrow totals, lock counts and average remaining lock per snapshot (ve_snap15m); each "
                   "veNFT's lock and voting power over the last two days of snapshots (venft_snap15m).", write_ve)
GAUGES = SnapshotAsset("gauge_snapshots", ("gauge_snap15m",),
                       "Every gauge per snapshot: votes, foundation share, emissions and the APR breakdown "
                       "(gauge_snap15m).", write_gauges)
FOUNDATION = SnapshotAsset("foundation_snapshots", ("foundation_snap15m", "foundation_vote_snap15m"),
                           "The foundation's veNFTs, voting power and this epoch's vote allocations per snapshot "
                           "(foundation_snap15m, foundation_vote_snap15m).", write_foundation)
KPIS = SnapshotAsset("kpi_snapshots", ("kpi_snap15m",),
                     "Foundation KPI per gauge it voted for or bribed, with its classification (kpi_snap15m).",
                     write_kpis)
CORE_TOKEN = SnapshotAsset("core_token_snapshot", ("core_token_snap15m",),
                           "Core-token price, ERC20 totalSupply, market cap, liquidity and flows of the pools "
                           "containing it, all at each snapshot block (core_token_snap15m).", write_core_token)
VAULTS = SnapshotAsset("vault_snapshots", ("vault_snap15m",),
                       "Every configured vault at each snapshot block: totals, supply, prices, TVL, share price, "
                       "calm, pauses and the CL range, read through Multicall3 (vault_snap15m).", write_vaults)

TICKS = SnapshotAsset("tick_snapshots", ("pool_tick_sets", "pool_tick_snap15m"),
                      "Every concentrated-liquidity pool's initialized ticks at each snapshot block, read through "
                      "the tick lens with slot0() and liquidity() and verified: each distinct table once "
                      "(pool_tick_sets), a marker per pool and snapshot (pool_tick_snap15m).", write_ticks)

XCORE = SnapshotAsset("xcore_snapshots", ("xcore_snap15m", "xcore_events"),
                      "The escrow-share token at each snapshot block: rate, supply, backing and the adapter's locked "
                      "shares on its canonical chain, a bridged representation's supply elsewhere (xcore_snap15m); "
                      "its events since the recorded ones, up to the last snapshot block (xcore_events).", write_xcore)

LIQUIDITY = SnapshotAsset("liquidity_position_snapshots", ("liquidity_position_snap15m", "liquidity_position_reads"),
                          "Every open liquidity position of every provider over the last two days of snapshots: v2 LP "
                          "in the wallet and staked, CL NFTs, with token amounts, uncollected fees and unclaimed "
                          "emissions, read through the chain's LpSugar (liquidity_position_snap15m; the snapshots read: liquidity_position_reads).",
                          write_liquidity_positions)

SNAPSHOT_ASSETS: tuple[SnapshotAsset, ...] = (TOKENS, POOLS, PROTOCOL, VE, GAUGES, FOUNDATION, KPIS, CORE_TOKEN, VAULTS,
                                              TICKS, XCORE, LIQUIDITY)
SNAPSHOT_ASSET_NAMES = tuple(a.name for a in SNAPSHOT_ASSETS)


def snapshot_assets_for(chain: ChainConfig) -> tuple[SnapshotAsset, ...]:
    """The snapshot assets a chain has: vault snapshots only where it supports and configures vaults,
    tick snapshots only where it has concentrated-liquidity tick tables (clTicks), xCORE snapshots
    only where its book names the token, liquidity positions only where it names an LpSugar."""
    return tuple(a for a in SNAPSHOT_ASSETS
                 if (a is not VAULTS or chain.has_vaults) and (a is not TICKS or chain.supports("clTicks"))
                 and (a is not XCORE or chain.has_xcore) and (a is not LIQUIDITY or chain.has_liquidity_positions))
PUBLICATION = "snapshot_publication"  # the last asset of a snapshot run: marks its snapshots successful
