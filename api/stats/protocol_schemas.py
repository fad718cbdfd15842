"""JSON Schemas of the protocol and system answers of /api/stats (OpenAPI components.schemas).

Conventions of every /api/stats schema: nullable values are `["<type>", "null"]` (unknown stays
null, never zero); timestamps are ISO 8601 UTC with a Z suffix, second precision; epochs are Unix
seconds; raw on-chain integers are decimal strings next to a number scaled by 1e18
(docs/adr/0001-units-and-scales.md).
"""
from __future__ import annotations

from ..coverage_holes import FILLING_SCHEMA, MISSING_HISTORY_SCHEMA, MISSING_SNAPSHOTS_SCHEMA
from ..schema import ADDRESS, DATE, ISO_TIME, RAW_INTEGER, nullable, nullable_ref, obj, ref
from .flow_windows import FLOW_WINDOW, flow_windows_schema

PROTOCOL_SNAPSHOT = obj(
    {
        "snapshotAt": ISO_TIME,
        "blockNumber": {"type": "integer", "description": "block the snapshot read"},
        "tvlUsd": nullable("number", "TVL in USD, v2 plus concentrated liquidity"),
        "tvlV2Usd": nullable("number"),
        "tvlV3Usd": nullable("number", "concentrated-liquidity TVL in USD"),
        "poolCount": {"type": "integer"},
        "volume24hUsd": nullable("number"),
        "fees24hUsd": nullable("number"),
        "volume7dUsd": nullable("number"),
        "fees7dUsd": nullable("number"),
        "volume30dUsd": nullable("number"),
        "fees30dUsd": nullable("number"),
        "flowWindows": flow_windows_schema(
            "Which hourly buckets each rolling total summed; null when the snapshot has no flow window."
        ),
        "activeGaugeCount": nullable("integer"),
        "epochStart": {"type": "integer", "description": "current epoch start, Unix seconds (Thursday 00:00 UTC)"},
        "emissionsThisEpoch": nullable("number", "core-token emissions of the epoch, raw / 1e18"),
        "emissionsThisEpochRaw": RAW_INTEGER,
        "veTotalLocked": nullable("number", "core token locked in vote escrow, raw / 1e18"),
        "veTotalLockedRaw": RAW_INTEGER,
        "veVotingPower": nullable("number", "total vote-escrow voting power, raw / 1e18"),
        "veVotingPowerRaw": RAW_INTEGER,
        "corePriceUsd": nullable("number"),
    },
    "Protocol-wide figures of one successful snapshot.",
)

HISTORY_POINT = obj(
    {
        "snapshotAt": ISO_TIME,
        "tvlUsd": nullable("number"),
        "volume24hUsd": nullable("number"),
        "fees24hUsd": nullable("number"),
        "corePriceUsd": nullable("number"),
    },
    "One successful 15-minute snapshot.",
)

DAILY_POINT = obj(
    {
        "date": DATE,
        "volumeUsd": nullable("number", "null when the day has no rollup row"),
        "feesUsd": nullable("number"),
        "hoursCovered": nullable("integer", "hourly buckets summed into the day"),
        "partial": {"type": "boolean", "description": "true only for the UTC day of the snapshot (in progress)"},
    },
    "Protocol totals of one UTC day.",
)

TIME_RANGE = obj({"from": ISO_TIME, "to": ISO_TIME})


def _nullable_time(description: str) -> dict:
    return {**ISO_TIME, "type": ["string", "null"], "description": description}


