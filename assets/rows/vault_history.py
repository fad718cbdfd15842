"""Rows of vault_hourly, vault_daily and vault_events from one read of the subgraph's vault
history (VaultHourData, VaultDayData, deposits, withdrawals, harvests, rebalances)."""
from __future__ import annotations

from dataclasses import dataclass

from .values import columns, opt_float, opt_int, opt_raw, ref_id, req_int, to_raw
from ...core.epochs import HOUR, to_datetime

PERIOD_COLUMNS = ("chain_id", "vault_address", "period_start", "total_supply_raw", "amount0_raw", "amount1_raw",
                  "tvl_usd", "share_price_usd", "harvested_usd", "apr", "deposits", "withdrawals", "partial")
EVENT_COLUMNS = ("chain_id", "vault_address", "id", "kind", "block_timestamp", "block_number", "transaction_hash",
                 "log_index", "user", "shares_raw", "amount0_raw", "amount1_raw", "amount_usd", "token_address",
                 "amount_raw", "old_tick_lower", "old_tick_upper", "new_tick_lower", "new_tick_upper", "tick",
                 "fee_amount_raw", "fee_amount_usd", "amount0_before_raw", "amount1_before_raw", "amount0_after_raw",
                 "amount1_after_raw", "fees0_raw", "fees1_raw", "sqrt_price_x96", "swap_zero_for_one",
                 "swap_amount_in_raw", "swap_amount_out_raw")


@dataclass(frozen=True)
class VaultHistoryRead:
    block: int  # the block the subgraph was read at
    cutoff: int  # time up to which the subgraph is complete at that block
    ended_before: int  # end of the last hour that had ended (hours in [start, ended_before) are final)
    decimals: dict[str, tuple[int, int]]  # vault -> (token0 decimals, token1 decimals)
    hours: list[dict]
    days: list[dict]
    events: dict[str, list[dict]]  # kind (deposit, withdrawal, harvest, rebalance) -> subgraph rows
    events_before: int = 0  # the events are complete before this time (at most the range's end)


def vault_event_columns(chain_id: int, read: VaultHistoryRead) -> dict[str, list]:
    rows = []
    for kind, events in read.events.items():
        for e in events:
            vault = ref_id(e.get("vault")) or ""
            what = f"vault {kind} {e.get('id')}"
            row = dict.fromkeys(EVENT_COLUMNS)
            row.update({
                "chain_id": chain_id,
                "vault_address": vault,
                "id": str(e["id"]).lower(),
                "kind": kind,
                "block_timestamp": to_datetime(req_int(e.get("timestamp"), f"{what} timestamp")),
                "block_number": req_int(e.get("blockNumber"), f"{what} blockNumber"),
                "transaction_hash": str(e.get("transactionHash") or "").lower(),
                "log_index": opt_int(e.get("logIndex")),
                "user": "",
                "token_address": "",
            })
            if kind in ("deposit", "withdrawal"):
                d0, d1 = _decimals(read, vault, what)
                row.update({
                    "user": str(e.get("user") or "").lower(),
                    "shares_raw": req_int(e.get("shares"), f"{what} shares"),
                    "amount0_raw": to_raw(e.get("amount0"), d0),
                    "amount1_raw": to_raw(e.get("amount1"), d1),
                    "amount_usd": opt_float(e.get("amountUSD")),
                })
            elif kind == "harvest":
                token = e.get("token") or {}
                decimals = req_int(token.get("decimals"), f"{what} token decimals")
                row.update({
                    "token_address": ref_id(token) or "",
                    "amount_raw": to_raw(e.get("amount"), decimals),
                    "amount_usd": opt_float(e.get("amountUSD")),
                    "fee_amount_raw": opt_raw(e.get("feeAmount"), decimals),
                    "fee_amount_usd": opt_float(e.get("feeAmountUSD")),
                })
            else:
                row.update(_range_reset(e, _decimals(read, vault, what), what))
            rows.append(row)
    rows.sort(key=lambda r: (r["vault_address"], r["block_timestamp"], r["id"]))
    return columns(EVENT_COLUMNS, rows)


def _decimals(read: VaultHistoryRead, vault: str, what: str) -> tuple[int, int]:
    if vault not in read.decimals:
        raise ValueError(f"{what}: vault {vault} unknown to the subgraph at block {read.block}")
    return read.decimals[vault]


def _range_reset(e: dict, decimals: tuple[int, int], what: str) -> dict:
    """A rebalance's columns: ticks and price exact; token amounts (decimal token units in the
    subgraph) as raw integers, NULL where a subgraph does not publish them; the swap's amounts in
    the token it names."""
    d0, d1 = decimals
    zero_for_one = e.get("swapZeroForOne")
    row = {name: req_int(e.get(field), f"{what} {field}") for name, field in (
        ("old_tick_lower", "oldTickLower"), ("old_tick_upper", "oldTickUpper"), ("new_tick_lower", "newTickLower"),
        ("new_tick_upper", "newTickUpper"), ("tick", "tick"))}
    row.update({name: opt_raw(e.get(field), d) for name, field, d in (
        ("amount0_before_raw", "amount0Before", d0), ("amount1_before_raw", "amount1Before", d1),
        ("amount0_after_raw", "amount0After", d0), ("amount1_after_raw", "amount1After", d1),
        ("fees0_raw", "fees0", d0), ("fees1_raw", "fees1", d1))})
    row.update({
        "sqrt_price_x96": opt_int(e.get("sqrtPriceX96")),
        "swap_zero_for_one": None if zero_for_one is None else bool(zero_for_one),
        "swap_amount_in_raw": opt_raw(e.get("swapAmountIn"), d0 if zero_for_one else d1),
        "swap_amount_out_raw": opt_raw(e.get("swapAmountOut"), d1 if zero_for_one else d0),
    })
    return row


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
            "period_start": to_datetime(start),
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
