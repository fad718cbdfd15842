"""Governance snapshot rows (bribe, vote and claim events are in assets.governance_events).

- snapshot rows (`GOVERNANCE_SNAPSHOT_ASSETS`, built by assets.snapshots, upstream of
  `snapshot_publication`): `ve_snapshots` (VotingEscrow totals at the snapshot block through
  Multicall3, lock counts and the average remaining lock from the subgraph's VeNFTs at the same
  block), `gauge_snapshots`, `foundation_snapshots`, `kpi_snapshots`.
"""

import bisect
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

from ve_analytics.assets.snapshot_rows import load_flow_series
from ve_analytics.assets.rows.values import columns, fsum_or_none, opt_float, ref_id, req_int, to_raw
from ve_analytics.assets.upstream import SnapshotPoint, fetch_each
from ve_analytics.assets.writers import query_columns, utc
from ve_analytics.core.epochs import DAY, WEEK, epoch_start
from ve_analytics.core.flows import HourlySeries, flow_end, series_by_key
from ve_analytics.core.kpi import KpiInputs, classify, relative_change
from ve_analytics.core.methodology import METHODOLOGY_VERSION
from ve_analytics.readers.chain import ChainReader
from ve_analytics.readers.graphql import SubgraphClient

if TYPE_CHECKING:
    from ve_analytics.assets.snapshots import SnapshotStep

VENFT_FIELDS = "lockedAmount unlockTime isPermanent"
GAUGE_FIELDS = "pool { id } isAlive emissionsEpoch votes"
EPOCH_VOTE_FIELDS = "weight pool { id } veNFT { id isFoundation }"
EPOCH_BRIBE_FIELDS = "amountUSD isFoundation pool { id }"
EPOCHS_PER_YEAR = 365 * DAY / WEEK

GAUGE_COLUMNS = ("chain_id", "snapshot_at", "gauge_address", "pool_address", "is_alive", "epoch_start", "votes_raw",
                 "foundation_votes_raw", "foundation_vote_share", "emissions_epoch_raw", "emission_apr", "fee_apr",
                 "bribe_apr", "total_apr", "bribes_epoch_usd", "fees_epoch_usd")
FOUNDATION_COLUMNS = ("chain_id", "snapshot_at", "block_number", "epoch_start", "wallet", "venft_ids", "locked_raw",
                      "voting_power_raw", "votes_epoch_raw", "vote_count", "voted_pool_count")
FOUNDATION_VOTE_COLUMNS = ("chain_id", "snapshot_at", "epoch_start", "venft_id", "pool_address", "gauge_address",
                           "weight_raw", "voted_at")
FOUNDATION_NFT_FIELDS = "owner lockedAmount votingPower"
FOUNDATION_VOTE_FIELDS = "weight timestamp veNFT { id } pool { id } gauge { id }"
KPI_COLUMNS = ("chain_id", "snapshot_at", "epoch_start", "gauge_address", "pool_address", "foundation_votes_raw",
               "pool_votes_raw", "vote_share", "bribe_cost_usd", "emissions_directed_raw", "emissions_directed_usd",
               "tvl_usd", "tvl_prev_usd", "volume_usd", "volume_prev_usd", "fees_usd", "fees_prev_usd", "tvl_delta",
               "volume_delta", "fees_delta", "value_per_bribe_usd", "classification", "methodology_version")
VE_COLUMNS = ("chain_id", "snapshot_at", "block_number", "locked_raw", "voting_power_raw", "permanent_locked_raw",
              "decaying_locked_raw", "lock_count", "permanent_lock_count", "decaying_lock_count",
              "expired_lock_count", "avg_remaining_lock_seconds")


