"""JSON Schemas of the /v1 reference answers: chains, deployments, health (OpenAPI components)."""
from __future__ import annotations

from ...coverage import STATES
from ...coverage_holes import FILLING_SCHEMA, MISSING_HISTORY_SCHEMA, MISSING_SNAPSHOTS_SCHEMA
from ...schema import ADDRESS, ISO_TIME, nullable, obj
from ....core.chains import FEATURES
from ..common.schemas import CHAIN_ID, CHAIN_STATE, NULLABLE_TIME, OBSERVATION, RANGE

SCHEMAS = {
    "V1Chain": obj({
        "chainId": CHAIN_ID,
        "name": {"type": "string"},
        "network": {"type": "string"},
        "nativeSymbol": nullable("string"),
        "deployedAt": {**NULLABLE_TIME, "description": "when the protocol was deployed on the chain (history starts there)"},
        "features": {"type": "array", "items": obj({
            "name": {"enum": list(FEATURES)},
            "supported": {"type": "boolean", "description": "the chain book says the chain has it"},
            "status": {"enum": [*STATES, "unsupported"],
                       "description": "unsupported, else the chain's state: request the capability unless unsupported or unavailable"},
        })},
        **OBSERVATION,
        "coverage": obj({
            "firstMarketActivity": {**NULLABLE_TIME, "description": "the first swap or liquidity event indexed"},
            "history": {**RANGE, "description": "hourly history buckets: first and last hour"},
            "snapshots": {**RANGE, "description": "published 15-minute snapshots: first and last (missingSnapshots "
                          "lists the holes between and around them)"},
            "missingSnapshots": MISSING_SNAPSHOTS_SCHEMA,
            "missingHistory": MISSING_HISTORY_SCHEMA,
            "subgraphIndexedAt": {**NULLABLE_TIME, "description": "block time the subgraph had indexed at the last snapshot"},
            "chainHeadAt": {**NULLABLE_TIME, "description": "block time of the chain head at the last snapshot"},
            "subgraphLagSeconds": {**nullable("integer"), "minimum": 0, "description": "chainHeadAt - subgraphIndexedAt"},
        }),
        "filling": FILLING_SCHEMA,
    }, "A public chain: what it supports, how fresh it is and what its indexed data covers."),
    "V1Deployment": obj({
        "chainId": CHAIN_ID,
        "name": {"type": "string"},
        "indexed": {"type": "boolean", "description": "the chain has a published snapshot"},
        "contracts": {"type": "array", "items": obj({
            "name": {"type": "string"},
            "address": ADDRESS,
            "feature": {"type": ["string", "null"], "description": "the feature the contract serves (null: infrastructure)"},
            "indexed": {"type": "boolean", "description": "the chain is indexed and supports the contract's feature"},
        })},
    }, "The protocol's contracts on one chain, and whether they are indexed."),
    "V1Health": obj({
        "status": {"enum": ["ok", "degraded"], "description": "ok: every public chain fresh; degraded: some are not"},
        "checkedAt": ISO_TIME,
        "freshChainIds": {"type": "array", "items": CHAIN_ID},
        "failedChainIds": {"type": "array", "items": CHAIN_ID, "description": "the latest attempt failed; the last "
                           "published snapshot is still within the freshness limit"},
        "staleChainIds": {"type": "array", "items": CHAIN_ID},
        "unavailableChainIds": {"type": "array", "items": CHAIN_ID},
        "staleAfterMinutes": {"type": "integer", "minimum": 1},
    }),
    "V1ChainHealth": obj({
        "chainId": CHAIN_ID,
        "state": CHAIN_STATE,
        "healthy": {"type": "boolean"},
        "reason": {"enum": ["fresh", "stale", "no_successful_snapshot", "subgraph_lagging"]},
        "snapshotAt": {**NULLABLE_TIME},
        "ageSeconds": {**nullable("integer"), "minimum": 0, "description": "now - snapshotAt"},
        "lastRun": {"oneOf": [obj({"snapshotAt": ISO_TIME, "status": {"enum": ["success", "failed"]}, "runId": {"type": "string"},
                                   "error": nullable("string")}), {"type": "null"}]},
        "subgraphLagSeconds": {**nullable("integer"), "minimum": 0},
        "coverage": obj({
            "firstMarketActivity": NULLABLE_TIME,
            "hourly": RANGE,
            "events": RANGE,
            "snapshots": {**RANGE, "description": "published 15-minute snapshots: first and last"},
            "missingSnapshots": MISSING_SNAPSHOTS_SCHEMA,
            "missingHistory": MISSING_HISTORY_SCHEMA,
            "indexedAt": NULLABLE_TIME,
            "chainHeadAt": NULLABLE_TIME,
        }),
        "filling": FILLING_SCHEMA,
        "rpc": obj({
            "reachable": {"type": "boolean", "description": "the chain's RPC answered eth_blockNumber within 2 s"},
            "blockNumber": {**nullable("integer"), "minimum": 0},
            "latencyMs": {**nullable("number"), "minimum": 0},
            "error": nullable("string"),
        }),
    }),
}

