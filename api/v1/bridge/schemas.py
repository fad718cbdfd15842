"""JSON Schemas of the /v1 bridge answers (components of /openapi.json)."""
from __future__ import annotations

from ...schema import ISO_TIME, RAW_INTEGER, array_of, obj
from ..common.events_coverage import indexed_coverage_schema
from ..common.schemas import CHAIN_ID, DECIMAL, LOWER_ADDRESS, NULLABLE_TIME
from .messages import STATES

NULLABLE_ADDRESS = {"type": ["string", "null"], "pattern": LOWER_ADDRESS["pattern"]}
NULLABLE_HASH = {"type": ["string", "null"]}
STATE = {"enum": list(STATES), "description": "LayerZero Scan's status words. DELIVERED: executed on the destination "
         "(terminal). FAILED: burnt on the destination, never to be delivered (terminal). PAYLOAD_STORED: its execution "
         "reverted on the destination; a retry can deliver it (retryable). BLOCKED: verified, waiting behind an earlier "
         "nonce of its pathway whose payload is stored (retryable once that one is delivered or burnt). INFLIGHT: "
         "verified, or sent and past its source confirmations, not yet executed. CONFIRMING: sent less than the source "
         "chain's finality (source.finalitySeconds) before the source chain's boundary."}
TOKEN = obj({"address": LOWER_ADDRESS, "symbol": {"type": "string"},
             "decimals": {"type": ["integer", "null"], "minimum": 0}}, "A token as its chain's index names it.")
NULLABLE_TOKEN = {"oneOf": [TOKEN, {"type": "null"}]}

COVERAGE = indexed_coverage_schema("bridge events", "events")

MESSAGE = obj({
    "guid": {"type": "string", "pattern": "^0x[0-9a-f]{64}$", "description": "the message's global identifier"},
    "state": STATE,
    "terminal": {"type": "boolean", "description": "DELIVERED or FAILED: the state will not change"},
    "retryable": {"type": "boolean", "description": "PAYLOAD_STORED or BLOCKED: an execution retry can deliver it"},
    "missingSide": {"type": ["string", "null"], "enum": ["source", "destination", None], "description": "the side that has shown no event yet: "
                    "destination (in flight, not lost) or source (its chain is not indexed that far yet); null: both "
                    "sides have shown events"},
    "nonce": {"type": "integer", "minimum": 0, "description": "the message's position on its pathway (source chain, "
              "source application, destination chain, destination application)"},
    "source": obj({
        "chainId": CHAIN_ID,
        "eid": {"type": "integer", "minimum": 0, "description": "the chain's messaging endpoint ID"},
        "application": {**LOWER_ADDRESS, "description": "the sending application (the token's bridge)"},
        "sentAt": {**NULLABLE_TIME, "description": "the send's block time; null: the source side is not indexed yet"},
        "blockNumber": {"type": ["integer", "null"], "minimum": 0},
        "transactionHash": NULLABLE_HASH,
        "finalitySeconds": {"type": ["integer", "null"], "minimum": 0, "description": "the confirmations a message "
                            "from this chain waits for, in seconds (the chain book's); null: unknown"},
    }, "The sending side."),
    "destination": obj({
        "chainId": CHAIN_ID,
        "eid": {"type": "integer", "minimum": 0},
        "application": {**LOWER_ADDRESS, "description": "the receiving application"},
        "verifiedAt": NULLABLE_TIME,
        "payloadStoredAt": {**NULLABLE_TIME, "description": "the latest reverted execution's time"},
        "failedAt": {**NULLABLE_TIME, "description": "when the message was burnt"},
        "deliveredAt": NULLABLE_TIME,
        "transactionHash": {**NULLABLE_HASH, "description": "the latest step's transaction on this side"},
        "executionAttemptsFailed": {"type": "integer", "minimum": 0},
        "lastFailureReason": {"type": ["string", "null"], "description": "why the latest execution reverted"},
    }, "The receiving side, as far as its chain is shown."),
    "transfer": {"oneOf": [obj({
        "from": {**NULLABLE_ADDRESS, "description": "the wallet debited on the source"},
        "to": {**NULLABLE_ADDRESS, "description": "the wallet credited on the destination"},
        "amountRaw": {**RAW_INTEGER, "description": "the amount in raw units (exact integer)"},
        "amount": {**DECIMAL, "description": "amountRaw / 10^decimals; null when the decimals are unknown"},
        "sourceToken": NULLABLE_TOKEN,
        "destinationToken": NULLABLE_TOKEN,
    }, "A token transfer's payload."), {"type": "null"}], "description": "null for a message that moves no tokens"},
    "orderedAt": {**ISO_TIME, "description": "the send time, or (source not indexed yet) the first destination event's: "
                  "the list's order"},
}, "One cross-chain message as the events of both chains show it.")

FILTERS = obj({
    "srcChainId": {"type": ["integer", "null"], "description": "source chain filter; null: any"},
    "dstChainId": {"type": ["integer", "null"], "description": "destination chain filter; null: any"},
    "address": {**NULLABLE_ADDRESS, "description": "wallet or application filter (either side); null: any"},
    "states": {"type": "array", "items": {"enum": list(STATES)}, "description": "state filter; empty: any"},
}, "The normalized filters the page (and its cursor) applies.")

SCHEMAS = {
    "V1BridgeMessage": MESSAGE,
    "V1BridgePage": obj({
        "rows": {**array_of("V1BridgeMessage"), "description": "newest first: orderedAt descending, then guid"},
        "coverage": {"type": "array", "items": COVERAGE, "description": "per chain with a bridge"},
        "filters": FILTERS,
    }, "A page of cross-chain messages."),
    "V1BridgeMessageDetail": obj({
        **MESSAGE["properties"],
        "coverage": {"type": "array", "items": COVERAGE, "description": "per chain with a bridge"},
    }, "One cross-chain message, and how far each chain's side is shown."),
}
