"""Vault assets: the 15-minute vault snapshot rows and the daily vault history.

- `vault_snapshots` (`VAULT_SNAPSHOT_ASSETS`, built by assets.snapshots.snapshot_asset, upstream
  of `snapshot_publication`): one vault_snap15m row per configured vault (the chain book's `vaults`)
  per snapshot, read through Multicall3 at the snapshot block in two batches per block: first
  every vault's own views (tokens, pool, gauge, strategy, factory, totals, supply, calm,
  slippage, CL position), then what those views point at (strategy paused / needsRebalance,
  factory globalPause, pool slot0 tick, token symbol and decimals). Nothing but key, address and
  kind comes from configuration, so a vault added to the book appears without code changes.
  Prices are the subgraph's Token.priceUSD at the same block, the token_snap15m source; TVL and
  share price stay NULL when a price is unknown. A vault without code at the block (not deployed
  yet) has no row; a deployed vault whose reads fail fails the run, so a snapshot is never
  published with a vault missing or zeroed.
- `vault_history` (daily partitions, one run per range, like `governance_events`): VaultHourData
  of every hour that had ended, VaultDayData of every day (the in-progress one flagged partial)
  and every VaultDeposit / VaultWithdrawal / VaultHarvest / VaultRebalance of the days, all read
  at one block (the block at the range end when the subgraph has indexed past it, else its head).
"""

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

from dagster import (
    AssetExecutionContext,
    AssetsDefinition,
    BackfillPolicy,
    MaterializeResult,
    PartitionsDefinition,
    ResourceParam,
    asset,
)
from eth_utils import to_checksum_address

from ve_analytics.assets.rows.values import columns, opt_float, opt_int, ref_id, req_int, to_raw
from ve_analytics.assets.upstream import SnapshotPoint, fetch_each, subgraph_head
from ve_analytics.assets.writers import insert_columns, partition_range, utc
from ve_analytics.core.epochs import DAY, HOUR
from ve_analytics.core.vaults import VaultConfig
from ve_analytics.assets.resources import ChainResource, Progress, SubgraphResource, WarehouseResource
from ve_analytics.readers.chain import ZERO_ADDRESS, Call, ChainReader, ChainReadError
from ve_analytics.readers.graphql import SubgraphClient

if TYPE_CHECKING:
    from ve_analytics.assets.snapshots import SnapshotStep

HISTORY_GROUP = "history"

SNAPSHOT_COLUMNS = (
    "chain_id", "snapshot_at", "block_number", "vault_address", "vault_key", "kind", "pool_address", "gauge_address",
    "strategy_address", "token0_address", "token1_address", "token0_symbol", "token1_symbol", "token0_decimals",
    "token1_decimals", "share_decimals", "total_supply_raw", "amount0_raw", "amount1_raw", "token0_price_usd",
    "token1_price_usd", "tvl_usd", "share_price_usd", "is_calm", "strategy_paused", "global_pause", "slippage_bps",
    "tick", "tick_lower", "tick_upper", "liquidity_raw", "needs_rebalance", "last_rebalance", "last_harvest",
)
PERIOD_COLUMNS = ("chain_id", "vault_address", "period_start", "total_supply_raw", "amount0_raw", "amount1_raw",
                  "tvl_usd", "share_price_usd", "harvested_usd", "apr", "deposits", "withdrawals", "partial")
EVENT_COLUMNS = ("chain_id", "vault_address", "id", "kind", "block_timestamp", "block_number", "transaction_hash",
                 "log_index", "user", "shares_raw", "amount0_raw", "amount1_raw", "amount_usd", "token_address",
                 "amount_raw", "old_tick_lower", "old_tick_upper", "new_tick_lower", "new_tick_upper", "tick")

