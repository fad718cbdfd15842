"""Schema pieces every /v1 domain uses: chain IDs, states and times, exact decimals, addresses,
names, and what a chain's published data rests on. Every /v1 schema is the family's own, never an
/api/stats schema, so a generated client gets /v1 types."""
from __future__ import annotations

from ...coverage import STATES
from ...schema import ISO_TIME, obj

NULLABLE_TIME = {"type": ["string", "null"], "format": "date-time", "pattern": ISO_TIME["pattern"]}
CHAIN_STATE = {"enum": list(STATES)}
RANGE = {"oneOf": [obj({"from": ISO_TIME, "to": ISO_TIME}), {"type": "null"}]}
CHAIN_ID = {"type": "integer", "minimum": 1, "maximum": 2147483647}
DECIMAL = {"type": ["string", "null"], "pattern": r"^-?[0-9]+(\.[0-9]{1,36})?$",
           "description": "exact decimal, truncated toward zero at 36 places; null when unknown or when a nonzero value "
                          "truncates to zero"}
LOWER_ADDRESS = {"type": "string", "pattern": "^0x[0-9a-f]{40}$"}
NAMES = {"type": "array", "items": {"type": "string"}}

# What a chain's published data rests on: in meta.chains[] (envelope.py) and in /v1/chains rows.
OBSERVATION = {
    "state": {**CHAIN_STATE, "description": "fresh; failed: the chain's latest attempt to publish a snapshot failed and "
              "its figures rest on the snapshot before it (still within the freshness limit); stale: the latest published "
              "snapshot is older than the freshness limit; unavailable: no published snapshot"},
    "snapshotAt": {**NULLABLE_TIME, "description": "the latest published 15-minute snapshot boundary"},
    "indexedAt": {**NULLABLE_TIME, "description": "the time of the chain block read at that snapshot"},
    "availableAt": {**NULLABLE_TIME, "description": "when that snapshot was published"},
}
