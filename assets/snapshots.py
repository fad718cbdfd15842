"""15-minute snapshot assets: tokens, pools, protocol, and their publication.

Every asset handles a whole partition range in one run (BackfillPolicy.single_run): the
snapshot times are the ends of the range's 15-minute windows, each read at the last block at or
before it, and each table gets one insert per run. `snapshot_publication` marks the range's
snapshots successful only after the three others succeeded in the same run.
"""

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

from assets.core_token import build_market_snapshot_assets
from assets.governance import build_governance_snapshot_assets
from assets.publication import failures_recorded, publish
from assets.snapshot_rows import load_flow_series, pool_columns, protocol_columns, token_columns
from assets.upstream import resolve_points, window_snapshot_times
from assets.writers import insert_columns
from orchestration.resources import ChainResource, Progress, SubgraphResource, WarehouseResource

GROUP = "snapshots"


def snapshot_range(context: AssetExecutionContext) -> tuple[list[int], str]:
    """Snapshot times of the run's partition range, and a label for dedup tokens."""
    window = context.partition_time_window
    times = window_snapshot_times(int(window.start.timestamp()), int(window.end.timestamp()))
    keys = context.partition_key_range
    return times, f"{keys.start}..{keys.end}"


def _meta(points: list, rows: int, table: str, **extra: Any) -> dict[str, Any]:
    return {
        "table": table,
        "rows": rows,
        "snapshots": len(points),
        "first_block": points[0].block.number if points else 0,
        "last_block": points[-1].block.number if points else 0,
        **extra,
    }


def build_snapshot_assets(partitions_def: PartitionsDefinition) -> list[AssetsDefinition]:
    common = dict(
        partitions_def=partitions_def,
        backfill_policy=BackfillPolicy.single_run(),
        group_name=GROUP,
        kinds={"clickhouse", "python"},
    )

    @asset(name="token_snapshots", metadata={"table": "token_snap15m"},
           description="Every token at each snapshot block (token_snap15m).", **common)
    def token_snapshots(
        context: AssetExecutionContext,
        warehouse: WarehouseResource,
        subgraph: SubgraphResource,
        chain: ChainResource,
        progress: ResourceParam[Progress],
    ) -> MaterializeResult:
        times, label = snapshot_range(context)
        with failures_recorded(context, warehouse, chain_id=chain.chain_id, times=times,
                               asset="token_snapshots", partition_range=label):
            points = resolve_points(chain.reader, subgraph.client, times)
            columns = token_columns(subgraph.client, chain.chain_id, points,
                                    on_done=lambda d, n: progress.report("snapshots: tokens", d, n))
            with warehouse.client() as client:
                rows = insert_columns(client, "token_snap15m", columns, asset="token_snapshots", partition_range=label)
        return MaterializeResult(metadata=_meta(points, rows, "token_snap15m"))

    @asset(name="pool_snapshots", metadata={"table": "pool_snap15m"},
           description="Every pool at each snapshot block with its 24h flows from pool_hourly (pool_snap15m).",
           **common)
    def pool_snapshots(
        context: AssetExecutionContext,
        warehouse: WarehouseResource,
        subgraph: SubgraphResource,
        chain: ChainResource,
        progress: ResourceParam[Progress],
    ) -> MaterializeResult:
        times, label = snapshot_range(context)
        with failures_recorded(context, warehouse, chain_id=chain.chain_id, times=times,
                               asset="pool_snapshots", partition_range=label):
            points = resolve_points(chain.reader, subgraph.client, times)
            with warehouse.client() as client:
                protocol, per_pool = load_flow_series(client, chain.chain_id, times)
                columns = pool_columns(subgraph.client, chain.chain_id, points, protocol, per_pool,
                                       on_done=lambda d, n: progress.report("snapshots: pools", d, n))
                rows = insert_columns(client, "pool_snap15m", columns, asset="pool_snapshots", partition_range=label)
        return MaterializeResult(metadata=_meta(points, rows, "pool_snap15m"))

    @asset(name="protocol_snapshot", metadata={"table": "protocol_snap15m"},
           description="Protocol TVL, rolling flows and governance state per snapshot (protocol_snap15m).",
           **common)
    def protocol_snapshot(
        context: AssetExecutionContext,
        warehouse: WarehouseResource,
        subgraph: SubgraphResource,
        chain: ChainResource,
        progress: ResourceParam[Progress],
    ) -> MaterializeResult:
        times, label = snapshot_range(context)
        warnings: list[str] = []
        with failures_recorded(context, warehouse, chain_id=chain.chain_id, times=times,
                               asset="protocol_snapshot", partition_range=label):
            points = resolve_points(chain.reader, subgraph.client, times)
            core_token = chain.contracts()["coreToken"]
            with warehouse.client() as client:
                protocol, _ = load_flow_series(client, chain.chain_id, times)
                columns = protocol_columns(subgraph.client, chain.reader, chain.chain_id, points, protocol,
                                           core_token, warnings=warnings,
                                           on_done=lambda d, n: progress.report("snapshots: protocol", d, n))
                rows = insert_columns(client, "protocol_snap15m", columns, asset="protocol_snapshot", partition_range=label)
        for line in warnings[:5]:
            context.log.warning(line)
        return MaterializeResult(metadata=_meta(points, rows, "protocol_snap15m", warnings=len(warnings)))

    governance = build_governance_snapshot_assets(common, snapshot_range, failures_recorded)
    market = build_market_snapshot_assets(common, snapshot_range, failures_recorded)

    @asset(name="snapshot_publication", deps=[token_snapshots, pool_snapshots, protocol_snapshot, *governance, *market],
           metadata={"table": "snapshot_runs"},
           description="Marks each snapshot of the range successful in snapshot_runs once all its rows are stored.",
           **common)
    def snapshot_publication(
        context: AssetExecutionContext,
        warehouse: WarehouseResource,
        chain: ChainResource,
    ) -> MaterializeResult:
        times, label = snapshot_range(context)
        with failures_recorded(context, warehouse, chain_id=chain.chain_id, times=times,
                               asset="snapshot_publication", partition_range=label):
            with warehouse.client() as client:
                summary = publish(context, client, chain_id=chain.chain_id, times=times, partition_range=label)
        return MaterializeResult(metadata={"table": "snapshot_runs", **summary})

    return [token_snapshots, pool_snapshots, protocol_snapshot, *governance, *market, snapshot_publication]
