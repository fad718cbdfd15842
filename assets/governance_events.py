"""The `governance_events` asset (daily partitions, one run per range): every Bribe, Vote and
Claim of the subgraph whose timestamp falls in the range's days, read at one block (the block at
the range end when the subgraph has indexed past it, else the subgraph head; like `pool_hourly`).

Rows (assets.rows.governance_events) are keyed by (chain_id, epoch, id) in ReplacingMergeTree
tables, so re-running a day (the current one again and again) replaces rather than duplicates.
"""

from dagster import AssetExecutionContext, AssetsDefinition, MaterializeResult, asset

from . import groups
from .chain_scope import ChainScope
from .coverage import record_coverage
from .resources import ChainsResource, WarehouseResource
from .rows.governance_events import bribe_rows, claim_rows, vote_rows
from .runs import partition_range
from .upstream import history_block
from .writers import insert_columns
from ..core.epochs import to_datetime
from ..readers.chain import ChainReader
from ..readers.graphql import SubgraphClient

BRIBE_FIELDS = ("epoch amount amountUSD from isFoundation timestamp blockNumber transactionHash "
                "gauge { id } pool { id } token { id symbol decimals }")
VOTE_FIELDS = "epoch weight timestamp blockNumber veNFT { id owner isFoundation } pool { id } gauge { id }"
CLAIM_FIELDS = ("epoch amount amountUSD kind timestamp blockNumber transactionHash veNFT { id isFoundation } "
                "gauge { id } pool { id } token { id symbol decimals }")


def read_events(subgraph: SubgraphClient, chain: ChainReader, start: int, end: int) -> tuple[int, int, dict[str, list]]:
    """(block, cutoff, {entity: rows}) for events with start <= timestamp < cutoff at one block."""
    block = history_block(subgraph, chain, end)
    cutoff = block.events_before
    where = {"timestamp_gte": start, "timestamp_lt": cutoff}
    out = {}
    if cutoff > start:
        for entity, fields in (("bribes", BRIBE_FIELDS), ("votes", VOTE_FIELDS), ("claims", CLAIM_FIELDS)):
            out[entity] = subgraph.paginate(entity, fields, where=where, block=block.number)
    else:
        out = {"bribes": [], "votes": [], "claims": []}
    return block.number, cutoff, out


def build_governance_event_assets(scope: ChainScope) -> list[AssetsDefinition]:
    cid = scope.chain_id

    @asset(
        name="governance_events",
        **groups.history_asset(scope),
        metadata={"tables": "bribe_events, vote_events, claim_events", "chain": cid},
        description=f"Chain {cid}: bribe deposits, votes and reward claims of the days (bribe_events, vote_events, claim_events).",
    )
    def governance_events(
        context: AssetExecutionContext,
        warehouse: WarehouseResource,
        chains: ChainsResource,
    ) -> MaterializeResult:
        start, end, label = partition_range(context)
        chain = chains.chain(cid)
        block, cutoff, read = read_events(chain.subgraph, chain.reader, start, end)
        with warehouse.client() as client:
            written = {
                table: insert_columns(client, table, rows(cid, read[entity]), asset="governance_events",
                                      partition_range=label)
                for table, rows, entity in (("bribe_events", bribe_rows, "bribes"),
                                            ("vote_events", vote_rows, "votes"),
                                            ("claim_events", claim_rows, "claims"))
            }
        if cutoff > start:
            record_coverage(warehouse, cid, events=(start, min(cutoff, end) - 1))
        return MaterializeResult(metadata={**written, "block": block,
                                           "read_before": to_datetime(min(cutoff, end)).isoformat()})

    return [governance_events]