# The vault's own views, read first: (name, signature, output types, CL only)
VAULT_VIEWS: tuple[tuple[str, str, tuple[str, ...], bool], ...] = (
    ("token0", "token0()", ("address",), False),
    ("token1", "token1()", ("address",), False),
    ("pool", "pool()", ("address",), False),
    ("gauge", "gauge()", ("address",), False),
    ("strategy", "strategy()", ("address",), False),
    ("factory", "factory()", ("address",), False),
    ("decimals", "decimals()", ("uint8",), False),
    ("totalSupply", "totalSupply()", ("uint256",), False),
    ("totals", "getTotalAmounts()", ("uint256", "uint256"), False),
    ("isCalm", "isCalm()", ("bool",), False),
    ("slippageBps", "slippageBps()", ("uint256",), False),
    ("lastHarvest", "lastHarvest()", ("uint256",), False),
    ("tickLower", "tickLower()", ("int24",), True),
    ("tickUpper", "tickUpper()", ("int24",), True),
    ("position", "getPosition()", ("uint128", "int24", "int24"), True),
    ("lastRebalance", "lastRebalance()", ("uint256",), True),
)
# Views whose failure leaves a NULL column rather than failing the snapshot: lastHarvest is
# informational and not part of every vault implementation.
OPTIONAL_VIEWS = {"lastHarvest"}

FLOW_FIELDS = "vault { id } user shares amount0 amount1 amountUSD timestamp blockNumber transactionHash logIndex"
HARVEST_FIELDS = "vault { id } token { id decimals } amount amountUSD timestamp blockNumber transactionHash"
REBALANCE_FIELDS = ("vault { id } oldTickLower oldTickUpper newTickLower newTickUpper tick timestamp blockNumber "
                    "transactionHash")
PERIOD_FIELDS = "periodStartUnix vault { id } totalSupply amount0 amount1 tvlUSD sharePriceUSD harvestedUSD apr"
VAULT_TOKEN_FIELDS = "token0 { id decimals } token1 { id decimals }"


def _lower(address: Any) -> str:
    return str(address).lower()


# -- vault_snap15m -----------------------------------------------------------------------------
class TokenBook:
    """ERC20 symbol and decimals by address, read once per run (they do not change)."""

    def __init__(self) -> None:
        self._known: dict[str, tuple[str, int]] = {}
        self._lock = threading.Lock()

    def calls(self, tokens: Sequence[str]) -> tuple[list[str], list[Call]]:
        with self._lock:
            missing = sorted({t for t in tokens if t not in self._known})
        calls: list[Call] = []
        for t in missing:
            calls += [(t, "symbol()", (), ("string",)), (t, "decimals()", (), ("uint8",))]
        return missing, calls

    def learn(self, tokens: list[str], answers: list[Any], block: int) -> None:
        for i, t in enumerate(tokens):
            symbol, decimals = answers[2 * i], answers[2 * i + 1]
            if symbol is None or decimals is None:
                raise ChainReadError(f"ERC20 symbol()/decimals() of {t} failed at block {block}")
            with self._lock:
                self._known[t] = (str(symbol), int(decimals))

    def __getitem__(self, token: str) -> tuple[str, int]:
        with self._lock:
            return self._known[token]


def _deployed(chain: ChainReader, address: str, block: int) -> bool:
    code = chain._rpc(f"eth_getCode({address}) at {block}", chain.w3.eth.get_code,
                      to_checksum_address(address), block_identifier=block)
    return len(bytes(code)) > 0


def read_vault_states(chain: ChainReader, vaults: Sequence[VaultConfig], block: int, tokens: TokenBook
                      ) -> list[tuple[VaultConfig, dict[str, Any]]]:
    """(vault, reads) of every configured vault deployed at `block`, in two Multicall3 batches."""
    plan: list[tuple[VaultConfig, str]] = []
    calls: list[Call] = []
    for v in vaults:
        for name, signature, outputs, cl_only in VAULT_VIEWS:
            if cl_only and v.kind != "cl":
                continue
            plan.append((v, name))
            calls.append((v.address, signature, (), outputs))
    answers = chain.multicall(calls, block) if calls else []
    reads: dict[str, dict[str, Any]] = {}
    for (v, name), value in zip(plan, answers):
        reads.setdefault(v.address, {})[name] = value
    found: list[tuple[VaultConfig, dict[str, Any]]] = []
    for v in vaults:
        got = reads.get(v.address, {})
        if all(value is None for value in got.values()) and not _deployed(chain, v.address, block):
            continue  # not deployed yet at this block: no row, nothing unknown
        failed = sorted(n for n, value in got.items() if value is None and n not in OPTIONAL_VIEWS)
        if failed:
            raise ChainReadError(f"vault {v.key} ({v.address}): reads failed at block {block}: {failed}")
        found.append((v, got))

    # second batch: what the vault's views point at
    second: list[Call] = []
    for v, got in found:
        second += [
            (got["strategy"], "paused()", (), ("bool",)),
            (got["strategy"], "needsRebalance()", (), ("bool",)),
            (got["factory"], "globalPause()", (), ("bool",)),
        ]
        if v.kind == "cl":
            second.append((got["pool"], "slot0()", (), ("uint160", "int24", "uint16", "uint16", "uint16", "bool")))
    new_tokens, token_calls = tokens.calls([t for _, got in found for t in (got["token0"], got["token1"])])
    answers = chain.multicall(second + token_calls, block) if second or token_calls else []
    tokens.learn(new_tokens, answers[len(second):], block)
    i = 0
    for v, got in found:
        got["strategyPaused"], got["needsRebalance"], got["globalPause"] = answers[i:i + 3]
        i += 3
        if v.kind == "cl":
            slot0 = answers[i]
            i += 1
            if slot0 is None:
                raise ChainReadError(f"vault {v.key}: pool {got['pool']} slot0() failed at block {block}")
            got["tick"] = int(slot0[1])
        else:
            got["tick"] = None
        for name in ("strategyPaused", "globalPause"):
            if got[name] is None:
                raise ChainReadError(f"vault {v.key}: {name} read failed at block {block}")
    return found


