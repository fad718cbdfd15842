"""One shape for the history assets of one event entity (daily partitions, one run per range,
like `governance_events`): every entity row whose timestamp falls in the range's days, read at
one block (the block at the range end when the subgraph has indexed past it, else its head),
turned into a table's rows; the range read is recorded as the chain's coverage of the dataset,
the boundary up to which the chain's events are known. Rows are keyed so that re-running a day
replaces it (ReplacingMergeTree)."""

from dataclasses import dataclass
from typing import Callable

from dagster import AssetExecutionContext, AssetsDefinition, MaterializeResult, asset

from . import groups
from .chain_scope import ChainScope
from .account_events import derive_account_events
from .coverage import record_coverage
from .resources import ChainsResource, WarehouseResource
from .runs import partition_range
from .upstream import history_block
from .writers import insert_columns
from ..core.epochs import to_datetime


@dataclass(frozen=True)
class EventHistory:
    name: str  # the asset's and its table's name
    entity: str  # the subgraph's collection field
    fields: str
    rows: Callable[[int, list[dict]], dict[str, list]]  # (chain id, entities) -> the table's columns
    coverage: str  # chain_coverage.dataset
    description: str  # what the rows are, after "Chain <id>: "
    account_domain: str | None = None  # the account_events domain the rows feed (assets/account_events.py)


def event_history_asset(spec: EventHistory, scope: ChainScope) -> AssetsDefinition:
    cid = scope.chain_id

    @asset(name=spec.name, **groups.history_asset(scope), metadata={"tables": spec.name, "chain": cid},
           description=f"Chain {cid}: {spec.description}")
    def _events(context: AssetExecutionContext, warehouse: WarehouseResource,
                chains: ChainsResource) -> MaterializeResult:
        start, end, label = partition_range(context)
        chain = chains.chain(cid)
        block = history_block(chain.subgraph, chain.reader, end)
        cutoff = block.events_before
        raw = []
        if cutoff > start:
            raw = chain.subgraph.paginate(spec.entity, spec.fields, block=block.number,
                                          where={"timestamp_gte": start, "timestamp_lt": cutoff})
        with warehouse.client() as client:
            written = insert_columns(client, spec.name, spec.rows(cid, raw), asset=spec.name, partition_range=label)
            if spec.account_domain and cutoff > start:
                derive_account_events(client, cid, start, min(cutoff, end), spec.account_domain)
        if cutoff > start:
            record_coverage(warehouse, cid, **{spec.coverage: (start, min(cutoff, end) - 1)})
        return MaterializeResult(metadata={spec.name: written, "block": block.number,
                                           "read_before": to_datetime(min(cutoff, end)).isoformat()})

    return _events
