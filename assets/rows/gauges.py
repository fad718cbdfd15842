"""Rows of gauge_snap15m and kpi_snap15m, both from one epoch state per snapshot: the gauges,
pool TVLs, core price, and the epoch's votes and bribes so far, all at the snapshot's block.

- gauges: votes (all and the foundation's), emissions directed this epoch, the APR breakdown
  over the pool's TVL (docs/methodology/gauge-apr.md) and the emissions APR of a 100 USD deposit
  per concentrated-liquidity profile (assets.rows.cl_apr, docs/methodology/cl-emissions-apr.md).
- KPIs: one row per gauge the foundation voted for or bribed in the epoch, classified by
  core.kpi (docs/methodology/kpi-classification.md).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .cl_apr import CL_APR_COLUMNS, profile_aprs
from .values import fsum_or_none, opt_float, opt_int, ref_id, to_raw, voter_pool
from ...core.epochs import DAY, WEEK, epoch_start, to_datetime
from ...core.flows import HourlyCloses, HourlySeries, flow_end
from ...core.kpi import KpiInputs, classify, relative_change
from ...core.methodology import METHODOLOGY_VERSION

EPOCHS_PER_YEAR = 365 * DAY / WEEK

GAUGE_COLUMNS = ("chain_id", "snapshot_at", "gauge_address", "pool_address", "is_alive", "epoch_start", "votes_raw",
                 "foundation_votes_raw", "foundation_vote_share", "emissions_epoch_raw", "emission_apr", "fee_apr",
                 "bribe_apr", "total_apr", "bribes_epoch_usd", "fees_epoch_usd", *CL_APR_COLUMNS, "gauge_kind", "weight_raw",
                 "reward_rate_raw")
KPI_COLUMNS = ("chain_id", "snapshot_at", "epoch_start", "gauge_address", "pool_address", "foundation_votes_raw",
               "pool_votes_raw", "vote_share", "bribe_cost_usd", "emissions_directed_raw", "emissions_directed_usd",
               "tvl_usd", "tvl_prev_usd", "volume_usd", "volume_prev_usd", "fees_usd", "fees_prev_usd", "tvl_delta",
               "volume_delta", "fees_delta", "value_per_bribe_usd", "classification", "methodology_version")


@dataclass
class EpochState:
    """What the gauge and KPI rows of one snapshot read at its block."""

    gauges: list[dict]
    tvl: dict[str, float | None]  # pool -> TVL USD
    core_price: float | None
    foundation_votes: dict[str, int]  # pool -> raw weight this epoch
    bribes: dict[str, list[float | None]]  # pool -> USD of every bribe this epoch
    foundation_bribes: dict[str, list[float | None]]  # pool -> USD of the foundation's bribes this epoch
    pools: dict[str, dict] = field(default_factory=dict)  # pool -> its entity (type, range state, tokens)


def epoch_state(gauges: list[dict], pools: list[dict], core: dict | None, votes: list[dict], bribes: list[dict]
                ) -> EpochState:
    """The state from the block's gauges, pools (TVL), core token and the epoch's votes and bribes."""
    tvl = {ref_id(p): opt_float(p.get("totalValueLockedUSD")) for p in pools}
    foundation: dict[str, int] = {}
    for v in votes:
        if (v.get("veNFT") or {}).get("isFoundation"):
            pool = voter_pool(v)
            foundation[pool] = foundation.get(pool, 0) + to_raw(v.get("weight"), 18)
    paid: dict[str, list[float | None]] = {}
    foundation_paid: dict[str, list[float | None]] = {}
    for b in bribes:
        pool = voter_pool(b)
        paid.setdefault(pool, []).append(opt_float(b.get("amountUSD")))
        if b.get("isFoundation"):
            foundation_paid.setdefault(pool, []).append(opt_float(b.get("amountUSD")))
    return EpochState(gauges, tvl, opt_float(core.get("priceUSD")) if core else None, foundation, paid,
                      foundation_paid, {ref_id(p): p for p in pools})


def _per_year(amount_usd: float | None, period_per_year: float, tvl: float | None) -> float | None:
    if amount_usd is None or tvl is None or tvl <= 0:
        return None
    return amount_usd * period_per_year / tvl


def gauge_rows(chain_id: int, at: int, state: EpochState, protocol: HourlySeries,
               per_pool: dict[str, HourlySeries]) -> list[dict[str, Any]]:
    """One row per gauge: emission APR = emissions x core price x 365/7 / TVL; fee APR = rolling
    24h fees x 365 / TVL; bribe APR = bribes deposited this epoch so far x 365/7 / TVL."""
    epoch = epoch_start(at)
    end = flow_end(protocol, at)
    rows = []
    for g in state.gauges:
        pool = voter_pool(g)
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
        bribes_usd = fsum_or_none(state.bribes.get(pool, []))
        pool_tvl = state.tvl.get(pool)
        emission_usd = emissions / 1e18 * state.core_price if state.core_price is not None else None
        emission_apr = _per_year(emission_usd, EPOCHS_PER_YEAR, pool_tvl)
        per_year = emission_usd * EPOCHS_PER_YEAR if emission_usd is not None else None
        fee_apr = _per_year(fees_24h, 365.0, pool_tvl)
        bribe_apr = _per_year(bribes_usd, EPOCHS_PER_YEAR, pool_tvl)
        f_votes = state.foundation_votes.get(pool, 0)
        rows.append({
            "chain_id": chain_id,
            "snapshot_at": to_datetime(at),
            "gauge_address": ref_id(g) or "",
            "pool_address": pool,
            "is_alive": bool(g.get("isAlive")),
            "epoch_start": to_datetime(epoch),
            "votes_raw": votes,
            "foundation_votes_raw": f_votes,
            "foundation_vote_share": (f_votes / votes) if votes > 0 else None,
            "emissions_epoch_raw": emissions,
            "emission_apr": emission_apr,
            "fee_apr": fee_apr,
            "bribe_apr": bribe_apr,
            "total_apr": fsum_or_none((emission_apr, fee_apr, bribe_apr)),
            "bribes_epoch_usd": bribes_usd,
            "fees_epoch_usd": fees_epoch,
            **profile_aprs(state.pools.get(pool), per_year, emission_apr),
            "gauge_kind": g.get("kind") or "pool",
            "weight_raw": to_raw(g["weight"], 18) if g.get("weight") is not None else None,
            "reward_rate_raw": opt_int(g.get("rewardRate")),
        })
    return rows


def kpi_rows(chain_id: int, at: int, state: EpochState, protocol: HourlySeries,
             hours: dict[str, HourlyCloses]) -> list[dict[str, Any]]:
    """One KPI row per gauge the foundation voted for or bribed in the snapshot's epoch: epoch-to-date
    flows against the same hours of the previous epoch, and value per bribe dollar."""
    epoch = epoch_start(at)
    end = flow_end(protocol, at)
    elapsed = max(0, (end - epoch) // 3600) if end is not None else 0
    rows = []
    for g in state.gauges:
        pool = voter_pool(g)
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
            now, before = ph.window(epoch, end), ph.window(epoch - WEEK, end - WEEK)
            volume, fees = now.volume_usd, now.fees_usd
            volume_prev, fees_prev = before.volume_usd, before.fees_usd
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
            "snapshot_at": to_datetime(at),
            "epoch_start": to_datetime(epoch),
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