def ve_columns(subgraph: SubgraphClient, chain: ChainReader, chain_id: int, points: Sequence[SnapshotPoint]) -> dict[str, list]:
    def read(point: SnapshotPoint) -> dict[str, Any]:
        block, now = point.block.number, point.block.timestamp
        gov = chain.governance(block)
        locks = subgraph.paginate("veNFTs", VENFT_FIELDS, block=block)
        permanent = decaying = expired = 0
        remaining: list[int] = []
        for lk in locks:
            if to_raw(lk.get("lockedAmount"), 18) <= 0:
                continue
            if lk.get("isPermanent"):
                permanent += 1
                continue
            unlock = req_int(lk.get("unlockTime"), f"veNFT {lk.get('id')} unlockTime")
            if unlock > now:
                decaying += 1
                remaining.append(unlock - now)
            else:
                expired += 1
        return {
            "chain_id": chain_id,
            "snapshot_at": utc(point.snapshot_at),
            "block_number": block,
            "locked_raw": gov.ve_locked_raw,
            "voting_power_raw": gov.ve_voting_power_raw,
            "permanent_locked_raw": gov.ve_permanent_raw,
            "decaying_locked_raw": max(gov.ve_locked_raw - gov.ve_permanent_raw, 0),
            "lock_count": permanent + decaying + expired,
            "permanent_lock_count": permanent,
            "decaying_lock_count": decaying,
            "expired_lock_count": expired,
            "avg_remaining_lock_seconds": (sum(remaining) / len(remaining)) if remaining else None,
        }

    return columns(VE_COLUMNS, fetch_each(points, read))


def _per_year(amount_usd: float | None, period_per_year: float, tvl: float | None) -> float | None:
    if amount_usd is None or tvl is None or tvl <= 0:
        return None
    return amount_usd * period_per_year / tvl


@dataclass
class EpochState:
    """What the gauge and KPI rows of one snapshot read at its block."""

    gauges: list[dict]
    tvl: dict[str, float | None]  # pool -> TVL USD
    core_price: float | None
    foundation_votes: dict[str, int]  # pool -> raw weight this epoch
    bribes: dict[str, list[float | None]]  # pool -> USD of every bribe this epoch
    foundation_bribes: dict[str, list[float | None]]  # pool -> USD of the foundation's bribes this epoch


def read_epoch_state(subgraph: SubgraphClient, point: SnapshotPoint, core_token: str) -> EpochState:
    block, epoch = point.block.number, epoch_start(point.snapshot_at)
    gauges = subgraph.paginate("gauges", GAUGE_FIELDS, block=block)
    tvl = {ref_id(p): opt_float(p.get("totalValueLockedUSD"))
           for p in subgraph.paginate("pools", "totalValueLockedUSD", block=block)}
    core = subgraph.one("token", core_token.lower(), "priceUSD", block=block)
    foundation: dict[str, int] = {}
    for v in subgraph.paginate("votes", EPOCH_VOTE_FIELDS, where={"epoch": epoch}, block=block):
        if (v.get("veNFT") or {}).get("isFoundation"):
            pool = ref_id(v.get("pool")) or ""
            foundation[pool] = foundation.get(pool, 0) + to_raw(v.get("weight"), 18)
    bribes: dict[str, list[float | None]] = {}
    foundation_bribes: dict[str, list[float | None]] = {}
    for b in subgraph.paginate("bribes", EPOCH_BRIBE_FIELDS, where={"epoch": epoch}, block=block):
        pool = ref_id(b.get("pool")) or ""
        bribes.setdefault(pool, []).append(opt_float(b.get("amountUSD")))
        if b.get("isFoundation"):
            foundation_bribes.setdefault(pool, []).append(opt_float(b.get("amountUSD")))
    return EpochState(gauges, tvl, opt_float(core.get("priceUSD")) if core else None, foundation, bribes,
                      foundation_bribes)


