"""Rows of bridge_events from the subgraph's BridgeEvent entity: the endpoint's packet events of
the core token's cross-chain messages (PacketSent on the source chain; PacketVerified,
PacketDelivered, LzReceiveAlert and PacketBurnt on the destination), one row per event on the
chain that emitted it. Amounts are raw integers in the token's units; generic messages (no
transfer) have no token, amount or wallets."""
from __future__ import annotations


from .values import columns, lower_text, opt_int, ref_id, req_int
from ...core.epochs import to_datetime

KINDS = ("PacketSent", "PacketVerified", "PacketDelivered", "LzReceiveAlert", "PacketBurnt")
COLUMNS = ("guid", "chain_id", "id", "kind", "nonce", "src_chain_id", "dst_chain_id", "src_eid", "dst_eid", "sender",
           "receiver", "from_address", "to_address", "token_address", "token_symbol", "token_decimals", "amount_raw",
           "reason", "block_timestamp", "block_number", "transaction_hash", "log_index")
FIELDS = ("id kind guid nonce srcEid dstEid srcChainId dstChainId sender receiver fromAddress toAddress "
          "token { id symbol decimals } amountRaw reason timestamp blockNumber transactionHash logIndex")


def bridge_rows(chain_id: int, raw: list[dict]) -> dict[str, list]:
    rows = []
    for e in raw:
        what = f"bridge event {e.get('id')}"
        kind = e.get("kind")
        if kind not in KINDS:  # an event this release does not know: refused, not guessed at
            raise ValueError(f"{what}: unknown kind {kind!r}")
        rows.append({
            "guid": lower_text(e.get("guid")),
            "chain_id": chain_id,
            "id": lower_text(e.get("id")),
            "kind": kind,
            "nonce": req_int(e.get("nonce"), f"{what} nonce"),
            "src_chain_id": req_int(e.get("srcChainId"), f"{what} srcChainId"),
            "dst_chain_id": req_int(e.get("dstChainId"), f"{what} dstChainId"),
            "src_eid": req_int(e.get("srcEid"), f"{what} srcEid"),
            "dst_eid": req_int(e.get("dstEid"), f"{what} dstEid"),
            "sender": lower_text(e.get("sender")),
            "receiver": lower_text(e.get("receiver")),
            "from_address": lower_text(e.get("fromAddress")),
            "to_address": lower_text(e.get("toAddress")),
            "token_address": ref_id(e.get("token")) or "",
            "token_symbol": str((e.get("token") or {}).get("symbol") or ""),
            "token_decimals": opt_int((e.get("token") or {}).get("decimals")),
            "amount_raw": opt_int(e.get("amountRaw")),
            "reason": str(e.get("reason") or ""),
            "block_timestamp": to_datetime(req_int(e.get("timestamp"), f"{what} timestamp")),
            "block_number": req_int(e.get("blockNumber"), f"{what} blockNumber"),
            "transaction_hash": lower_text(e.get("transactionHash")),
            "log_index": req_int(e.get("logIndex"), f"{what} logIndex"),
        })
    return columns(COLUMNS, rows)
