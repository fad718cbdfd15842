"""The `bridge_events` asset (daily partitions, one run per range, like `governance_events`):
every BridgeEvent of the subgraph whose timestamp falls in the range's days, read at one block
(the block at the range end when the subgraph has indexed past it, else its head), as rows of
assets.rows.bridge_events. Only on chains whose chain book entry has a bridge. Rows are keyed by
(guid, chain_id, id) in a ReplacingMergeTree table, so re-running a day replaces it; the range
read is recorded as the chain's `bridge` coverage, the boundary up to which its side of every
message is known (api/v1/bridge).
"""

from dagster import AssetExecutionContext, AssetsDefinition, MaterializeResult, asset

from . import groups
from .chain_scope import ChainScope
from .coverage import record_coverage
from .resources import ChainsResource, WarehouseResource
from .rows.bridge_events import FIELDS, bridge_rows
from .runs import partition_range
from .upstream import history_block
from .writers import insert_columns
from ..core.epochs import to_datetime

COVERAGE = "bridge"  # chain_coverage.dataset of the bridge events read


def build_bridge_assets(scope: ChainScope) -> list[AssetsDefinition]:
    """The chain's bridge events asset; none on a chain without a bridge."""
    if not scope.chain.has_bridge:
        return []
    cid = scope.chain_id

    @asset(
        name="bridge_events",
        **groups.history_asset(scope),
        metadata={"tables": "bridge_events", "chain": cid},
        description=f"Chain {cid}: the cross-chain packet events of the days (sent here, or verified, delivered, "
                    "alerted or burnt here), one row per event (bridge_events).",
    )
    def bridge_events(context: AssetExecutionContext, warehouse: WarehouseResource,
                      chains: ChainsResource) -> MaterializeResult:
        start, end, label = partition_range(context)
        chain = chains.chain(cid)
        block = history_block(chain.subgraph, chain.reader, end)
        cutoff = block.events_before
        raw = []
        if cutoff > start:
            raw = chain.subgraph.paginate("bridgeEvents", FIELDS, block=block.number,
                                          where={"timestamp_gte": start, "timestamp_lt": cutoff})
        with warehouse.client() as client:
            written = insert_columns(client, "bridge_events", bridge_rows(cid, raw), asset="bridge_events",
                                     partition_range=label)
        if cutoff > start:
            record_coverage(warehouse, cid, **{COVERAGE: (start, min(cutoff, end) - 1)})
        return MaterializeResult(metadata={"bridge_events": written, "block": block.number,
                                           "read_before": to_datetime(min(cutoff, end)).isoformat()})

    return [bridge_events]