def _times(value: Any) -> Any:
    """A Unix time read from a contract; 0 means never."""
    return utc(int(value)) if value else None


def vault_row(chain_id: int, point: SnapshotPoint, v: VaultConfig, got: dict[str, Any], tokens: TokenBook,
              prices: dict[str, float | None]) -> dict[str, Any]:
    t0, t1 = got["token0"], got["token1"]
    (sym0, dec0), (sym1, dec1) = tokens[t0], tokens[t1]
    amount0, amount1 = (int(x) for x in got["totals"])
    supply, share_decimals = int(got["totalSupply"]), int(got["decimals"])
    p0, p1 = prices.get(t0), prices.get(t1)
    tvl = None if p0 is None or p1 is None else amount0 / 10**dec0 * p0 + amount1 / 10**dec1 * p1
    share_price = tvl / (supply / 10**share_decimals) if tvl is not None and supply > 0 else None
    cl = v.kind == "cl"
    gauge = got["gauge"]
    return {
        "chain_id": chain_id,
        "snapshot_at": utc(point.snapshot_at),
        "block_number": point.block.number,
        "vault_address": _lower(v.address),
        "vault_key": v.key,
        "kind": v.kind,
        "pool_address": got["pool"],
        "gauge_address": "" if gauge == ZERO_ADDRESS else gauge,
        "strategy_address": got["strategy"],
        "token0_address": t0,
        "token1_address": t1,
        "token0_symbol": sym0,
        "token1_symbol": sym1,
        "token0_decimals": dec0,
        "token1_decimals": dec1,
        "share_decimals": share_decimals,
        "total_supply_raw": supply,
        "amount0_raw": amount0,
        "amount1_raw": amount1,
        "token0_price_usd": p0,
        "token1_price_usd": p1,
        "tvl_usd": tvl,
        "share_price_usd": share_price,
        "is_calm": bool(got["isCalm"]),
        "strategy_paused": bool(got["strategyPaused"]),
        "global_pause": bool(got["globalPause"]),
        "slippage_bps": int(got["slippageBps"]),
        "tick": got["tick"],
        "tick_lower": int(got["tickLower"]) if cl else None,
        "tick_upper": int(got["tickUpper"]) if cl else None,
        "liquidity_raw": int(got["position"][0]) if cl else None,
        "needs_rebalance": None if got["needsRebalance"] is None else bool(got["needsRebalance"]),
        "last_rebalance": _times(got["lastRebalance"]) if cl else None,
        "last_harvest": _times(got.get("lastHarvest")),
    }


def vault_columns(subgraph: SubgraphClient, chain: ChainReader, chain_id: int, points: Sequence[SnapshotPoint],
                  vaults: Sequence[VaultConfig], on_done=None) -> dict[str, list]:
    tokens = TokenBook()

    def read(point: SnapshotPoint) -> list[dict[str, Any]]:
        found = read_vault_states(chain, vaults, point.block.number, tokens)
        ids = sorted({t for _, got in found for t in (got["token0"], got["token1"])})
        prices: dict[str, float | None] = {}
        if ids:
            for t in subgraph.paginate("tokens", "priceUSD", where={"id_in": ids}, block=point.block.number):
                prices[ref_id(t) or ""] = opt_float(t.get("priceUSD"))
        return [vault_row(chain_id, point, v, got, tokens, prices) for v, got in found]

    rows = [r for batch in fetch_each(points, read, on_done=on_done) for r in batch]
    return columns(SNAPSHOT_COLUMNS, rows)


