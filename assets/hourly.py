"""The hourly history assets, written by daily partitions: `pool_hourly` (pool_hourly and
protocol_hourly) and `token_hourly` (each token's valuation at the close of every hour).

For a range of UTC days [start, end) each reads the subgraph's hour data (PoolHourData,
TokenHourData) at one block (assets.upstream.history_block) and writes every hour that had fully
ended by then (assets.rows.hourly, assets.rows.token_hourly). `token_hourly` then writes one
price_valuation_runs row per day it valued: the day's success row, so only after its rows.
"""

from dagster import AssetExecutionContext, AssetsDefinition, MaterializeResult, ResourceParam, asset

from . import groups
from .chain_scope import ChainScope
from .coverage import record_coverage
from .resources import ChainsResource, Progress, WarehouseResource
from .rows.hourly import HourlyRead, PoolShape, hourly_columns
from .rows.token_hourly import Stored, token_hourly_columns, valuation_run_columns
from .rows.values import req_int, ref_id
from .runs import partition_range
from .upstream import HOURLY_POOL_FIELDS, POOL_HOUR_FIELDS, TOKEN_HOUR_FIELDS, history_block, protocol_start
from .writers import insert_columns, query_columns
from ..core.epochs import HOUR, to_datetime
from ..readers.chain import ChainReader
from ..readers.graphql import SubgraphClient


def read_hours(subgraph: SubgraphClient, chain: ChainReader, start: int, end: int) -> HourlyRead:
    block = history_block(subgraph, chain, end)
    ended_before = start + max(0, (block.ended_by - start) // HOUR) * HOUR  # end of the last ended hour
    listed = subgraph.paginate("pools", HOURLY_POOL_FIELDS, block=block.number)
    pools = {ref_id(p): req_int(p.get("createdAtTimestamp"), f"pool {p['id']} createdAtTimestamp") for p in listed}
    data = []
    if ended_before > start:
        data = subgraph.paginate(
            "poolHourDatas",
            POOL_HOUR_FIELDS,
            where={"periodStartUnix_gte": start, "periodStartUnix_lt": ended_before},
            block=block.number,
        )
    return HourlyRead(block=block.number, cutoff=ended_before, pools=pools, data=data,
                      shapes={ref_id(p): PoolShape.of(p) for p in listed})


def stored_valuations(client, chain_id: int, start: int, end: int) -> Stored:
    """The chain's token_hourly rows of [start, end) as stored: what a rewrite is revised against."""
    cols = query_columns(client, "history/token_hourly_stored.sql",
                         {"chain_id": chain_id, "from_ts": start, "to_ts": end})
    return {(token, int(hour)): (price, int(generation), int(revision)) for token, hour, price, generation, revision
            in zip(cols["token_address"], cols["hour_ts"], cols["price"], cols["generation"], cols["revision"])}


def coverage_of(read: HourlyRead, protocol_cols: dict[str, list]) -> dict:
    """The hours written, and the market's first activity (its first pool's creation) as seen at
    the block read: the chain's history begins there, whatever the day partitions start at."""
    hours = protocol_cols["hour_start"]
    first_pool = min(read.pools.values(), default=None)
    return {
        "hourly": (int(hours[0].timestamp()), int(hours[-1].timestamp())) if hours else None,
        "market_activity": (first_pool, max(first_pool, read.cutoff)) if first_pool is not None else None,
    }


def build_hourly_assets(scope: ChainScope) -> list[AssetsDefinition]:
    cid = scope.chain_id

    @asset(
        name="pool_hourly",
        **groups.history_asset(scope),
        metadata={"tables": "pool_hourly, protocol_hourly", "chain": cid},
        description=f"Chain {cid}: hourly buckets per pool and protocol totals for each ended hour of the days "
                    "(pool_hourly, protocol_hourly).",
    )
    def pool_hourly(
        context: AssetExecutionContext,
        warehouse: WarehouseResource,
        chains: ChainsResource,
        progress: ResourceParam[Progress],
    ) -> MaterializeResult:
        start, end, label = partition_range(context)
        chain = chains.chain(cid)
        read = read_hours(chain.subgraph, chain.reader, start, end)
        pool_cols, protocol_cols = hourly_columns(cid, start, read)
        with warehouse.client() as client:
            pool_rows = insert_columns(client, "pool_hourly", pool_cols, asset="pool_hourly", partition_range=label)
            protocol_rows = insert_columns(client, "protocol_hourly", protocol_cols, asset="pool_hourly", partition_range=label)
        record_coverage(warehouse, cid, **coverage_of(read, protocol_cols))
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

    @asset(
        name="token_hourly",
        **groups.history_asset(scope),
        metadata={"tables": "token_hourly, price_valuation_runs", "chain": cid},
        description=f"Chain {cid}: every token's USD valuation at the close of each ended hour of the days, with the "
                    "hour's volume and the valuation's revision (token_hourly): the historical input of price "
                    "history; then, per day valued, its success row (price_valuation_runs).",
    )
    def token_hourly(context: AssetExecutionContext, warehouse: WarehouseResource,
                     chains: ChainsResource) -> MaterializeResult:
        start, end, label = partition_range(context)
        chain = chains.chain(cid)
        block = history_block(chain.subgraph, chain.reader, end)
        cutoff = start + max(0, (block.ended_by - start) // HOUR) * HOUR
        data = chain.subgraph.paginate("tokenHourDatas", TOKEN_HOUR_FIELDS, block=block.number,
                                       where={"periodStartUnix_gte": start, "periodStartUnix_lt": cutoff}) \
            if cutoff > start else []
        first_activity = protocol_start(chain.subgraph)
        with warehouse.client() as client:
            stored = stored_valuations(client, cid, start, end)
            columns = token_hourly_columns(cid, block.number, cutoff, data, first_activity, stored)
            runs = valuation_run_columns(cid, start, end, block.number, cutoff, columns, stored)
            rows = insert_columns(client, "token_hourly", columns, asset="token_hourly", partition_range=label)
            days = insert_columns(client, "price_valuation_runs", runs, asset="token_hourly", partition_range=label)
        return MaterializeResult(metadata={
            "token_hourly_rows": rows, "price_valuation_runs": days, "revised_rows": sum(runs["revised_rows"]),
            "highest_revision": max(runs["revision"], default=0), "block": block.number,
            "ended_before": to_datetime(cutoff).isoformat() if cutoff > start else ""})

    return [pool_hourly, token_hourly]
