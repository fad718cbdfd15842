"""Rows of pool_hourly and protocol_hourly: every pool's bucket for every ended hour of a range.

An hour without PoolHourData is a real zero (the subgraph is complete up to the block read, and
like Uniswap it only creates hour data for hours with activity), and its state columns are NULL:
the pool's state carries from its previous bucket. Hours that have not ended are
never written, so every stored bucket is final. protocol_hourly is the sum over pools of each hour.
"""
from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from .values import opt_float, opt_int, opt_raw, ref_id, req_float, req_int
from ...core.epochs import HOUR, to_datetime


@dataclass(frozen=True)
class PoolShape:
    """What turns a pool's hour-close state into columns: its type and its tokens' decimals."""

    cl: bool
    decimals0: int | None
    decimals1: int | None

    @classmethod
    def of(cls, pool: dict[str, Any]) -> "PoolShape":
        return cls(pool.get("type") == "cl", opt_int((pool.get("token0") or {}).get("decimals")),
                   opt_int((pool.get("token1") or {}).get("decimals")))


UNKNOWN_SHAPE = PoolShape(False, None, None)  # a pool the pool list missed: no state columns


@dataclass(frozen=True)
class HourlyRead:
    block: int  # the block the subgraph was read at
    cutoff: int  # hours with hour_start + 1h <= cutoff have ended at that block
    pools: dict[str, int]  # pool -> createdAtTimestamp
    data: list[dict[str, Any]]  # PoolHourData in [start, cutoff)
    shapes: dict[str, PoolShape] = field(default_factory=dict)  # pool -> its type and decimals


STATE_COLUMNS = ("reserve0_raw", "reserve1_raw", "liquidity_raw", "sqrt_price_x96", "tick")


def close_state(d: dict[str, Any] | None, shape: PoolShape) -> tuple:
    """The STATE_COLUMNS of an hour's bucket: its PoolHourData's state at the hour's close; all
    None for an hour without one (nothing changed: the previous bucket's state carries)."""
    if d is None:
        return (None,) * len(STATE_COLUMNS)
    cl = shape.cl
    return (opt_raw(d.get("reserve0"), shape.decimals0), opt_raw(d.get("reserve1"), shape.decimals1),
            opt_int(d.get("liquidity")) if cl else None, opt_int(d.get("sqrtPrice")) if cl else None,
            opt_int(d.get("tick")) if cl else None)


def hourly_columns(chain_id: int, start: int, read: HourlyRead) -> tuple[dict[str, list], dict[str, list]]:
    """(pool_hourly columns, protocol_hourly columns) for every ended hour of [start, cutoff)."""
    found: dict[tuple[str, int], dict[str, Any]] = {}
    for d in read.data:
        hour = req_int(d.get("periodStartUnix"), f"hour data {d.get('id')} periodStartUnix")
        if hour % HOUR:
            raise ValueError(f"hour data {d.get('id')} starts off the hour: {hour}")
        pool = ref_id(d.get("pool"))
        if pool is None:
            raise ValueError(f"hour data {d.get('id')} has no pool")
        found[(pool, hour)] = d
    created = dict(read.pools)
    for pool, hour in found:  # hour data of a pool the pool list missed still counts
        created[pool] = min(created.get(pool, hour), hour)

    pool_cols: dict[str, list] = {k: [] for k in ("chain_id", "pool_address", "hour_start", "volume_usd",
                                                   "fees_usd", "tvl_usd_close", "tx_count", *STATE_COLUMNS)}
    totals: dict[int, list] = defaultdict(lambda: [[], [], 0])
    for hour in range(start, read.cutoff, HOUR):
        at = to_datetime(hour)
        for pool in sorted(created):
            if created[pool] >= hour + HOUR:
                continue  # did not exist during this hour
            d = found.get((pool, hour))
            volume = req_float(d.get("volumeUSD"), f"{pool}@{hour} volumeUSD") if d else 0.0
            fees = req_float(d.get("feesUSD"), f"{pool}@{hour} feesUSD") if d else 0.0
            pool_cols["chain_id"].append(chain_id)
            pool_cols["pool_address"].append(pool)
            pool_cols["hour_start"].append(at)
            pool_cols["volume_usd"].append(volume)
            pool_cols["fees_usd"].append(fees)
            pool_cols["tvl_usd_close"].append(opt_float(d.get("tvlUSD")) if d else None)
            pool_cols["tx_count"].append(int(d.get("txCount") or 0) if d else 0)
            for name, value in zip(STATE_COLUMNS, close_state(d, read.shapes.get(pool, UNKNOWN_SHAPE))):
                pool_cols[name].append(value)
            t = totals[hour]
            t[0].append(volume)
            t[1].append(fees)
            t[2] += 1
    hours = sorted(totals)
    protocol_cols = {
        "chain_id": [chain_id] * len(hours),
        "hour_start": [to_datetime(h) for h in hours],
        "volume_usd": [math.fsum(totals[h][0]) for h in hours],
        "fees_usd": [math.fsum(totals[h][1]) for h in hours],
        "pool_count": [totals[h][2] for h in hours],
    }
    return pool_cols, protocol_cols