def write_vaults(s: "SnapshotStep") -> dict[str, int]:
    columns = vault_columns(s.subgraph, s.chain.reader, s.chain_id, s.points, list(s.chain.config().vaults),
                            on_done=s.on_done("vaults"))
    return {"vault_snap15m": s.insert("vault_snap15m", columns)}


# (name, tables, description, write) of the vault snapshot assets
VAULT_SNAPSHOT_ASSETS = [
    ("vault_snapshots", ("vault_snap15m",),
     "Every configured vault at each snapshot block: totals, supply, prices, TVL, share price, calm, pauses and "
     "the CL range, read through Multicall3 (vault_snap15m).", write_vaults),
]


# -- vault history -----------------------------------------------------------------------------
@dataclass(frozen=True)
class VaultHistoryRead:
    block: int  # the block the subgraph was read at
    cutoff: int  # time up to which the subgraph is complete at that block
    ended_before: int  # end of the last hour that had ended (hours in [start, ended_before) are final)
    decimals: dict[str, tuple[int, int]]  # vault -> (token0 decimals, token1 decimals)
    hours: list[dict]
    days: list[dict]
    events: dict[str, list[dict]]  # kind -> subgraph rows


EVENT_ENTITIES = (("deposit", "vaultDeposits", FLOW_FIELDS), ("withdrawal", "vaultWithdrawals", FLOW_FIELDS),
                  ("harvest", "vaultHarvests", HARVEST_FIELDS), ("rebalance", "vaultRebalances", REBALANCE_FIELDS))


def read_vault_history(subgraph: SubgraphClient, chain: ChainReader, start: int, end: int) -> VaultHistoryRead:
    head = subgraph_head(subgraph)
    if head.block_timestamp > end:
        block, cutoff, events_before = min(chain.block_at(end).number, head.block_number), end, end
    else:  # the range reaches the subgraph head: everything visible there, hours that had ended
        block, cutoff, events_before = head.block_number, head.block_timestamp, head.block_timestamp + 1
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
                                             where={"timestamp_gte": start, "timestamp_lt": events_before})
    return VaultHistoryRead(block, cutoff, ended_before, decimals, hours, days, events)


def vault_event_columns(chain_id: int, read: VaultHistoryRead) -> dict[str, list]:
    rows = []
    for kind, _, _ in EVENT_ENTITIES:
        for e in read.events[kind]:
            vault = ref_id(e.get("vault")) or ""
            what = f"vault {kind} {e.get('id')}"
            row = dict.fromkeys(EVENT_COLUMNS)
            row.update({
                "chain_id": chain_id,
                "vault_address": vault,
                "id": str(e["id"]).lower(),
                "kind": kind,
                "block_timestamp": utc(req_int(e.get("timestamp"), f"{what} timestamp")),
                "block_number": req_int(e.get("blockNumber"), f"{what} blockNumber"),
                "transaction_hash": str(e.get("transactionHash") or "").lower(),
                "user": "",
                "token_address": "",
            })
            if kind in ("deposit", "withdrawal"):
                if vault not in read.decimals:
                    raise ValueError(f"{what}: vault {vault} unknown to the subgraph at block {read.block}")
                d0, d1 = read.decimals[vault]
                row.update({
                    "log_index": opt_int(e.get("logIndex")),
                    "user": str(e.get("user") or "").lower(),
                    "shares_raw": req_int(e.get("shares"), f"{what} shares"),
                    "amount0_raw": to_raw(e.get("amount0"), d0),
                    "amount1_raw": to_raw(e.get("amount1"), d1),
                    "amount_usd": opt_float(e.get("amountUSD")),
                })
            elif kind == "harvest":
                token = e.get("token") or {}
                row.update({
                    "token_address": ref_id(token) or "",
                    "amount_raw": to_raw(e.get("amount"), req_int(token.get("decimals"), f"{what} token decimals")),
                    "amount_usd": opt_float(e.get("amountUSD")),
                })
            else:
                row.update({name: req_int(e.get(field), f"{what} {field}") for name, field in (
                    ("old_tick_lower", "oldTickLower"), ("old_tick_upper", "oldTickUpper"),
                    ("new_tick_lower", "newTickLower"), ("new_tick_upper", "newTickUpper"), ("tick", "tick"))})
            rows.append(row)
    rows.sort(key=lambda r: (r["vault_address"], r["block_timestamp"], r["id"]))
    return columns(EVENT_COLUMNS, rows)


