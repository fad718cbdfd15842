"""Rows of core_token_snap15m: the core token's factsheet figures at one snapshot block.

From the token (subgraph Token.priceUSD, derivedETH, decimals), every pool containing it (TVL,
cumulative volume and fees) and its ERC20 totalSupply(). Rolling flows sum the hourly buckets of
those pools over windows ending at the snapshot's protocol flow-window end (the same end
/api/stats/protocol uses).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .values import fsum_or_none, opt_float, ref_id
from ...core.epochs import DAY, floor_to, to_datetime
from ...core.flows import HourlySeries, combined, flow_end
from ...core.windows import FLOW_WINDOWS

if TYPE_CHECKING:
    from ..upstream import SnapshotPoint

PRICE_SOURCE = "subgraph:Token.priceUSD"
CORE_COLUMNS = (
    "chain_id", "snapshot_at", "block_number", "token_address", "symbol", "decimals", "price_usd",
    "derived_eth", "price_source", "price_reference_pool", "total_supply_raw", "market_cap_usd",
    "liquidity_usd", "pool_count", "flow_window_end", "volume_24h_usd", "fees_24h_usd", "hours_24h",
    "volume_day_usd", "fees_day_usd", "hours_day", "volume_7d_usd", "fees_7d_usd", "hours_7d",
    "volume_30d_usd", "fees_30d_usd", "hours_30d", "volume_lifetime_usd", "fees_lifetime_usd",
)


class PoolSetSeries:
    """Hourly flows summed over a set of pools, combined once per distinct set: the pools holding
    the core token rarely change between snapshots."""

    def __init__(self, per_pool: dict[str, HourlySeries]):
        self.per_pool = per_pool
        self._merged: dict[frozenset[str], HourlySeries] = {}

    def of(self, ids: frozenset[str]) -> HourlySeries:
        series = self._merged.get(ids)
        if series is None:
            series = self._merged[ids] = combined([self.per_pool[i] for i in ids if i in self.per_pool])
        return series


def _sum_of_some(values: list[float | None]) -> float | None:
    """A total over the pools: unknown without pools or when one of them is unknown."""
    return fsum_or_none(values) if values else None


def core_token_row(chain_id: int, point: "SnapshotPoint", core: str, token: dict, pools: list[dict], supply: int,
                   protocol: HourlySeries, flows_of: PoolSetSeries) -> dict[str, Any]:
    block = point.block.number
    decimals = int(token["decimals"])
    price = opt_float(token.get("priceUSD"))
    tvls = [opt_float(p.get("totalValueLockedUSD")) for p in pools]
    known = [(t, ref_id(p)) for t, p in zip(tvls, pools) if t is not None]
    series = flows_of.of(frozenset(ref_id(p) for p in pools))
    end = flow_end(protocol, point.snapshot_at)
    flows: dict[str, Any] = {}
    for label, seconds in FLOW_WINDOWS.items():
        w = series.window(end - seconds, end) if end is not None else None
        flows[label] = (w.volume_usd, w.fees_usd, w.hours) if w else (None, None, 0)
    day_start = floor_to(point.snapshot_at, DAY)
    day = series.window(day_start, end) if end is not None and end > day_start else None
    return {
        "chain_id": chain_id,
        "snapshot_at": to_datetime(point.snapshot_at),
        "block_number": block,
        "token_address": core,
        "symbol": token.get("symbol") or "",
        "decimals": decimals,
        "price_usd": price,
        "derived_eth": opt_float(token.get("derivedETH")),
        "price_source": PRICE_SOURCE,
        "price_reference_pool": max(known)[1] if known else None,
        "total_supply_raw": int(supply),
        "market_cap_usd": price * int(supply) / 10**decimals if price is not None else None,
        "liquidity_usd": _sum_of_some(tvls),
        "pool_count": len(pools),
        "flow_window_end": to_datetime(end) if end is not None else None,
        "volume_24h_usd": flows["24h"][0],
        "fees_24h_usd": flows["24h"][1],
        "hours_24h": flows["24h"][2],
        "volume_day_usd": day.volume_usd if day else None,
        "fees_day_usd": day.fees_usd if day else None,
        "hours_day": day.hours if day else 0,
        "volume_7d_usd": flows["7d"][0],
        "fees_7d_usd": flows["7d"][1],
        "hours_7d": flows["7d"][2],
        "volume_30d_usd": flows["30d"][0],
        "fees_30d_usd": flows["30d"][1],
        "hours_30d": flows["30d"][2],
        "volume_lifetime_usd": _sum_of_some([opt_float(p.get("volumeUSD")) for p in pools]),
        "fees_lifetime_usd": _sum_of_some([opt_float(p.get("feesUSD")) for p in pools]),
    }
