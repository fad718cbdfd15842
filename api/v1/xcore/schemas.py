"""JSON Schemas of the /v1 escrow-share token answers (components of /openapi.json)."""
from __future__ import annotations

from ...schema import ISO_TIME, RAW_INTEGER, array_of, nullable_ref, obj, ref
from ..common.events_coverage import indexed_coverage_schema
from ..common.schemas import CHAIN_ID, DECIMAL, LOWER_ADDRESS, NULLABLE_TIME
from .rates import GAP_REASONS
from .state import STATUSES

SIGNED_RAW = {"type": ["string", "null"], "pattern": r"^-?[0-9]+$", "description": "signed raw integer as a decimal "
              "string (18 decimals)"}
COUNT = {"type": "integer", "minimum": 0}
QUANTITY = obj({"raw": RAW_INTEGER, "value": {**DECIMAL, "description": "raw / 10^18"}},
               "An exact 18-decimal quantity (xCORE shares, core token, or a rate in core token per xCORE): the raw "
               "integer and its decimal; null where unknown.")
CHANGE = obj({"raw": SIGNED_RAW, "value": {**DECIMAL, "description": "raw / 10^18"}},
             "A signed change of the rate (core token per xCORE): raw (x 10^18) and decimal.")
OBSERVATION = obj({
    "chainId": CHAIN_ID,
    "snapshotAt": {**ISO_TIME, "description": "the chain's published 15-minute snapshot"},
    "blockNumber": {"type": "integer", "minimum": 0, "description": "the block read (the last at or before snapshotAt)"},
    "at": {**ISO_TIME, "description": "that block's time: when the figures were observed"},
}, "Where and when a chain's figures were read: by RPC at its snapshot block.")
QTY = ref("V1XcoreQuantity")


def qty(description: str) -> dict:
    """A quantity with its own description (a $ref takes none beside it)."""
    return {**QUANTITY, "description": description}
CHAIN = obj({
    "chainId": CHAIN_ID,
    "role": {"enum": ["canonical", "representation"], "description": "canonical: the token itself (its supply is the "
             "supply); representation: a bridged copy, minted against shares the canonical adapter locks, never added "
             "to the supply"},
    "token": {"type": ["string", "null"], "pattern": LOWER_ADDRESS["pattern"]},
    "observation": nullable_ref("V1XcoreObservation"),
    "supply": qty("the chain's totalSupply at its snapshot block"),
    "adapterLocked": {**nullable_ref("V1XcoreQuantity"), "description": "canonical chain: the shares its bridge adapter "
                      "locks for the representations; null elsewhere"},
    "circulating": {**nullable_ref("V1XcoreQuantity"), "description": "canonical chain: supply - adapterLocked"},
    "status": {"enum": ["observed", "not_deployed", "unavailable"], "description": "observed; not_deployed: the "
               "contract had no code at the snapshot block; unavailable: the chain has no published snapshot"},
}, "One chain's xCORE at its own snapshot.")
RECONCILIATION = obj({
    "status": {"enum": list(STATUSES), "description": "reconciled: the adapter's locked shares equal the covered "
               "representations' supplies; explained: they differ by exactly the transfers in flight, the observer "
               "skew and the shares held for uncovered chains; events_behind: a chain's indexed events do not reach "
               "its observation, so only the difference is known (temporary); unexplained: a difference the indexed "
               "transfers do not account for"},
    "reconciled": {"type": "boolean"},
    "adapterLocked": qty("the canonical adapter's locked shares at the canonical snapshot"),
    "bridgedSupply": qty("the sum of the covered representations' supplies, each at its own snapshot"),
    "unreconciledRaw": {**SIGNED_RAW, "description": "adapterLocked - bridgedSupply: how far the independent "
                        "observations are from reconciling"},
    "inFlight": {"oneOf": [obj({"outRaw": RAW_INTEGER, "outCount": COUNT, "backRaw": RAW_INTEGER, "backCount": COUNT}),
                           {"type": "null"}],
                 "description": "transfers between covered chains whose sending side is seen at its chain's "
                 "observation and whose receiving side is not: out (canonical to representation), back; null with "
                 "events_behind"},
    "observerSkew": {"oneOf": [obj({"outRaw": RAW_INTEGER, "backRaw": RAW_INTEGER}), {"type": "null"}],
                     "description": "transfers whose receiving side is seen and sending side is not (the chains' "
                     "observations lie further apart than the delivery); null with events_behind"},
    "uncoveredChains": {"oneOf": [{"type": "array", "items": obj({"chainId": CHAIN_ID, "lockedRaw": SIGNED_RAW})},
                                  {"type": "null"}],
                        "description": "chains the transfers reach that this service does not cover: the shares the "
                        "adapter holds for them, from the canonical chain's events alone"},
    "residualRaw": {**SIGNED_RAW, "description": "unreconciledRaw - (inFlight out + back - observerSkew out - back + "
                    "uncoveredChains): 0 when explained; null with events_behind"},
    "eventsBehind": {"type": "array", "items": CHAIN_ID, "description": "chains whose indexed xCORE events end before "
                     "their observation"},
}, "The canonical adapter's locked shares against the bridged supplies. Each chain is observed at its own snapshot, "
   "so transfers between the observations leave them unreconciled; the indexed transfers say by how much and why.")
