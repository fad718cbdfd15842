"""Daily rollups: pool_daily and protocol_daily from the hourly tables (INSERT ... SELECT FINAL).

Same daily partitions as pool_hourly; a range of days is one statement per table. A day that is
still in progress gets a row with hours_covered < 24, rewritten (ReplacingMergeTree) as its
hours are added; the API marks it partial.
"""

from dagster import AssetExecutionContext, AssetsDefinition, MaterializeResult, asset

from . import groups
from .chain_scope import ChainScope
from .resources import WarehouseResource
from .writers import query_rows, run_transform

# target table -> (INSERT ... SELECT file, source table whose fingerprint keys the dedup token)
TRANSFORMS = {
    "pool_daily": ("rollups/pool_daily.sql", "pool_hourly"),
    "protocol_daily": ("rollups/protocol_daily.sql", "protocol_hourly"),
}


def build_rollup_assets(scope: ChainScope, pool_hourly: AssetsDefinition) -> list[AssetsDefinition]:
    cid = scope.chain_id

    @asset(
        name="daily_rollups",
        deps=[pool_hourly],
        **groups.history_asset(scope, kinds=("clickhouse", "sql")),
        metadata={"tables": "pool_daily, protocol_daily", "sql": ", ".join(sql for sql, _ in TRANSFORMS.values()),
                  "chain": cid},
        description=f"Chain {cid}: per-day pool and protocol totals rolled up from the hourly tables.",
    )
    def daily_rollups(context: AssetExecutionContext, warehouse: WarehouseResource) -> MaterializeResult:
        window = context.partition_time_window
        params = {
            "chain_id": cid,
            "from_ts": int(window.start.timestamp()),
            "to_ts": int(window.end.timestamp()),
        }
        keys = context.partition_key_range
        metadata = {}
        with warehouse.client() as client:
            fingerprint = query_rows(client, "rollups/hourly_fingerprint.sql", params)[0]
            for table, (sql, source) in TRANSFORMS.items():
                token = f"daily_rollups/{cid}/{table}/{keys.start}..{keys.end}/{fingerprint[source]}"
                summary = run_transform(client, sql, params, dedup_token=token)
                metadata[f"{table}_rows_written"] = int(getattr(summary, "written_rows", 0) or 0)
                metadata[f"{source}_fingerprint"] = fingerprint[source]
        return MaterializeResult(metadata=metadata)

    return [daily_rollups]
