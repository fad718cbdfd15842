"""The `vault_history` asset (daily partitions, one run per range, like `governance_events`):
VaultHourData of every hour that had ended, VaultDayData of every day (the in-progress one
flagged partial) and every VaultDeposit / VaultWithdrawal / VaultHarvest / VaultRebalance of the
days, all read at one block (the block at the range end when the subgraph has indexed past it,
else its head), as rows of assets.rows.vault_history.
"""

from dagster import AssetExecutionContext, AssetsDefinition, MaterializeResult, ResourceParam, asset

from . import groups
from .account_events import VAULTS, derive_account_events
from .chain_scope import ChainScope
from .coverage import record_coverage
from .resources import ChainsResource, Progress, WarehouseResource
from .rows.values import ref_id, req_int
from .rows.vault_history import VaultHistoryRead, vault_event_columns, vault_period_columns
from .runs import partition_range
from .upstream import history_block
from .writers import insert_columns
from ..core.epochs import DAY, HOUR, to_datetime
from ..readers.chain import ChainReader
from ..readers.graphql import SubgraphClient

FLOW_FIELDS = "vault { id } user shares amount0 amount1 amountUSD timestamp blockNumber transactionHash logIndex"
HARVEST_FIELDS = ("vault { id } token { id decimals } amount amountUSD feeAmount feeAmountUSD timestamp blockNumber "
                  "transactionHash logIndex")
REBALANCE_FIELDS = ("vault { id } oldTickLower oldTickUpper newTickLower newTickUpper tick sqrtPriceX96 amount0Before "
                    "amount1Before amount0After amount1After fees0 fees1 swapAmountIn swapAmountOut swapZeroForOne "
                    "timestamp blockNumber transactionHash logIndex")
PERIOD_FIELDS = "periodStartUnix vault { id } totalSupply amount0 amount1 tvlUSD sharePriceUSD harvestedUSD apr"
VAULT_TOKEN_FIELDS = "token0 { id decimals } token1 { id decimals }"
COVERAGE = "vault_events"  # chain_coverage.dataset of the vault events read
# (kind, subgraph entity, fields), in the order vault_events rows are built
EVENT_ENTITIES = (("deposit", "vaultDeposits", FLOW_FIELDS), ("withdrawal", "vaultWithdrawals", FLOW_FIELDS),
                  ("harvest", "vaultHarvests", HARVEST_FIELDS), ("rebalance", "vaultRebalances", REBALANCE_FIELDS))


def read_vault_history(subgraph: SubgraphClient, chain: ChainReader, start: int, end: int) -> VaultHistoryRead:
    at = history_block(subgraph, chain, end)
    block, cutoff = at.number, at.ended_by
    ended_before = start + max(0, (cutoff - start) // HOUR) * HOUR
    decimals = {}
    for v in subgraph.paginate("vaults", VAULT_TOKEN_FIELDS, block=block):
        decimals[ref_id(v) or ""] = (req_int((v.get("token0") or {}).get("decimals"), f"vault {v['id']} token0"),
                                     req_int((v.get("token1") or {}).get("decimals"), f"vault {v['id']} token1"))
    hours = days = []
    events: dict[str, list[dict]] = {kind: [] for kind, _, _ in EVENT_ENTITIES}
    if ended_before > start:
        hours = subgraph.paginate("vaultHourDatas", PERIOD_FIELDS, block=block,
                                  where={"periodStartUnix_gte": start, "periodStartUnix_lt": ended_before})
    if cutoff > start:
        days = subgraph.paginate("vaultDayDatas", PERIOD_FIELDS, block=block,
                                 where={"periodStartUnix_gte": start, "periodStartUnix_lt": end})
        for kind, entity, fields in EVENT_ENTITIES:
            events[kind] = subgraph.paginate(entity, fields, block=block,
                                             where={"timestamp_gte": start, "timestamp_lt": at.events_before})
    return VaultHistoryRead(block, cutoff, ended_before, decimals, hours, days, events,
                            events_before=min(at.events_before, end) if cutoff > start else start)


def build_vault_history_assets(scope: ChainScope) -> list[AssetsDefinition]:
    """The chain's vault history asset; none on a chain without vaults."""
    if not scope.chain.has_vaults:
        return []
    cid = scope.chain_id

    @asset(
        name="vault_history",
        **groups.history_asset(scope),
        metadata={"tables": "vault_hourly, vault_daily, vault_events", "chain": cid},
        description=f"Chain {cid}: vault hour rows of every ended hour, day rows (the running day partial) and every deposit, "
        "withdrawal, harvest and rebalance of the days (vault_hourly, vault_daily, vault_events).",
    )
    def vault_history(
        context: AssetExecutionContext,
        warehouse: WarehouseResource,
        chains: ChainsResource,
        progress: ResourceParam[Progress],
    ) -> MaterializeResult:
        start, end, label = partition_range(context)
        chain = chains.chain(cid)
        read = read_vault_history(chain.subgraph, chain.reader, start, end)
        with warehouse.client() as client:
            written = {
                table: insert_columns(client, table, columns, asset="vault_history", partition_range=label)
                for table, columns in (("vault_hourly", vault_period_columns(cid, read, HOUR)),
                                       ("vault_daily", vault_period_columns(cid, read, DAY)),
                                       ("vault_events", vault_event_columns(cid, read)))
            }
            if read.events_before > start:
                written["account_events"] = derive_account_events(client, cid, start, read.events_before, VAULTS)
        if read.events_before > start:  # how far the chain's vault events are known (api/v1/auto_manage)
            record_coverage(warehouse, cid, **{COVERAGE: (start, read.events_before - 1)})
        hours = (read.ended_before - start) // HOUR
        progress.report("history: vault hours read", hours, (end - start) // HOUR, force=True)
        return MaterializeResult(metadata={
            **{f"rows {t}": n for t, n in written.items()},
            "block": read.block,
            "ended_before": to_datetime(read.ended_before).isoformat() if read.ended_before > start else "",
        })

    return [vault_history]