def gauge_columns(
    subgraph: SubgraphClient,
    chain_id: int,
    points: Sequence[SnapshotPoint],
    protocol: HourlySeries,
    per_pool: dict[str, HourlySeries],
    core_token: str,
) -> dict[str, list]:
    """One row per gauge per snapshot: votes (all and the foundation's) of the epoch so far,
    emissions directed this epoch and the APR breakdown over the pool's TVL (docs/methodology/
    gauge-apr.md): emission = emissions x core price x 365/7 / TVL; fee = rolling 24h fees x 365 /
    TVL; bribe = bribes deposited this epoch so far x 365/7 / TVL."""

    def read(point: SnapshotPoint) -> list[dict[str, Any]]:
        at = point.snapshot_at
        epoch = epoch_start(at)
        state = read_epoch_state(subgraph, point, core_token)
        gauges, tvl, core_price = state.gauges, state.tvl, state.core_price
        foundation, bribes = state.foundation_votes, state.bribes
        end = flow_end(protocol, at)
        rows = []
        for g in gauges:
            pool = ref_id(g.get("pool")) or ""
            votes = to_raw(g.get("votes"), 18)
            emissions = to_raw(g.get("emissionsEpoch"), 18)
            series = per_pool.get(pool)
            fees_24h = fees_epoch = None
            if end is not None:
                fees_24h = series.window(end - DAY, end).fees_usd if series is not None else None
                if end <= epoch:
                    fees_epoch = 0.0  # no hour of the epoch has ended yet
                elif series is not None:
                    fees_epoch = series.window(epoch, end).fees_usd or 0.0
            paid = bribes.get(pool, [])
            bribes_usd = fsum_or_none(paid)
            pool_tvl = tvl.get(pool)
            emission_usd = emissions / 1e18 * core_price if core_price is not None else None
            emission_apr = _per_year(emission_usd, EPOCHS_PER_YEAR, pool_tvl)
            fee_apr = _per_year(fees_24h, 365.0, pool_tvl)
            bribe_apr = _per_year(bribes_usd, EPOCHS_PER_YEAR, pool_tvl)
            parts = (emission_apr, fee_apr, bribe_apr)
            f_votes = foundation.get(pool, 0)
            rows.append({
                "chain_id": chain_id,
                "snapshot_at": utc(at),
                "gauge_address": ref_id(g) or "",
                "pool_address": pool,
                "is_alive": bool(g.get("isAlive")),
                "epoch_start": utc(epoch),
                "votes_raw": votes,
                "foundation_votes_raw": f_votes,
                "foundation_vote_share": (f_votes / votes) if votes > 0 else None,
                "emissions_epoch_raw": emissions,
                "emission_apr": emission_apr,
                "fee_apr": fee_apr,
                "bribe_apr": bribe_apr,
                "total_apr": fsum_or_none(parts),
                "bribes_epoch_usd": bribes_usd,
                "fees_epoch_usd": fees_epoch,
            })
        return rows

    return columns(GAUGE_COLUMNS, [r for batch in fetch_each(points, read) for r in batch])


@dataclass
class PoolHours:
    hours: list[int]
    volume: list[float]
    fees: list[float]
    tvl_close: list[float | None]

    def sums(self, start: int, end: int) -> tuple[float | None, float | None, int]:
        lo, hi = bisect.bisect_left(self.hours, start), bisect.bisect_left(self.hours, end)
        if hi <= lo:
            return None, None, 0
        return math.fsum(self.volume[lo:hi]), math.fsum(self.fees[lo:hi]), hi - lo

    def close_before(self, ts: int) -> float | None:
        """TVL close of the newest bucket that ended by ts."""
        i = bisect.bisect_right(self.hours, ts - 3600)
        return self.tvl_close[i - 1] if i else None


def load_kpi_pool_hours(client, chain_id: int, times: Sequence[int]) -> dict[str, PoolHours]:
    cols = query_columns(client, "snapshots/kpi_pool_hours.sql", {
        "chain_id": chain_id, "from_ts": epoch_start(min(times)) - WEEK - 2 * DAY, "to_ts": max(times)})
    out: dict[str, PoolHours] = {}
    for pool, hour, vol, fee, tvl in zip(cols["pool_address"], cols["hour_ts"], cols["volume_usd"], cols["fees_usd"],
                                         cols["tvl_usd_close"]):
        ph = out.setdefault(pool, PoolHours([], [], [], []))
        ph.hours.append(int(hour))
        ph.volume.append(float(vol))
        ph.fees.append(float(fee))
        ph.tvl_close.append(None if tvl is None else float(tvl))
    return out


