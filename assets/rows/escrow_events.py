"""Rows of escrow_events from the subgraph's EscrowEvent entities (VotingEscrow's logs: lock
operations, transfers, merges, splits). Amounts are 18-decimal raw integers."""
from __future__ import annotations

from .values import columns, opt_int, req_int, to_raw
from ...core.epochs import to_datetime

ESCROW_EVENT_COLUMNS = ("chain_id", "id", "kind", "venft_id", "from_address", "to_address", "amount_raw", "unlock_time",
                        "permanent", "merged_into", "split_from", "block_timestamp", "block_number", "transaction_hash", "log_index")


def escrow_event_rows(chain_id: int, raw: list[dict]) -> dict[str, list]:
    rows = []
    for e in raw:
        what = f"escrow event {e['id']}"
        unlock = opt_int(e.get("unlockTime"))
        rows.append({
            "chain_id": chain_id,
            "id": str(e["id"]).lower(),
            "kind": e.get("kind") or "",
            "venft_id": req_int(e.get("tokenId"), f"{what} tokenId"),
            "from_address": str(e.get("from") or "").lower(),
            "to_address": str(e.get("to") or "").lower(),
            "amount_raw": to_raw(e.get("amount"), 18),
            "unlock_time": None if unlock is None else to_datetime(unlock),
            "permanent": bool(e.get("permanent")),
            "merged_into": opt_int(e.get("mergedInto")),
            "split_from": opt_int(e.get("splitFrom")),
            "block_timestamp": to_datetime(req_int(e.get("timestamp"), f"{what} timestamp")),
            "block_number": req_int(e.get("blockNumber"), f"{what} blockNumber"),
            "transaction_hash": str(e.get("transactionHash") or "").lower(),
            "log_index": req_int(e.get("logIndex"), f"{what} logIndex"),
        })
    return columns(ESCROW_EVENT_COLUMNS, rows)