CHAIN_HEALTH = obj(
    {
        "chainId": {"type": "integer"},
        "healthy": {"type": "boolean", "description": "the chain's latest successful snapshot is younger than the threshold"},
        "reason": {
            "enum": ["fresh", "stale", "no_successful_snapshot", "subgraph_lagging"],
            "description": "no_successful_snapshot, else subgraph_lagging when the subgraph's indexed time is more than "
            "10 minutes behind the chain head's (whatever the snapshot's age), else stale or fresh",
        },
        "snapshotAt": _nullable_time("the chain's latest successful snapshot"),
        "ageSeconds": nullable("integer", "wall-clock age of snapshotAt"),
        "lastRun": {
            "oneOf": [
                obj(
                    {
                        "snapshotAt": ISO_TIME,
                        "status": {"type": "string"},
                        "runId": {"type": "string"},
                        "error": nullable("string", "the failure, its first 300 characters; null when none"),
                    }
                ),
                {"type": "null"},
            ],
            "description": "the chain's latest snapshot attempt, successful or not",
        },
        "subgraphLagSeconds": {
            "type": ["integer", "null"],
            "minimum": 0,
            "description": "chainHeadAt - indexedAt; null when either is unknown",
        },
        "coverage": obj(
            {
                "firstMarketActivity": _nullable_time("the first pool creation"),
                "hourly": nullable_ref("TimeRange", "hourly buckets written; `to` is the last bucket's start"),
                "events": nullable_ref("TimeRange", "governance events read"),
                "snapshots": nullable_ref("TimeRange", "published 15-minute snapshots: first and last (missingSnapshots "
                                          "lists the holes between and around them)"),
                "missingSnapshots": MISSING_SNAPSHOTS_SCHEMA,
                "missingHistory": MISSING_HISTORY_SCHEMA,
                "indexedAt": _nullable_time("the block time the subgraph has indexed"),
                "chainHeadAt": _nullable_time("the chain head's time, as last read over RPC"),
            },
            "What the chain's data covers; null where nothing was recorded yet.",
        ),
        "filling": FILLING_SCHEMA,
    },
    "Health of one configured chain. Reported only: it never changes the route's status.",
)

HEALTH_STATUS = obj(
    {
        "healthy": {"type": "boolean"},
        "reason": {
            "enum": ["fresh", "stale", "no_successful_snapshot", "warehouse_unreachable"],
            "description": "fresh: the latest successful snapshot is within the threshold",
        },
        "checkedAt": ISO_TIME,
        "snapshotAt": {**ISO_TIME, "type": ["string", "null"], "description": "latest successful snapshot"},
        "ageSeconds": nullable("integer", "wall-clock age of snapshotAt"),
        "staleAfterMinutes": {"type": "integer"},
        "lastRun": {
            "oneOf": [
                obj({"snapshotAt": ISO_TIME, "status": {"type": "string"}, "runId": {"type": "string"}}),
                {"type": "null"},
            ],
            "description": "the latest snapshot attempt, successful or not",
        },
        "chains": {
            "type": "array",
            "items": ref("ChainHealth"),
            "description": "every configured chain, by chain id; empty when the warehouse is unreachable",
        },
    },
    "Freshness of the snapshots of chain 56 (the status and the top-level fields) and of every configured "
    "chain (`chains`). Served as `data` with HTTP 200 when healthy; when unhealthy the "
    "route answers HTTP 503 with `ok: false`, `error.code` `unhealthy` and this object as `error.details`.",
)

CONFIG = obj(
    {
        "chainId": {"const": 56},
        "methodologyVersion": {"type": "string", "description": "bumped when a served figure changes meaning or shape"},
        "snapshotIntervalMinutes": {"type": "integer"},
        "foundation": obj({"wallet": ADDRESS, "veNftIds": {"type": "array", "items": {"type": "integer"}}}),
        "trackedPairs": {
            "type": "array",
            "items": {"type": "string"},
            "description": "pair keys (lower-case token symbols joined by a hyphen) of the latest snapshot's pools",
        },
        "contracts": {"type": "object", "additionalProperties": ADDRESS, "description": "contract address book"},
        "lastSuccessfulSnapshot": obj(
            {
                "id": {"type": "integer", "description": "Unix seconds of snapshotAt"},
                "snapshotAt": ISO_TIME,
                "blockNumber": {"type": "integer"},
                "runId": {"type": "string"},
            }
        ),
    },
    "Service configuration and the latest successful snapshot.",
)

SCHEMAS = {
    "ProtocolSnapshot": PROTOCOL_SNAPSHOT,
    "FlowWindow": FLOW_WINDOW,
    "HistoryPoint": HISTORY_POINT,
    "DailyPoint": DAILY_POINT,
    "HealthStatus": HEALTH_STATUS,
    "ChainHealth": CHAIN_HEALTH,
    "TimeRange": TIME_RANGE,
    "Config": CONFIG,
}
