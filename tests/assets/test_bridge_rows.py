"""Rows of bridge_events from BridgeEvent entities: every column as the subgraph gave it (addresses
lower-cased, the raw amount exact past 2^64, a generic message without token or amount), and an
event kind this release does not know is refused rather than stored under a guessed meaning."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest

from ve_analytics.assets.rows.bridge_events import COLUMNS, bridge_rows

GUID = "0x" + "Ab" * 32
SENT = {"id": "0xTX-3", "kind": "PacketSent", "guid": GUID, "nonce": "7", "srcEid": "30102", "dstEid": "30101",
        "srcChainId": "56", "dstChainId": "1", "sender": "0x" + "A1" * 20, "receiver": "0x" + "B2" * 20,
        "fromAddress": "0x" + "C3" * 20, "toAddress": "0x" + "D4" * 20,
        "token": {"id": "0x" + "E5" * 20, "symbol": "CORE", "decimals": 18},
        "amountRaw": str(2 ** 70 + 1), "reason": None, "timestamp": "1767225600", "blockNumber": "123",
        "transactionHash": "0xTX", "logIndex": "3"}


def test_a_transfer_event_keeps_every_value():
    rows = bridge_rows(56, [SENT])
    assert tuple(rows) == COLUMNS
    row = {name: values[0] for name, values in rows.items()}
    assert row["guid"] == GUID.lower() and row["id"] == "0xtx-3" and row["chain_id"] == 56
    assert (row["kind"], row["nonce"], row["src_chain_id"], row["dst_chain_id"], row["src_eid"], row["dst_eid"]) == (
        "PacketSent", 7, 56, 1, 30102, 30101)
    assert (row["sender"], row["receiver"], row["from_address"], row["to_address"]) == (
        "0x" + "a1" * 20, "0x" + "b2" * 20, "0x" + "c3" * 20, "0x" + "d4" * 20)
    assert (row["token_address"], row["token_symbol"], row["token_decimals"]) == ("0x" + "e5" * 20, "CORE", 18)
    assert row["amount_raw"] == 2 ** 70 + 1 and row["reason"] == ""
    assert row["block_timestamp"] == datetime(2026, 1, 1, tzinfo=timezone.utc)
    assert (row["block_number"], row["transaction_hash"], row["log_index"]) == (123, "0xtx", 3)


def test_a_generic_message_has_no_token_amount_or_wallets():
    alert = {**SENT, "kind": "LzReceiveAlert", "fromAddress": None, "toAddress": None, "token": None,
             "amountRaw": None, "reason": "out of gas", "chainId": 1}
    row = {name: values[0] for name, values in bridge_rows(1, [alert]).items()}
    assert (row["from_address"], row["to_address"], row["token_address"], row["token_symbol"]) == ("", "", "", "")
    assert row["token_decimals"] is None and row["amount_raw"] is None and row["reason"] == "out of gas"


def test_an_unknown_kind_is_refused():
    with pytest.raises(ValueError, match="unknown kind 'PacketNilified'"):
        bridge_rows(56, [{**SENT, "kind": "PacketNilified"}])
