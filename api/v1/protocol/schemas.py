"""JSON Schemas of the /v1 protocol answers (components of /openapi.json)."""
from __future__ import annotations

from ...schema import ISO_TIME, array_of, nullable, obj, ref
from ..common.flows import ANCHOR, GAPS, POLICY
from ..common.schemas import CHAIN_ID, CHAIN_STATE, NULLABLE_TIME

USD = {"type": ["number", "null"], "description": "US dollars (an IEEE 754 double as stored); null: not known"}
CHAIN_LIST = {"type": "array", "items": CHAIN_ID}

SPAN = {
    "from": {**ISO_TIME, "description": "start (inclusive)"},
    "toExclusive": {**ISO_TIME, "description": "end (exclusive): at most the chain's anchor (a running period ends there)"},
    "durationSeconds": {"type": "integer", "minimum": 0},
    "partial": {"type": "boolean", "description": "a running period: it extends past the chain's anchor and was clipped there"},
    "volumeUsd": USD,
    "feesUsd": USD,
    "hoursCovered": {"type": "integer", "minimum": 0, "description": "hourly buckets found in the span"},
    "hoursExpected": {"type": "integer", "minimum": 0, "description": "hours of the span from the chain's first market "
                      "activity to its anchor: the buckets it needs to be complete"},
    "complete": {"type": "boolean", "description": "every expected bucket was found (a span before the chain's first "
                 "market activity is complete: it had no market)"},
    "gap": {"enum": [*GAPS, None], "description": "why the span has no value (null when it has one): before_first_market_activity, "
            "not_yet_observed (it starts at or after the chain's anchor), not_indexed (no bucket stored for its hours)"},
}
HEAD = {
    "chainId": CHAIN_ID,
    "state": CHAIN_STATE,
    "snapshotAt": {**NULLABLE_TIME, "description": "the published snapshot the chain's figures rest on"},
    "anchor": {"const": ANCHOR},
    "anchorAt": {**NULLABLE_TIME, "description": "end of the chain's latest hourly bucket completed by that snapshot: "
                 "every span of the chain ends at or before it (null: the chain has no observation)"},
    "firstMarketActivityHour": {**NULLABLE_TIME, "description": "the hour of the chain's first market activity"},
}
TOTAL = {
    "chainIds": {**CHAIN_LIST, "description": "the chains whose values were added"},
    "missingChainIds": {**CHAIN_LIST, "description": "covered chains with no value to add (no observation, or no "
                        "bucket): their absence makes the total a known subtotal"},
    "complete": {"type": "boolean", "description": "false when a covered chain is missing, is not fresh, or added an "
                 "incomplete span: the values are then a known subtotal, never a silent zero"},
}
WINDOW_TOTAL = obj({
    "label": {"type": "string"},
    "durationSeconds": {"type": "integer", "minimum": 1},
    "from": {**NULLABLE_TIME, "description": "the earliest start of the chains' windows"},
    "toExclusive": {**NULLABLE_TIME, "description": "the latest end of the chains' windows (they are not synchronized)"},
    "volumeUsd": USD,
    "feesUsd": USD,
    **TOTAL,
}, "The total of every chain's own window of this length.")

SCHEMAS = {
    "V1FlowWindow": obj({"label": {"type": "string", "description": "the window as requested (24h, 7d, ...)"}, **SPAN},
                        "A trailing window of one chain: its hourly buckets in [from, toExclusive), ending at its anchor."),
    "V1ProtocolPolicy": obj({
        "additiveMetrics": {"type": "array", "items": {"enum": POLICY["additiveMetrics"]}},
        "excludedFromTotals": {"type": "array", "items": {"enum": POLICY["excludedFromTotals"]}},
        "windows": {"const": POLICY["windows"]},
        "description": {"type": "string"},
    }, "What the totals add across chains, and what they never add."),
    "V1Protocol": obj({
        "chains": {"type": "array", "items": obj({
            **HEAD,
            "blockNumber": {**nullable("integer"), "minimum": 0, "description": "the chain block read at the snapshot"},
            "tvlUsd": {**USD, "description": "eligible user-pool liquidity: the USD value of every indexed pool's "
                       "reserves at the snapshot block (null: a pool could not be valued)"},
            "tvlV2Usd": USD,
            "tvlClUsd": USD,
            "poolCount": {**nullable("integer"), "minimum": 0},
            "activeGaugeCount": {**nullable("integer"), "minimum": 0},
            "windows": {"oneOf": [array_of("V1FlowWindow"), {"type": "null"}], "description": "24h and 7d"},
        })},
        "totals": obj({
            "tvlUsd": USD,
            "poolCount": nullable("integer"),
            "activeGaugeCount": nullable("integer"),
            **TOTAL,
            "windows": {"type": "array", "items": WINDOW_TOTAL},
        }),
        "policy": ref("V1ProtocolPolicy"),
    }, "Per covered chain its observation at its own published snapshot, and their totals."),
    "V1ProtocolTrailing": obj({
        "chains": {"type": "array", "items": obj({**HEAD, "windows": {"oneOf": [array_of("V1FlowWindow"), {"type": "null"}]}})},
        "totals": {"type": "array", "items": WINDOW_TOTAL},
        "policy": ref("V1ProtocolPolicy"),
    }, "The requested trailing windows of every covered chain, with their coverage and totals."),
    "V1ProtocolVolume": obj({
        "chains": {"type": "array", "items": obj({**HEAD, "cumulative": {"oneOf": [obj(SPAN), {"type": "null"}]}})},
        "totals": obj({"volumeUsd": USD, "feesUsd": USD, **TOTAL}),
        "policy": ref("V1ProtocolPolicy"),
    }, "Cumulative volume and fees of every chain from its first market activity to its anchor."),
    "V1ProtocolPeriods": obj({
        "alignment": {"enum": ["rolling", "utc"]},
        "periodSeconds": {"enum": [3600, 86400]},
        "chains": {"type": "array", "items": obj({**HEAD, "periods": {"oneOf": [{"type": "array", "items": obj({
            **SPAN,
            "tvlUsd": {**USD, "description": "TVL at the chain's latest published snapshot in (from, end of the "
                       "period], a state observation with its own time; null when none was published in the period"},
            "tvlObservedAt": NULLABLE_TIME,
        })}, {"type": "null"}], "description": "oldest first; null when the chain has no observation"}})},
        "totals": {"type": "array", "items": obj({
            "from": ISO_TIME,
            "toExclusive": ISO_TIME,
            "synchronized": {"type": "boolean", "description": "true (utc): every chain's period is the same calendar "
                             "period; false (rolling): each chain's period ends at its own anchor"},
            "partial": {"type": "boolean"},
            "volumeUsd": USD,
            "feesUsd": USD,
            **TOTAL,
            "tvlUsd": USD,
            "tvlChainIds": {**CHAIN_LIST, "description": "the chains whose TVL observation was added"},
        }), "description": "per period index, oldest first: the chains' periods added"},
        "policy": ref("V1ProtocolPolicy"),
    }, "Period flows and TVL observations of every covered chain, gaps kept."),
}
