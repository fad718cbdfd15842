"""The `governance_events` asset (daily partitions, one run per range): every Bribe, Vote, Claim,
Voter log (VoteEvent), VotingEscrow log (EscrowEvent) and gauge lifecycle event (GaugeEvent) of the subgraph whose timestamp falls
in the range's days, and the gauge epochs (GaugeEpoch) those days touch, and on chains with rebases the
RewardsDistributor's checkpoints and claims of those days (assets/rebases.py), read at one block (the
block at the range end when the subgraph has indexed past it, else the subgraph head; like
`pool_hourly`).

Rows (assets.rows.governance_events) are keyed by (chain_id, epoch, id) in ReplacingMergeTree
tables, so re-running a day (the current one again and again) replaces rather than duplicates.
"""

from dagster import AssetExecutionContext, AssetsDefinition, MaterializeResult, asset

from . import groups
from .account_events import GOVERNANCE, derive_account_events
from .chain_scope import ChainScope
from .coverage import record_coverage
from .rebases import read_rebases
from .resources import ChainsResource, WarehouseResource
from .rows.escrow_events import escrow_event_rows
from .rows.governance_events import bribe_rows, claim_rows, vote_rows
from .rows.voter_events import gauge_epoch_rows, gauge_event_rows, vote_action_rows
from .runs import partition_range
from .upstream import HistoryBlock, history_block
from .writers import insert_columns
from ..core.epochs import epoch_start, to_datetime
from ..readers.chain import ChainReader
from ..readers.graphql import SubgraphClient

BRIBE_FIELDS = ("epoch amount amountUSD from isFoundation timestamp blockNumber transactionHash "
                "target gauge { id } pool { id } token { id symbol decimals }")
VOTE_FIELDS = "epoch weight timestamp blockNumber target veNFT { id owner isFoundation } pool { id } gauge { id }"
CLAIM_FIELDS = ("epoch amount amountUSD kind timestamp blockNumber transactionHash owner veNFT { id isFoundation } "
                "target gauge { id } pool { id } token { id symbol decimals }")
VOTE_EVENT_FIELDS = ("kind eventName tokenId owner target weight poolWeight totalWeight timestamp blockNumber "
                     "transactionHash logIndex pool { id } gauge { id }")
ESCROW_EVENT_FIELDS = ("kind tokenId from to amount unlockTime permanent mergedInto splitFrom timestamp blockNumber "
                       "transactionHash logIndex")
GAUGE_EVENT_FIELDS = "kind gaugeKind target timestamp blockNumber transactionHash logIndex gauge { id } pool { id }"
GAUGE_EPOCH_FIELDS = ("epoch kind target isAlive isPartial votes votesAtStart emissions rewardRate emitted fees0 fees1 "
                      "feesUSD bribesUSD bribeCount unpricedBribeCount gauge { id } pool { id } "
                      "token0 { id decimals } token1 { id decimals }")
EVENTS = (("bribes", BRIBE_FIELDS), ("votes", VOTE_FIELDS), ("claims", CLAIM_FIELDS),
          ("voteEvents", VOTE_EVENT_FIELDS), ("escrowEvents", ESCROW_EVENT_FIELDS),
          ("gaugeEvents", GAUGE_EVENT_FIELDS))


def read_events(subgraph: SubgraphClient, chain: ChainReader, start: int,
                end: int) -> tuple[HistoryBlock, dict[str, list]]:
    """(block, {entity: rows}) for events with start <= timestamp < block.events_before at one block,
    and the gauge epochs those days touch (gaugeEpochs) as aggregated at that block."""
    block = history_block(subgraph, chain, end)
    cutoff = block.events_before
    out: dict[str, list] = {entity: [] for entity, _ in EVENTS} | {"gaugeEpochs": []}
    if cutoff > start:
        where = {"timestamp_gte": start, "timestamp_lt": cutoff}
        for entity, fields in EVENTS:
            out[entity] = subgraph.paginate(entity, fields, where=where, block=block.number)
        epochs = {"epoch_gte": epoch_start(start), "epoch_lte": epoch_start(cutoff - 1)}
        out["gaugeEpochs"] = subgraph.paginate("gaugeEpochs", GAUGE_EPOCH_FIELDS, where=epochs, block=block.number)
    return block, out


def build_governance_event_assets(scope: ChainScope) -> list[AssetsDefinition]:
    cid = scope.chain_id

    @asset(
        name="governance_events",
        **groups.history_asset(scope),
        metadata={"tables": "bribe_events, vote_events, claim_events, vote_actions, escrow_events, gauge_events, "
                            "gauge_epochs, rebase_epochs, venft_rebases, rebase_claims, account_events",
                  "chain": cid},
        description=f"Chain {cid}: bribe deposits, votes, reward claims, Voter and VotingEscrow logs and gauge "
                    "lifecycle events of the days, the gauge epochs they touch, and the rewards distributor's rebases "
                    "checkpointed and claimed in them with every veNFT's share (bribe_events, vote_events, claim_events, "
                    "vote_actions, escrow_events, gauge_events, gauge_epochs, rebase_epochs, venft_rebases, rebase_claims; "
                    "the accounts' records of them in account_events).",
    )
    def governance_events(
        context: AssetExecutionContext,
        warehouse: WarehouseResource,
        chains: ChainsResource,
    ) -> MaterializeResult:
        start, end, label = partition_range(context)
        chain = chains.chain(cid)
        block, read = read_events(chain.subgraph, chain.reader, start, end)
        cutoff = block.events_before
        with warehouse.client() as client:
            written = {
                table: insert_columns(client, table, rows(cid, read[entity]), asset="governance_events",
                                      partition_range=label)
                for table, rows, entity in (("bribe_events", bribe_rows, "bribes"),
                                            ("vote_events", vote_rows, "votes"),
                                            ("claim_events", claim_rows, "claims"),
                                            ("vote_actions", vote_action_rows, "voteEvents"),
                                            ("escrow_events", escrow_event_rows, "escrowEvents"),
                                            ("gauge_events", gauge_event_rows, "gaugeEvents"))
            }
            written["gauge_epochs"] = insert_columns(
                client, "gauge_epochs", gauge_epoch_rows(cid, read["gaugeEpochs"], block.number, block.timestamp),
                asset="governance_events", partition_range=label)
            config = chain.config()
            if cutoff > start and config.has_rebases:
                rebases = read_rebases(chain.subgraph, chain.reader, config.contracts,
                                       {"timestamp_gte": start, "timestamp_lt": cutoff}, block.number)
                for table, cols in rebases.items():
                    written[table] = insert_columns(client, table, cols, asset="governance_events", partition_range=label)
            if cutoff > start:
                written["account_events"] = derive_account_events(client, cid, start, min(cutoff, end), GOVERNANCE)
        if cutoff > start:
            record_coverage(warehouse, cid, events=(start, min(cutoff, end) - 1))
        return MaterializeResult(metadata={**written, "block": block.number,
                                           "read_before": to_datetime(min(cutoff, end)).isoformat()})

    return [governance_events]
