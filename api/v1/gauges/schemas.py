"""JSON Schemas of the /v1 gauge answers (components of /openapi.json)."""
from __future__ import annotations

from ...schema import ISO_TIME, RAW_INTEGER, array_of, nullable, obj
from ..common.schemas import CHAIN_ID, DECIMAL, LOWER_ADDRESS, NULLABLE_TIME
from .rows import REASONS

NULLABLE_RAW = {**RAW_INTEGER, "type": ["string", "null"]}
EVENT = obj({
    "event": {"enum": ["created", "killed", "revived"]},
    "at": {**ISO_TIME, "description": "the block time"},
    "epochStart": {**ISO_TIME, "description": "the epoch it happened in"},
    "blockNumber": {"type": "integer", "minimum": 0},
    "transactionHash": {"type": "string"},
}, "One event of a gauge's life.")

AMOUNT = obj({
    "token": LOWER_ADDRESS,
    "symbol": {"type": ["string", "null"]},
    "decimals": nullable("integer", "null: the token is not in the snapshot's token rows"),
    "amountRaw": {**RAW_INTEGER, "description": "exact integer in the token's raw units"},
    "amount": {**DECIMAL, "description": "amountRaw / 10^decimals; null without decimals"},
    "amountUsd": {**DECIMAL, "description": "USD at deposit time (bribes); null when a deposit had no price, and for "
                  "fees (valued together in feesUsd)"},
}, "An amount of one token.")

GAUGE = {
    "chainId": CHAIN_ID,
    "address": LOWER_ADDRESS,
    "kind": {"enum": ["pool", "system"], "description": "pool: a user pool's gauge; system: a gauge without a user "
             "pool (it takes votes and emissions; target is what it pays)"},
    "target": {**LOWER_ADDRESS, "description": "what the Voter's weight is on: the pool, or the system gauge's target"},
    "pool": {"oneOf": [obj({
        "address": LOWER_ADDRESS,
        "type": {"type": ["string", "null"], "enum": ["v2-volatile", "v2-stable", "cl", None],
                 "description": "null: the pool has no row in the snapshot"},
        "tokens": {"oneOf": [{"type": "array", "items": obj({"address": LOWER_ADDRESS, "symbol": {"type": "string"}})},
                             {"type": "null"}]},
    }), {"type": "null"}], "description": "the gauge's pool; null for a system gauge"},
    "alive": {"type": "boolean", "description": "false: killed (emits nothing, takes no new votes)"},
    "killedAt": {**NULLABLE_TIME, "description": "when the kill in force happened; null while alive"},
    "timeline": {"type": "array", "items": EVENT, "description": "created, killed, revived: oldest first, up to the "
                 "snapshot"},
    "snapshotAt": {**ISO_TIME, "description": "the chain's published snapshot the figures were read at"},
    "epochStart": {**ISO_TIME, "description": "the epoch of that snapshot (Thursday 00:00 UTC)"},
    "votes": obj({
        "weightRaw": {**NULLABLE_RAW, "description": "the Voter's weight on the target (1e18-scaled voting power of "
                      "the allocations in effect: they persist until their veNFT votes again, pokes or resets)"},
        "weight": DECIMAL,
        "share": {**DECIMAL, "description": "weightRaw / chainWeightRaw (a fraction)"},
        "chainWeightRaw": {**NULLABLE_RAW, "description": "the chain's total Voter weight (every gauge's)"},
        "epochStartWeightRaw": {**NULLABLE_RAW, "description": "the weight in effect at the epoch's start, which split "
                                "its emissions; null until the epoch's governance events are read"},
    }),
    "emissions": obj({
        "epochRaw": {**NULLABLE_RAW, "description": "core token allotted to the gauge for the epoch (1e18-scaled)"},
        "epoch": DECIMAL,
        "ratePerSecondRaw": {**NULLABLE_RAW, "description": "the gauge's reward rate: core token per second "
                             "(1e18-scaled); 0 while killed"},
        "ratePerSecond": DECIMAL,
        "ratePerSecondUsd": {**DECIMAL, "description": "ratePerSecond x coreTokenPriceUsd; null without a price"},
        "coreTokenPriceUsd": DECIMAL,
        "reason": {"type": ["string", "null"], "enum": [*REASONS, None],
                   "description": "why the gauge emits nothing this epoch: killed; awaiting_next_epoch (created or "
                                  "revived after the epoch's emissions were split); no_votes (no Voter weight when "
                                  "they were split); capped (the chain capped it; none of the covered chains caps "
                                  "today). null: it emits"},
    }, "Emissions: a rate, not notified funding, fees or claimed rewards."),
    "bribesEpochUsd": {**DECIMAL, "description": "bribes notified this epoch up to the snapshot, USD at deposit time"},
    "feesEpochUsd": {**DECIMAL, "description": "the pool's trading fees this epoch up to the snapshot's anchor, USD"},
    "apr": obj({
        "emissions": {**DECIMAL, "description": "emissions APR of the aprProfile (CL pools: a 100 USD deposit in the "
                      "profile's range; V2 pools: staked LP value)"},
        "fees": {**DECIMAL, "description": "24h fees x 365 / TVL"},
        "bribes": {**DECIMAL, "description": "bribes notified this epoch x 365/7 / TVL"},
        "total": {**DECIMAL, "description": "emissions + fees + bribes when the three are known"},
    }, "Fractions per year (0.25 = 25 %)."),
}

