"""Hourly history: pool_hourly and protocol_hourly, written by daily partitions.

For a range of UTC days [start, end) the asset reads the subgraph's PoolHourData at one block:
the block at `end` when the subgraph has indexed past it, else the subgraph head. Every hour that
has fully ended by then gets a bucket for every pool that existed during it; an hour without
PoolHourData is a real zero (the subgraph is complete up to the block read, and like Uniswap it
only creates hour data for hours with activity). Hours that have not ended are never written, so
every stored bucket is final. protocol_hourly is the sum over pools of each hour.
"""

import math
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from dagster import (
    AssetExecutionContext,
    AssetsDefinition,
    BackfillPolicy,
    MaterializeResult,
    PartitionsDefinition,
    ResourceParam,
    asset,
)

from ve_analytics.assets.rows.values import opt_float, ref_id, req_float, req_int
from ve_analytics.assets.upstream import POOL_HOUR_FIELDS, subgraph_head
from ve_analytics.assets.writers import insert_columns, partition_range, utc
from ve_analytics.core.epochs import HOUR
from ve_analytics.assets.resources import ChainResource, Progress, SubgraphResource, WarehouseResource
from ve_analytics.readers.chain import ChainReader
from ve_analytics.readers.graphql import SubgraphClient

GROUP = "history"


@dataclass(frozen=True)
class HourlyRead:
    block: int  # the block the subgraph was read at
    cutoff: int  # hours with hour_start + 1h <= cutoff have ended at that block
    pools: dict[str, int]  # pool -> createdAtTimestamp
    data: list[dict[str, Any]]  # PoolHourData in [start, cutoff)


def read_hours(subgraph: SubgraphClient, chain: ChainReader, start: int, end: int) -> HourlyRead:
    head = subgraph_head(subgraph)
    if head.block_timestamp > end:
        block = min(chain.block_at(end).number, head.block_number)
        cutoff = end
    else:
        block, cutoff = head.block_number, head.block_timestamp
    ended_before = start + max(0, (cutoff - start) // HOUR) * HOUR  # end of the last ended hour
    pools = {
        ref_id(p): req_int(p.get("createdAtTimestamp"), f"pool {p['id']} createdAtTimestamp")
        for p in subgraph.paginate("pools", "createdAtTimestamp", block=block)
    }
    data = []
    if ended_before > start:
        data = subgraph.paginate(
            "poolHourDatas",
            POOL_HOUR_FIELDS,
            where={"periodStartUnix_gte": start, "periodStartUnix_lt": ended_before},
            block=block,
        )
    return HourlyRead(block=block, cutoff=ended_before, pools=pools, data=data)


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
                                                   "fees_usd", "tvl_usd_close", "tx_count")}
    totals: dict[int, list] = defaultdict(lambda: [[], [], 0])
    for hour in range(start, read.cutoff, HOUR):
        at = utc(hour)
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
            t = totals[hour]
            t[0].append(volume)
            t[1].append(fees)
            t[2] += 1
    hours = sorted(totals)
    protocol_cols = {
        "chain_id": [chain_id] * len(hours),
        "hour_start": [utc(h) for h in hours],
        "volume_usd": [math.fsum(totals[h][0]) for h in hours],
        "fees_usd": [math.fsum(totals[h][1]) for h in hours],
        "pool_count": [totals[h][2] for h in hours],
    }
    return pool_cols, protocol_cols


def build_hourly_assets(partitions_def: PartitionsDefinition) -> list[AssetsDefinition]:
    @asset(
        name="pool_hourly",
        partitions_def=partitions_def,
        backfill_policy=BackfillPolicy.single_run(),
        group_name=GROUP,
        kinds={"clickhouse", "python"},
        metadata={"tables": "pool_hourly, protocol_hourly"},
        description="Hourly buckets per pool and protocol totals for each ended hour of the days (pool_hourly, protocol_hourly).",
    )
    def pool_hourly(
        context: AssetExecutionContext,
        warehouse: WarehouseResource,
        subgraph: SubgraphResource,
        chain: ChainResource,
        progress: ResourceParam[Progress],
    ) -> MaterializeResult:
        start, end, label = partition_range(context)
        read = read_hours(subgraph.client, chain.reader, start, end)
        pool_cols, protocol_cols = hourly_columns(chain.chain_id, start, read)
        with warehouse.client() as client:
            pool_rows = insert_columns(client, "pool_hourly", pool_cols, asset="pool_hourly", partition_range=label)
            protocol_rows = insert_columns(client, "protocol_hourly", protocol_cols, asset="pool_hourly", partition_range=label)
        hours = (read.cutoff - start) // HOUR if read.cutoff > start else 0
        progress.report("history: ended hours read", hours, (end - start) // HOUR, force=True)
        return MaterializeResult(
            metadata={
                "pool_hourly_rows": pool_rows,
                "protocol_hourly_rows": protocol_rows,
                "hours_written": hours,
                "hour_data_read": len(read.data),
                "block": read.block,
                "ended_before": utc(read.cutoff).isoformat() if read.cutoff > start else "",
            }
        )

    return [pool_hourly]
