"""Write functions of the governance snapshot assets (ve, gauges, foundation, KPIs): read each
snapshot's block (VotingEscrow totals through Multicall3, the subgraph's veNFTs, gauges, votes
and bribes), build its rows (assets.rows.ve, assets.rows.gauges), insert them."""
from __future__ import annotations

from .flow_loads import load_epoch_pool_series, load_flow_series, load_kpi_pool_hours
from .rows.cl_apr import CL_POOL_FIELDS
from .rows.gauges import GAUGE_COLUMNS, KPI_COLUMNS, EpochState, epoch_state, gauge_rows, kpi_rows
from .rows.values import columns
from .rows.ve import (
    FOUNDATION_COLUMNS,
    FOUNDATION_VOTE_COLUMNS,
    VE_COLUMNS,
    VENFT_COLUMNS,
    foundation_ids,
    foundation_rows,
    ve_row,
    venft_rows,
)
from .recent_rows import drop_days_before, newest_stored, recent_from
from .snapshot_step import SnapshotStep
from .upstream import SnapshotPoint
from ..core.epochs import epoch_start
from ..readers.graphql import One, Page, SubgraphClient

VENFT_FIELDS = "id owner lockedAmount unlockTime isPermanent"
GAUGE_FIELDS = "pool { id } isAlive emissionsEpoch votes kind target weight rewardRate"
EPOCH_VOTE_FIELDS = "weight target pool { id } veNFT { id isFoundation }"
EPOCH_BRIBE_FIELDS = "amountUSD isFoundation target pool { id }"
FOUNDATION_NFT_FIELDS = "owner lockedAmount votingPower"
FOUNDATION_VOTE_FIELDS = "weight timestamp veNFT { id } pool { id } gauge { id }"


def read_epoch_state(subgraph: SubgraphClient, point: SnapshotPoint, core_token: str) -> EpochState:
    """Gauges, pools (TVL; type, range state and token prices for the CL profiles), the core token's price, this epoch's bribes and the foundation's votes
    at the point's block: two subgraph requests (more only when a collection has more than a
    page). Only the foundation's votes count here, so only they are read, not every voter's."""
    block, epoch = point.block.number, epoch_start(point.snapshot_at)
    got = subgraph.batch({
        "gauges": Page("gauges", GAUGE_FIELDS),
        "pools": Page("pools", f"totalValueLockedUSD {CL_POOL_FIELDS}"),
        "core": One("token", core_token.lower(), "priceUSD"),
        "bribes": Page("bribes", EPOCH_BRIBE_FIELDS, {"epoch": epoch}),
        "foundation": Page("veNFTs", "isFoundation", {"isFoundation": True}),
    }, block=block)
    ids = foundation_ids(got["foundation"])
    votes = subgraph.paginate("votes", EPOCH_VOTE_FIELDS, block=block, where={
        "epoch": epoch, "veNFT_in": [str(i) for i in ids]}) if ids else []
    return epoch_state(got["gauges"], got["pools"], got["core"], votes, got["bribes"])


def write_ve(s: SnapshotStep) -> dict[str, int]:
    """ve_snap15m for every point; venft_snap15m for the recent points alone (assets.recent_rows)."""
    kept_from = recent_from([p.snapshot_at for p in s.points], newest_stored(s.client, "venft_snap15m", s.chain_id))

    def read(point: SnapshotPoint) -> tuple[dict, list[dict]]:
        gov = s.chain.reader.governance(point.block.number)
        locks = s.subgraph.paginate("veNFTs", VENFT_FIELDS, block=point.block.number)
        kept = point.snapshot_at >= kept_from
        return ve_row(s.chain_id, point, gov, locks), venft_rows(s.chain_id, point, locks) if kept else []

    built = s.each(read)
    written = {"ve_snap15m": s.insert("ve_snap15m", columns(VE_COLUMNS, [row for row, _ in built])),
               "venft_snap15m": s.insert("venft_snap15m", columns(VENFT_COLUMNS, [r for _, rows in built for r in rows]))}
    drop_days_before(s.client, "venft_snap15m", s.chain_id, kept_from)
    return written


def shared_epoch_state(s: SnapshotStep, point: SnapshotPoint, core_token: str) -> EpochState:
    """The epoch state at the point's block, read once per run for the gauge and KPI snapshots."""
    block = point.block.number
    return s.chain.shared(("epoch_state", block, point.snapshot_at),
                          lambda: read_epoch_state(s.subgraph, point, core_token))


def write_gauges(s: SnapshotStep) -> dict[str, int]:
    protocol, _ = load_flow_series(s.client, s.chain_id, s.times)
    per_pool = load_epoch_pool_series(s.client, s.chain_id, s.times)
    core = s.chain.contracts()["coreToken"]

    def read(point: SnapshotPoint) -> list[dict]:
        return gauge_rows(s.chain_id, point.snapshot_at, shared_epoch_state(s, point, core), protocol, per_pool)

    return {"gauge_snap15m": s.insert("gauge_snap15m", columns(GAUGE_COLUMNS, s.rows_each(read)))}


def write_foundation(s: SnapshotStep) -> dict[str, int]:
    def read(point: SnapshotPoint) -> tuple[dict, list[dict]]:
        block = point.block.number
        nfts = s.subgraph.paginate("veNFTs", FOUNDATION_NFT_FIELDS, where={"isFoundation": True}, block=block)
        ids = foundation_ids(nfts)
        votes = s.subgraph.paginate("votes", FOUNDATION_VOTE_FIELDS, block=block, where={
            "epoch": epoch_start(point.snapshot_at), "veNFT_in": [str(i) for i in ids]}) if ids else []
        return foundation_rows(s.chain_id, point, nfts, votes)

    built = s.each(read)
    summary = columns(FOUNDATION_COLUMNS, [row for row, _ in built])
    votes = columns(FOUNDATION_VOTE_COLUMNS, [vote for _, rows in built for vote in rows])
    return {"foundation_snap15m": s.insert("foundation_snap15m", summary),
            "foundation_vote_snap15m": s.insert("foundation_vote_snap15m", votes)}


def write_kpis(s: SnapshotStep) -> dict[str, int]:
    protocol, _ = load_flow_series(s.client, s.chain_id, s.times)
    hours = load_kpi_pool_hours(s.client, s.chain_id, s.times)
    core = s.chain.contracts()["coreToken"]

    def read(point: SnapshotPoint) -> list[dict]:
        return kpi_rows(s.chain_id, point.snapshot_at, shared_epoch_state(s, point, core), protocol, hours)

    return {"kpi_snap15m": s.insert("kpi_snap15m", columns(KPI_COLUMNS, s.rows_each(read)))}
