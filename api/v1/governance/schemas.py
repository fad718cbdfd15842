"""JSON Schemas of the /v1 governance answers (components of /openapi.json)."""
from __future__ import annotations

from ...schema import ISO_TIME, RAW_INTEGER, array_of, obj
from ..common.schemas import CHAIN_ID, DECIMAL, LOWER_ADDRESS, NULLABLE_TIME

TOKEN = obj({
    "address": LOWER_ADDRESS,
    "symbol": {"type": "string"},
    "decimals": {"type": "integer", "minimum": 0},
}, "A token as its chain's index names it.")

EVENTS_COVERAGE = obj({
    "chainId": CHAIN_ID,
    "snapshotAt": {**ISO_TIME, "description": "the chain's published snapshot the page reads (records before its time)"},
    "indexedFrom": {**NULLABLE_TIME, "description": "the first second of the chain's indexed governance events; null: "
                    "never indexed"},
    "indexedUntil": {**NULLABLE_TIME, "description": "exclusive: the chain's records before this time are listed (at "
                     "most the snapshot's time); null: never indexed"},
    "behind": {"type": "boolean", "description": "the chain's governance events end more than two hours before its "
               "snapshot (the hourly history run is late or failing): its recent records may be missing, and "
               "meta.complete is false"},
}, "How far one chain's governance events are indexed.")

BRIBE = obj({
    "chainId": CHAIN_ID,
    "id": {"type": "string", "description": "the deposit's event: transaction hash and log index"},
    "epochStart": {**ISO_TIME, "description": "the epoch (Thursday 00:00 UTC week) the deposit funds"},
    "notifiedAt": {**ISO_TIME, "description": "the deposit's block time"},
    "blockNumber": {"type": "integer", "minimum": 0},
    "transactionHash": {"type": "string"},
    "gauge": LOWER_ADDRESS,
    "gaugeKind": {"enum": ["pool", "system"], "description": "pool: a user pool's gauge; system: a gauge without a "
                  "user pool"},
    "pool": {"type": ["string", "null"], "pattern": LOWER_ADDRESS["pattern"],
             "description": "the gauge's pool; null for a system gauge"},
    "token": TOKEN,
    "amountRaw": {**RAW_INTEGER, "description": "the notified amount in raw units (exact integer)"},
    "amount": {**DECIMAL, "description": "amountRaw / 10^decimals"},
    "amountUsd": {**DECIMAL, "description": "the amount's USD value at deposit time; null when the token had no price "
                  "then (never a zero)"},
    "briber": LOWER_ADDRESS,
    "foundation": {"type": "boolean", "description": "notified by the protocol foundation"},
}, "One notified funding record (a bribe deposit to a gauge's bribe contract). Not claimed rewards, trading fees or "
   "emissions.")

FILTERS = obj({
    "chainIds": {"type": "array", "items": CHAIN_ID},
    "epoch": {**NULLABLE_TIME, "description": "the epoch filter (its start); null: every epoch"},
    **{name: {"type": "string", "description": f"lower-case {what} address filter; empty: any"}
       for name, what in (("pool", "pool"), ("gauge", "gauge"), ("token", "token"), ("briber", "briber"))},
    **{f"{name}Chain": {"type": "integer", "minimum": 0, "description": f"the chain the {name} filter names; 0: any"}
       for name in ("pool", "gauge", "token")},
}, "The normalized filters the page (and its cursor) applies.")

SCHEMAS = {
    "V1Bribe": BRIBE,
    "V1BribePage": obj({
        "rows": {**array_of("V1Bribe"), "description": "newest first: notifiedAt descending, then chainId and id "
                 "ascending"},
        "coverage": {"type": "array", "items": EVENTS_COVERAGE, "description": "per covered chain"},
        "filters": FILTERS,
    }, "A page of notified funding records of the covered chains."),
}
