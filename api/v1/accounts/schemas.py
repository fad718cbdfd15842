"""JSON Schemas of the /v1 account answers (components of /openapi.json)."""
from __future__ import annotations

from ...schema import ISO_TIME, RAW_INTEGER, array_of, nullable_ref, obj, ref
from ..common.events_coverage import indexed_coverage_schema
from ..common.schemas import CHAIN_ID, DECIMAL, LOWER_ADDRESS
from ..xcore.schemas import qty

COUNT = {"type": "integer", "minimum": 0}
COVERAGE = obj({
    **indexed_coverage_schema("xCORE events", "moves")["properties"],
    "fromDeployment": {"type": "boolean", "description": "the chain's events are indexed from its deployment on, so "
                       "no earlier move is missing from the sum (a balance needs it)"},
}, "How far one chain's xCORE events are indexed, and whether from its deployment.")
MOVE = obj({
    "kind": {"enum": ["deposit", "exit", "bridgeOut", "bridgeIn"]},
    "at": ISO_TIME,
    "blockNumber": COUNT,
    "transactionHash": {"type": "string"},
}, "The address's last move of xCORE on the chain at or before its snapshot.")
CHAIN = obj({
    "chainId": CHAIN_ID,
    "role": {"type": ["string", "null"], "enum": ["canonical", "representation", None], "description": "canonical: the token itself; "
             "representation: a bridged copy; null: no token observed"},
    "token": {"type": ["string", "null"], "pattern": LOWER_ADDRESS["pattern"]},
    "status": {"enum": ["observed", "not_deployed", "unavailable"], "description": "observed; not_deployed: the "
               "token had no code at the snapshot block (the address holds none: balance 0); unavailable: the chain "
               "has no published snapshot (balance null)"},
    "observation": nullable_ref("V1XcoreObservation", "the chain's snapshot block the balance is taken at"),
    "balance": qty("xCORE shares the address holds at the snapshot: the sum of its indexed moves up to it; null when "
                   "the chain's events are not indexed from its deployment on (a partial sum is not a balance) or "
                   "the chain is unavailable"),
    "worth": qty("core token the balance converts to at the canonical chain's rate (`rate`), rounded down as the "
                 "token does, before any exit penalty; null without a balance or a rate"),
    "moves": {"type": ["integer", "null"], "minimum": 0, "description": "the address's indexed moves on the chain up "
              "to the snapshot (deposits, exits, bridged out and in)"},
    "lastMove": nullable_ref("V1AccountXcoreMove"),
    "complete": {"type": "boolean", "description": "the balance is exact at the snapshot: observed with events "
                 "indexed from deployment and not behind, or not deployed"},
    "coverage": nullable_ref("V1AccountXcoreCoverage", "null: the chain has no published snapshot"),
}, "The address's xCORE on one chain at that chain's published snapshot.")
RATE = obj({
    "raw": RAW_INTEGER,
    "value": {**DECIMAL, "description": "raw / 10^18"},
    "observation": ref("V1XcoreObservation"),
    "exitPenaltyBps": {"type": ["integer", "null"], "minimum": 0, "description": "what an exit would keep, in basis "
                       "points of the worth"},
}, "The canonical chain's rate (core token per xCORE) at its published snapshot.")
ACCOUNT_XCORE = obj({
    "address": LOWER_ADDRESS,
    "canonicalChainId": CHAIN_ID,
    "rate": nullable_ref("V1AccountXcoreRate", "null while the token is not deployed at the canonical chain's "
                         "snapshot"),
    "chains": {**array_of("V1AccountXcoreChain"), "description": "the selected chains, by chain ID; the canonical "
               "chain's rate values them even when it is not selected (meta.chains lists it then)"},
    "totals": obj({
        "balance": qty("the sum of the chains' balances (the same shares wherever they sit); null when one is null"),
        "worth": qty("the balance at the canonical rate; null when the balance or the rate is"),
        "chainIds": {"type": "array", "items": CHAIN_ID, "description": "the chains whose balance is known"},
        "complete": {"type": "boolean", "description": "every chain complete and a rate known"},
    }, "The address's xCORE over the selected chains."),
}, "One address's escrow-share token (xCORE) per chain, and its worth at the current rate.")
SCHEMAS = {"V1AccountXcoreCoverage": COVERAGE, "V1AccountXcoreMove": MOVE, "V1AccountXcoreChain": CHAIN,
           "V1AccountXcoreRate": RATE, "V1AccountXcore": ACCOUNT_XCORE}
