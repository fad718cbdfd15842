"""Hourly buckets loaded from the warehouse for a range of snapshot times, once per range: the
flow windows of every snapshot of the range are then summed from them in memory (core.flows)."""
from __future__ import annotations

from typing import Sequence

from .writers import query_columns, query_rows
from ..core.epochs import DAY, HOUR, WEEK, epoch_start
from ..core.flows import HourlyCloses, HourlySeries, series_by_key


def _pool_series(client, chain_id: int, from_ts: int, to_ts: int) -> dict[str, HourlySeries]:
    cols = query_columns(client, "snapshots/pool_hours.sql", {"chain_id": chain_id, "from_ts": from_ts, "to_ts": to_ts})
    return series_by_key(cols["pool_address"], cols["hour_ts"], cols["volume_usd"], cols["fees_usd"])


def load_flow_series(client, chain_id: int, times: Sequence[int]) -> tuple[HourlySeries, dict[str, HourlySeries]]:
    """Protocol and per-pool hourly series covering every window of `times` (two range loads)."""
    first, last = min(times), max(times)
    newest = query_rows(client, "snapshots/latest_protocol_hour.sql", {"chain_id": chain_id, "at_ts": first})
    earliest_end = first
    if newest and newest[0]["hour_ts"] is not None:
        earliest_end = min(first, int(newest[0]["hour_ts"]) + HOUR)
    proto = query_columns(
        client,
        "snapshots/protocol_hours.sql",
        {"chain_id": chain_id, "from_ts": earliest_end - 30 * DAY, "to_ts": last},
    )
    protocol = HourlySeries(proto["hour_ts"], proto["volume_usd"], proto["fees_usd"])
    return protocol, _pool_series(client, chain_id, earliest_end - DAY, last)


def load_pool_series(client, chain_id: int, times: Sequence[int]) -> dict[str, HourlySeries]:
    """Hourly buckets of every pool over the 30 days before the range (one load)."""
    return _pool_series(client, chain_id, min(times) - 31 * DAY, max(times))


def load_epoch_pool_series(client, chain_id: int, times: Sequence[int]) -> dict[str, HourlySeries]:
    """Per-pool hourly buckets from the start of the first snapshot's epoch (or 24h before it)."""
    return _pool_series(client, chain_id, min(epoch_start(min(times)), min(times) - 2 * DAY), max(times))


def load_kpi_pool_hours(client, chain_id: int, times: Sequence[int]) -> dict[str, HourlyCloses]:
    """Per-pool hourly buckets with TVL closes from the epoch before the first snapshot's epoch."""
    cols = query_columns(client, "snapshots/kpi_pool_hours.sql", {
        "chain_id": chain_id, "from_ts": epoch_start(min(times)) - WEEK - 2 * DAY, "to_ts": max(times)})
    grouped: dict[str, tuple[list, list, list, list]] = {}
    for pool, hour, vol, fee, tvl in zip(cols["pool_address"], cols["hour_ts"], cols["volume_usd"], cols["fees_usd"],
                                         cols["tvl_usd_close"]):
        g = grouped.setdefault(pool, ([], [], [], []))
        g[0].append(int(hour))
        g[1].append(vol)
        g[2].append(fee)
        g[3].append(tvl)
    return {pool: HourlyCloses(*g) for pool, g in grouped.items()}