def kpi_columns(
    subgraph: SubgraphClient,
    chain_id: int,
    points: Sequence[SnapshotPoint],
    protocol: HourlySeries,
    hours: dict[str, PoolHours],
    core_token: str,
) -> dict[str, list]:
    """One KPI row per gauge the foundation voted for or bribed in the snapshot's epoch
    (docs/methodology/kpi-classification.md)."""

    def read(point: SnapshotPoint) -> list[dict[str, Any]]:
        at = point.snapshot_at
        epoch = epoch_start(at)
        state = read_epoch_state(subgraph, point, core_token)
        end = flow_end(protocol, at)
        elapsed = max(0, (end - epoch) // 3600) if end is not None else 0
        rows = []
        for g in state.gauges:
            pool = ref_id(g.get("pool")) or ""
            f_votes = state.foundation_votes.get(pool, 0)
            paid = state.foundation_bribes.get(pool, [])
            if f_votes <= 0 and not paid:
                continue
            votes = to_raw(g.get("votes"), 18)
            share = f_votes / votes if votes > 0 else None
            cost = fsum_or_none(paid)
            emissions = to_raw(g.get("emissionsEpoch"), 18)
            directed = emissions * f_votes // votes if votes > 0 else 0
            directed_usd = directed / 1e18 * state.core_price if state.core_price is not None else None
            ph = hours.get(pool)
            volume = fees = volume_prev = fees_prev = tvl_prev = None
            if ph is not None and end is not None and elapsed > 0:
                volume, fees, _ = ph.sums(epoch, end)
                volume_prev, fees_prev, _ = ph.sums(epoch - WEEK, end - WEEK)
                tvl_prev = ph.close_before(at - WEEK)
            tvl = state.tvl.get(pool)
            value = None
            if cost is not None and cost > 0 and directed_usd is not None and fees is not None and share is not None:
                value = (directed_usd + fees * share) / cost
            inputs = KpiInputs(
                elapsed_hours=elapsed,
                foundation_votes=f_votes,
                bribe_cost_usd=cost if cost is not None else 0.0,
                value_per_bribe_usd=value,
                tvl_delta=relative_change(tvl, tvl_prev),
                volume_delta=relative_change(volume, volume_prev),
                fees_delta=relative_change(fees, fees_prev),
            )
            label = "insufficient_data" if cost is None else classify(inputs)
            rows.append({
                "chain_id": chain_id,
                "snapshot_at": utc(at),
                "epoch_start": utc(epoch),
                "gauge_address": ref_id(g) or "",
                "pool_address": pool,
                "foundation_votes_raw": f_votes,
                "pool_votes_raw": votes,
                "vote_share": share,
                "bribe_cost_usd": cost,
                "emissions_directed_raw": directed,
                "emissions_directed_usd": directed_usd,
                "tvl_usd": tvl,
                "tvl_prev_usd": tvl_prev,
                "volume_usd": volume,
                "volume_prev_usd": volume_prev,
                "fees_usd": fees,
                "fees_prev_usd": fees_prev,
                "tvl_delta": inputs.tvl_delta,
                "volume_delta": inputs.volume_delta,
                "fees_delta": inputs.fees_delta,
                "value_per_bribe_usd": value,
                "classification": label,
                "methodology_version": METHODOLOGY_VERSION,
            })
        return rows

    return columns(KPI_COLUMNS, [r for batch in fetch_each(points, read) for r in batch])


def load_epoch_pool_series(client, chain_id: int, times: Sequence[int]) -> dict[str, HourlySeries]:
    """Per-pool hourly buckets from the start of the first snapshot's epoch (or 24h before it)."""
    cols = query_columns(client, "snapshots/pool_hours.sql", {
        "chain_id": chain_id, "from_ts": min(epoch_start(min(times)), min(times) - 2 * DAY), "to_ts": max(times)})
    return series_by_key(cols["pool_address"], cols["hour_ts"], cols["volume_usd"], cols["fees_usd"])


def foundation_columns(subgraph: SubgraphClient, chain_id: int, points: Sequence[SnapshotPoint]
                       ) -> tuple[dict[str, list], dict[str, list]]:
    """(foundation_snap15m columns, foundation_vote_snap15m columns) of the snapshots."""

    def read(point: SnapshotPoint) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        block, at = point.block.number, point.snapshot_at
        epoch = epoch_start(at)
        nfts = subgraph.paginate("veNFTs", FOUNDATION_NFT_FIELDS, where={"isFoundation": True}, block=block)
        ids = sorted(req_int(ref_id(n), "veNFT id") for n in nfts)
        votes = subgraph.paginate("votes", FOUNDATION_VOTE_FIELDS,
                                  where={"epoch": epoch, "veNFT_in": [str(i) for i in ids]}, block=block) if ids else []
        vote_rows = [{
            "chain_id": chain_id,
            "snapshot_at": utc(at),
            "epoch_start": utc(epoch),
            "venft_id": req_int(ref_id(v.get("veNFT")), "vote veNFT"),
            "pool_address": ref_id(v.get("pool")) or "",
            "gauge_address": ref_id(v.get("gauge")) or "",
            "weight_raw": to_raw(v.get("weight"), 18),
            "voted_at": utc(req_int(v.get("timestamp"), "vote timestamp")),
        } for v in votes]
        owners = sorted({str(n.get("owner") or "").lower() for n in nfts} - {""})
        summary = {
            "chain_id": chain_id,
            "snapshot_at": utc(at),
            "block_number": block,
            "epoch_start": utc(epoch),
            "wallet": owners[0] if len(owners) == 1 else ",".join(owners),
            "venft_ids": ids,
            "locked_raw": sum(to_raw(n.get("lockedAmount"), 18) for n in nfts),
            "voting_power_raw": sum(to_raw(n.get("votingPower"), 18) for n in nfts),
            "votes_epoch_raw": sum(r["weight_raw"] for r in vote_rows),
            "vote_count": len(vote_rows),
            "voted_pool_count": len({r["pool_address"] for r in vote_rows}),
        }
        return summary, vote_rows

    reads = fetch_each(points, read)
    return (columns(FOUNDATION_COLUMNS, [r[0] for r in reads]),
            columns(FOUNDATION_VOTE_COLUMNS, [v for r in reads for v in r[1]]))


# -- snapshot assets (built by assets.snapshots.snapshot_asset) -------------------------------
def write_ve(s: "SnapshotStep") -> dict[str, int]:
    columns = ve_columns(s.subgraph, s.chain.reader, s.chain_id, s.points)
    return {"ve_snap15m": s.insert("ve_snap15m", columns)}


def write_gauges(s: "SnapshotStep") -> dict[str, int]:
    protocol, _ = load_flow_series(s.client, s.chain_id, s.times)
    per_pool = load_epoch_pool_series(s.client, s.chain_id, s.times)
    columns = gauge_columns(s.subgraph, s.chain_id, s.points, protocol, per_pool, s.chain.contracts()["coreToken"])
    return {"gauge_snap15m": s.insert("gauge_snap15m", columns)}


def write_foundation(s: "SnapshotStep") -> dict[str, int]:
    summary, votes = foundation_columns(s.subgraph, s.chain_id, s.points)
    return {"foundation_snap15m": s.insert("foundation_snap15m", summary),
            "foundation_vote_snap15m": s.insert("foundation_vote_snap15m", votes)}


def write_kpis(s: "SnapshotStep") -> dict[str, int]:
    protocol, _ = load_flow_series(s.client, s.chain_id, s.times)
    hours = load_kpi_pool_hours(s.client, s.chain_id, s.times)
    columns = kpi_columns(s.subgraph, s.chain_id, s.points, protocol, hours, s.chain.contracts()["coreToken"])
    return {"kpi_snap15m": s.insert("kpi_snap15m", columns)}


# (name, tables, description, write) of the governance snapshot assets
GOVERNANCE_SNAPSHOT_ASSETS = [
    ("ve_snapshots", ("ve_snap15m",),
     "Vote-escrow totals, lock counts and average remaining lock per snapshot (ve_snap15m).", write_ve),
    ("gauge_snapshots", ("gauge_snap15m",),
     "Every gauge per snapshot: votes, foundation share, emissions and the APR breakdown (gauge_snap15m).",
     write_gauges),
    ("foundation_snapshots", ("foundation_snap15m", "foundation_vote_snap15m"),
     "The foundation's veNFTs, voting power and this epoch's vote allocations per snapshot "
     "(foundation_snap15m, foundation_vote_snap15m).", write_foundation),
    ("kpi_snapshots", ("kpi_snap15m",),
     "Foundation KPI per gauge it voted for or bribed, with its classification (kpi_snap15m).", write_kpis),
]