def vault_period_columns(chain_id: int, read: VaultHistoryRead, length: int) -> dict[str, list]:
    """vault_hourly (length HOUR: ended hours only) or vault_daily (length DAY: the day that had
    not ended at the block read is flagged partial) columns, with the period's flow counts."""
    counts: dict[tuple[str, str, int], int] = {}
    for kind in ("deposit", "withdrawal"):
        for e in read.events[kind]:
            ts = req_int(e.get("timestamp"), f"vault {kind} {e.get('id')} timestamp")
            key = (kind, ref_id(e.get("vault")) or "", ts - ts % length)
            counts[key] = counts.get(key, 0) + 1
    rows = []
    for d in (read.hours if length == HOUR else read.days):
        start = req_int(d.get("periodStartUnix"), f"vault period {d.get('id')} periodStartUnix")
        if start % length:
            raise ValueError(f"vault period {d.get('id')} starts off its period: {start}")
        vault = ref_id(d.get("vault")) or ""
        if vault not in read.decimals:
            raise ValueError(f"vault period {d.get('id')}: vault {vault} unknown at block {read.block}")
        d0, d1 = read.decimals[vault]
        rows.append({
            "chain_id": chain_id,
            "vault_address": vault,
            "period_start": utc(start),
            "total_supply_raw": req_int(d.get("totalSupply"), f"vault period {d.get('id')} totalSupply"),
            "amount0_raw": to_raw(d.get("amount0"), d0),
            "amount1_raw": to_raw(d.get("amount1"), d1),
            "tvl_usd": opt_float(d.get("tvlUSD")),
            "share_price_usd": opt_float(d.get("sharePriceUSD")),
            "harvested_usd": opt_float(d.get("harvestedUSD")),
            "apr": opt_float(d.get("apr")),
            "deposits": counts.get(("deposit", vault, start), 0),
            "withdrawals": counts.get(("withdrawal", vault, start), 0),
            "partial": start + length > read.cutoff,
        })
    rows.sort(key=lambda r: (r["vault_address"], r["period_start"]))
    return columns(PERIOD_COLUMNS, rows)


def build_vault_history_assets(partitions_def: PartitionsDefinition) -> list[AssetsDefinition]:
    @asset(
        name="vault_history",
        partitions_def=partitions_def,
        backfill_policy=BackfillPolicy.single_run(),
        group_name=HISTORY_GROUP,
        kinds={"clickhouse", "python"},
        metadata={"tables": "vault_hourly, vault_daily, vault_events"},
        description="Vault hour rows of every ended hour, day rows (the running day partial) and every deposit, "
        "withdrawal, harvest and rebalance of the days (vault_hourly, vault_daily, vault_events).",
    )
    def vault_history(
        context: AssetExecutionContext,
        warehouse: WarehouseResource,
        subgraph: SubgraphResource,
        chain: ChainResource,
        progress: ResourceParam[Progress],
    ) -> MaterializeResult:
        start, end, label = partition_range(context)
        read = read_vault_history(subgraph.client, chain.reader, start, end)
        cid = chain.chain_id
        with warehouse.client() as client:
            written = {
                table: insert_columns(client, table, columns, asset="vault_history", partition_range=label)
                for table, columns in (("vault_hourly", vault_period_columns(cid, read, HOUR)),
                                       ("vault_daily", vault_period_columns(cid, read, DAY)),
                                       ("vault_events", vault_event_columns(cid, read)))
            }
        hours = (read.ended_before - start) // HOUR
        progress.report("history: vault hours read", hours, (end - start) // HOUR, force=True)
        return MaterializeResult(metadata={
            **{f"rows {t}": n for t, n in written.items()},
            "block": read.block,
            "ended_before": utc(read.ended_before).isoformat() if read.ended_before > start else "",
        })

    return [vault_history]
