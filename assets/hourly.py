"""The `pool_hourly` asset: pool_hourly and protocol_hourly, written by daily partitions.

For a range of UTC days [start, end) the asset reads the subgraph's PoolHourData at one block
(assets.upstream.history_block) and writes a bucket per pool for every hour that had fully ended
by then (assets.rows.hourly).
"""

from dagster import (
    AssetExecutionContext,
    AssetsDefinition,
    MaterializeResult,
    PartitionsDefinition,
    ResourceParam,
    asset,
)

from . import groups
from .resources import ChainResource, Progress, SubgraphResource, WarehouseResource
from .rows.hourly import HourlyRead, hourly_columns
from .rows.values import req_int, ref_id
from .runs import partition_range
from .upstream import POOL_HOUR_FIELDS, history_block
from .writers import insert_columns
from ..core.epochs import HOUR, to_datetime
from ..readers.chain import ChainReader
from ..readers.graphql import SubgraphClient


def read_hours(subgraph: SubgraphClient, chain: ChainReader, start: int, end: int) -> HourlyRead:
    block = history_block(subgraph, chain, end)
    ended_before = start + max(0, (block.ended_by - start) // HOUR) * HOUR  # end of the last ended hour
    pools = {
        ref_id(p): req_int(p.get("createdAtTimestamp"), f"pool {p['id']} createdAtTimestamp")
        for p in subgraph.paginate("pools", "createdAtTimestamp", block=block.number)
    }
    data = []
    if ended_before > start:
        data = subgraph.paginate(
            "poolHourDatas",
            POOL_HOUR_FIELDS,
            where={"periodStartUnix_gte": start, "periodStartUnix_lt": ended_before},
            block=block.number,
        )
    return HourlyRead(block=block.number, cutoff=ended_before, pools=pools, data=data)


def build_hourly_assets(partitions_def: PartitionsDefinition) -> list[AssetsDefinition]:
    @asset(
        name="pool_hourly",
        **groups.history_asset(partitions_def),
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
                "ended_before": to_datetime(read.cutoff).isoformat() if read.cutoff > start else "",
            }
        )

    return [pool_hourly]