EPOCH_HEAD = {
    "epochStart": {**ISO_TIME, "description": "Thursday 00:00 UTC"},
    "epochEnd": {**ISO_TIME, "description": "exclusive: the next epoch's start"},
    "partial": {"type": "boolean", "description": "the running epoch, or read before its end"},
}
GAP = {"type": ["string", "null"], "enum": ["not_indexed", None],
       "description": "not_indexed: the chain's governance events have not read the gauge's epoch (figures null)"}
HISTORY_EPOCH = obj({
    **EPOCH_HEAD,
    "readAt": {**NULLABLE_TIME, "description": "the time the epoch's figures were read up to"},
    "alive": nullable("boolean", "alive at the epoch's last second (or when read)"),
    "votesRaw": {**NULLABLE_RAW, "description": "the allocations in effect for the epoch (1e18-scaled): at its end, "
                 "the Voter's weight on the target"},
    "epochStartWeightRaw": {**NULLABLE_RAW, "description": "the Voter's weight at the epoch's start, which split its "
                            "emissions"},
    "emissionsRaw": {**NULLABLE_RAW, "description": "core token allotted for the epoch (1e18-scaled)"},
    "ratePerSecondRaw": {**NULLABLE_RAW, "description": "the reward rate while alive (core token per second, "
                         "1e18-scaled)"},
    "emittedRaw": {**NULLABLE_RAW, "description": "the rate x the seconds alive in the epoch (up to readAt)"},
    "feesUsd": {**DECIMAL, "description": "trading fees accrued to the gauge's fee reward, USD at each swap's time"},
    "bribesUsd": {**DECIMAL, "description": "bribes notified, USD at deposit time; null when one had no price"},
    "bribeCount": nullable("integer"),
    "unpricedBribeCount": nullable("integer", "deposits without a USD value"),
    "gap": GAP,
}, "One epoch of a gauge. Emissions, trading fees and bribes are separate quantities.")
REWARDS_EPOCH = obj({
    **EPOCH_HEAD,
    "fees": {"oneOf": [{"type": "array", "items": obj({k: v for k, v in AMOUNT["properties"].items()
                                                       if k != "amountUsd"})}, {"type": "null"}],
             "description": "trading fees accrued to the gauge's fee reward per pool token ([] for a system gauge)"},
    "feesUsd": {**DECIMAL, "description": "those fees in USD at each swap's time"},
    "bribes": {"oneOf": [{"type": "array", "items": obj({**AMOUNT["properties"], "deposits": {"type": "integer"}})},
                         {"type": "null"}], "description": "bribes notified per token, USD at deposit time"},
    "bribesUsd": {**DECIMAL, "description": "the bribes' amountUsd summed; null when one is unknown"},
    "gap": GAP,
}, "The rewards offered to a gauge's voters for one epoch, token by token: fees and bribes, each with its own total.")


def epochs_page(items: dict, what: str) -> dict:
    return obj({
        "chainId": CHAIN_ID,
        "address": LOWER_ADDRESS,
        "snapshotAt": {**ISO_TIME, "description": "the published snapshot every page reads"},
        "firstEpoch": {**ISO_TIME, "description": "the epoch of the gauge's creation: the oldest listed"},
        "epochs": {"type": "array", "items": items, "description": "newest first"},
    }, what)


SCHEMAS = {
    "V1Gauge": obj(GAUGE, "A gauge of one chain at its published snapshot."),
    "V1GaugePage": obj({
        "rows": {**array_of("V1Gauge"), "description": "in the requested order, NULL last, then chainId and address"},
        "filters": obj({
            "chainIds": {"type": "array", "items": CHAIN_ID},
            "kind": {"type": "string", "description": "empty: any"},
            "alive": {"type": ["boolean", "null"]},
            "pool": {"type": "string"}, "poolChain": {"type": "integer", "minimum": 0},
            "token": {"type": "string"}, "tokenChain": {"type": "integer", "minimum": 0},
            "sort": {"type": "string"}, "direction": {"type": "string"}, "aprProfile": {"type": "string"},
        }, "The normalized filters the page (and its cursor) applies."),
    }, "A page of the gauges of the covered chains."),
    "V1GaugeHistory": epochs_page(HISTORY_EPOCH, "A gauge per epoch, newest first."),
    "V1GaugeRewards": epochs_page(REWARDS_EPOCH, "A gauge's voter rewards per epoch, token by token, newest first."),
    "V1GaugeDetail": obj({
        **GAUGE,
        "thisEpoch": obj({
            "bribes": {"type": "array", "items": AMOUNT, "description": "notified this epoch up to the snapshot, per "
                       "token"},
            "bribesIndexedUntil": {**NULLABLE_TIME, "description": "exclusive: the deposits before this time are "
                                   "included (the chain's governance events are read up to it; at most the "
                                   "snapshot's time); null: never read"},
            "bribesUsd": {**DECIMAL, "description": "the bribes' amountUsd summed; null when one is unknown"},
            "fees": {"oneOf": [{"type": "array", "items": AMOUNT}, {"type": "null"}],
                     "description": "trading fees accrued to the gauge's fee reward per pool token; [] for a system "
                                    "gauge; null until the epoch's governance events are read"},
            "feesUsd": {**DECIMAL, "description": "those fees in USD at each swap's time"},
            "feesReadAt": {**NULLABLE_TIME, "description": "the time the fees were read up to"},
        }, "This epoch's notified bribes and accrued trading fees, each with its own total: never added together."),
    }, "A gauge of one chain at its published snapshot, with this epoch's bribes and fees."),
}