COVERAGE = indexed_coverage_schema("xCORE events", "transfers")
TOKEN = obj({
    "chainId": CHAIN_ID, "address": LOWER_ADDRESS, "name": {"type": "string"}, "symbol": {"type": "string"},
    "decimals": COUNT,
    "asset": {**LOWER_ADDRESS, "description": "the core token it wraps (ERC-4626 asset())"},
    "adapter": {**LOWER_ADDRESS, "description": "the bridge adapter locking the shares bridged out"},
}, "The escrow-share token on its canonical chain.")

XCORE = obj({
    "canonicalChainId": CHAIN_ID,
    "token": {"oneOf": [TOKEN, {"type": "null"}], "description": "null: not deployed at the canonical snapshot"},
    "observation": {**nullable_ref("V1XcoreObservation"), "description": "the canonical chain's read: rate, supply "
                    "and backing are as of this block"},
    "rate": {"oneOf": [obj({"raw": RAW_INTEGER, "value": DECIMAL, "changedAt": {
        **NULLABLE_TIME, "description": "the last indexed event that changed the rate, at or before the observation"}}),
        {"type": "null"}], "description": "core token per xCORE: convertToAssets(10^18) (raw x 10^18, rounded down by "
        "the contract)"},
    "supply": qty("the canonical totalSupply: counted once, the adapter's locked shares included "
               "(the representations elsewhere are those shares)"),
    "backing": qty("the core token the supply wraps (totalAssets())"),
    "exitPenaltyBps": {"type": ["integer", "null"], "minimum": 0, "maximum": 10000, "description": "the share of an "
                       "exit kept in the backing (raising the rate)"},
    "chains": {"type": "array", "items": ref("V1XcoreChain"), "description": "every covered chain with xCORE"},
    "reconciliation": {"oneOf": [ref("V1XcoreReconciliation"), {"type": "null"}]},
    "coverage": {"type": "array", "items": COVERAGE, "description": "how far each chain's xCORE events are indexed"},
}, "The escrow-share token xCORE: rate, supply and backing at the canonical chain's snapshot, each chain's "
   "supply at its own, and their reconciliation.")

SAMPLE = obj({
    "rate": QTY, "supply": QTY, "backing": QTY,
    "eventId": {"type": "string", "description": "the last event at or before the period's close (transaction hash and "
                "log index): the state in effect"},
    "eventAt": ISO_TIME,
    "blockNumber": {"type": "integer", "minimum": 0},
}, "The state in effect at a period's close: after the last event before its end.")
PERIOD = obj({
    "from": ISO_TIME,
    "toExclusive": ISO_TIME,
    "durationSeconds": {"type": "integer", "minimum": 1},
    "partial": {"type": "boolean", "description": "shorter than the interval: the range's oldest period, clipped"},
    "sample": nullable_ref("V1XcoreSample"),
    "gapReason": {"enum": [*GAP_REASONS, None], "description": "why sample is null: before_token_deployment (no event "
                  "before the period's end); events_not_indexed (its close lies after the indexed events: temporary)"},
    "activity": {"enum": ["changed", "carried", None], "description": "changed: an event in the period changed the "
                 "rate; carried: none did (the rate carries over)"},
    "rateChanges": {"type": ["integer", "null"], "minimum": 0},
    "events": {"type": ["integer", "null"], "minimum": 0, "description": "the canonical chain's xCORE events in the period"},
}, "One period of the rate history.")
RATE_HISTORY = obj({
    "canonicalChainId": CHAIN_ID,
    "interval": {"enum": ["15m", "1h", "1d"]},
    "from": ISO_TIME,
    "toExclusive": ISO_TIME,
    "periodCount": COUNT,
    "eventsIndexedThrough": {**NULLABLE_TIME, "description": "inclusive: the canonical chain's xCORE events shown "
                             "(pinned by the traversal)"},
    "periods": {**array_of("V1XcoreRatePeriod"), "description": "oldest first"},
}, "The rate of xCORE in rolling periods: a sample or a gap reason per period.")
CAUSES = obj({"exitPenalty": ref("V1XcoreChange"), "compound": ref("V1XcoreChange"),
              "distribution": ref("V1XcoreChange")},
             "The rate change by cause: the sum of (rate after - rate before) over the epoch's events of each kind. "
             "They sum exactly to the change.")
EPOCH = obj({
    "epoch": {**ISO_TIME, "description": "the epoch's start (Thursday 00:00 UTC)"},
    "toExclusive": ISO_TIME,
    "partial": {"type": "boolean", "description": "the epoch goes on after the indexed events: its end figures are "
                "at observedThrough"},
    "observedThrough": {**ISO_TIME, "description": "inclusive: the last second of the epoch shown"},
    "rateAtStart": QTY, "rateAtEnd": QTY, "change": ref("V1XcoreChange"), "causes": CAUSES,
    "counts": obj({k: COUNT for k in ("deposit", "exit", "compound", "distribution", "bridgeOut", "bridgeIn")},
                  "The canonical chain's events of the epoch per kind."),
    "amounts": obj({
        "deposited": qty("core token deposited"),
        "exitedShares": qty("xCORE burnt by exits"),
        "exitPaid": qty("core token paid to exiting wallets"),
        "penalties": qty("core token kept in the backing by exit penalties"),
        "compounded": qty("core token added by compounded incentives"),
        "distributed": qty("core token added by distributions"),
    }, "The epoch's flows."),
    "supplyAtEnd": QTY, "backingAtEnd": QTY,
}, "One epoch of xCORE: the rate at its start and end, the change by cause, counts and amounts.")
EPOCHS = obj({
    "canonicalChainId": CHAIN_ID,
    "eventsIndexedThrough": {**NULLABLE_TIME, "description": "inclusive: the canonical chain's xCORE events shown "
                             "(pinned by the traversal)"},
    "epochs": {**array_of("V1XcoreEpoch"), "description": "newest first"},
}, "xCORE per epoch.")

SCHEMAS = {"V1XcoreQuantity": QUANTITY, "V1XcoreChange": CHANGE, "V1XcoreObservation": OBSERVATION,
           "V1XcoreChain": CHAIN, "V1XcoreReconciliation": RECONCILIATION, "V1Xcore": XCORE,
           "V1XcoreSample": SAMPLE, "V1XcoreRatePeriod": PERIOD, "V1XcoreRateHistory": RATE_HISTORY,
           "V1XcoreEpoch": EPOCH, "V1XcoreEpochs": EPOCHS}
