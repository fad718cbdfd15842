"""JSON Schemas of the /v1 governance answers (components of /openapi.json)."""
from __future__ import annotations

from ...schema import ISO_TIME, RAW_INTEGER, array_of, nullable, obj, ref
from ..common.events_coverage import indexed_coverage_schema
from ..common.schemas import CHAIN_ID, DECIMAL, LOWER_ADDRESS, NULLABLE_TIME

TOKEN = obj({
    "address": LOWER_ADDRESS,
    "symbol": {"type": "string"},
    "decimals": {"type": "integer", "minimum": 0},
}, "A token as its chain's index names it.")

EVENTS_COVERAGE = indexed_coverage_schema("governance events", "records")

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

NULLABLE_RAW = {**RAW_INTEGER, "type": ["string", "null"]}
EPOCH = {
    "chainId": CHAIN_ID,
    "epochStart": {**ISO_TIME, "description": "Thursday 00:00 UTC"},
    "epochEnd": {**ISO_TIME, "description": "exclusive: the next epoch's start"},
    "partial": {"type": "boolean", "description": "the running epoch (it holds the chain's published snapshot), or "
                "one whose figures were read before it ended"},
    "readAt": {**NULLABLE_TIME, "description": "the time the figures were read up to"},
    "gauges": {"oneOf": [obj({
        "total": {"type": "integer", "description": "gauges existing in the epoch"},
        "alive": {"type": "integer", "description": "alive at its end (or when read)"},
        "voted": {"type": "integer", "description": "with votes in effect"},
        "emitting": {"type": "integer", "description": "allotted emissions"},
    }), {"type": "null"}]},
    "votesRaw": {**NULLABLE_RAW, "description": "the allocations in effect for the epoch, summed over the gauges "
                 "(1e18-scaled voting power)"},
    "emissionsRaw": {**NULLABLE_RAW, "description": "core token allotted to the gauges for the epoch (1e18-scaled; a "
                     "killed gauge's unpaid share is not in it)"},
    "emittedRaw": {**NULLABLE_RAW, "description": "what the gauges' reward rates emitted in the epoch (up to readAt)"},
    "bribesUsd": {**DECIMAL, "description": "bribes notified for the epoch, USD at deposit time; null when a deposit "
                  "had no price (see unpricedBribeCount)"},
    "bribeCount": nullable("integer"),
    "unpricedBribeCount": nullable("integer", "deposits without a USD value"),
    "feesUsd": {**DECIMAL, "description": "trading fees accrued to the gauges' fee rewards, USD at each swap's time"},
    "gap": {"type": ["string", "null"], "enum": ["not_indexed", None],
            "description": "not_indexed: the chain's governance events have not read the epoch (figures null)"},
}
GAUGE_EPOCH = obj({
    "address": LOWER_ADDRESS,
    "kind": {"enum": ["pool", "system"]},
    "target": LOWER_ADDRESS,
    "pool": {"type": ["string", "null"], "pattern": LOWER_ADDRESS["pattern"], "description": "null: a system gauge"},
    "symbols": {"oneOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}],
                "description": "the pool's token symbols at the snapshot; null for a system gauge or a pool not in it"},
    "alive": {"type": "boolean"},
    "partial": {"type": "boolean"},
    "readAt": ISO_TIME,
    "votesRaw": {**RAW_INTEGER, "description": "the allocations in effect for the epoch"},
    "epochStartWeightRaw": {**RAW_INTEGER, "description": "the Voter's weight at the epoch's start, which split its "
                            "emissions"},
    "emissionsRaw": RAW_INTEGER,
    "ratePerSecondRaw": RAW_INTEGER,
    "emittedRaw": RAW_INTEGER,
    "feesUsd": DECIMAL,
    "bribesUsd": DECIMAL,
    "bribeCount": {"type": "integer"},
    "unpricedBribeCount": {"type": "integer"},
}, "One gauge in one epoch.")

MARKET_ROW = obj({
    "chainId": CHAIN_ID,
    "epochStart": ISO_TIME,
    "gauge": LOWER_ADDRESS,
    "kind": {"enum": ["pool", "system"]},
    "target": LOWER_ADDRESS,
    "pool": {"type": ["string", "null"], "pattern": LOWER_ADDRESS["pattern"], "description": "null: a system gauge"},
    "symbols": {"oneOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}]},
    "alive": {"type": "boolean"},
    "status": {"enum": ["final", "projected"], "description": "final: the epoch's figures read after it ended; "
               "projected: the running epoch (or read before its end): dollarPerVote so far, and `projection`"},
    "valuedThrough": {**ISO_TIME, "description": "the figures were read up to this time: bribes are valued at each "
                      "deposit's time and fees at each swap's, all at or before it"},
    "votesRaw": {**RAW_INTEGER, "description": "the allocations in effect for the epoch (1e18-scaled voting power)"},
    "bribesUsd": {**DECIMAL, "description": "notified bribes, USD at deposit time; null when a deposit had no price"},
    "bribeCount": {"type": "integer"},
    "unpricedBribeCount": {"type": "integer"},
    "feesUsd": {**DECIMAL, "description": "trading fees accrued to the gauge's fee reward, USD at each swap's time"},
    "rewardsUsd": {**DECIMAL, "description": "bribesUsd + feesUsd: what the gauge's voters are offered; null when "
                   "either is unknown"},
    "dollarPerVote": {**DECIMAL, "description": "rewardsUsd / (votesRaw / 1e18); null without votes or rewards"},
    "projection": {"oneOf": [obj({
        "coveredSeconds": {"type": "integer", "description": "the seconds of the epoch the figures cover"},
        "feesUsd": {**DECIMAL, "description": "feesUsd x 604800 / coveredSeconds"},
        "rewardsUsd": {**DECIMAL, "description": "bribesUsd + the projected fees"},
        "dollarPerVote": {**DECIMAL, "description": "the projected rewards / (votesRaw / 1e18)"},
        "assumes": {"type": "string"},
    }), {"type": "null"}], "description": "projected rows only: the whole epoch at the rate so far"},
}, "One gauge in the vote market of one epoch.")

TOKEN_ID = {"type": "string", "pattern": "^[0-9]+$", "description": "the veNFT"}
VOTE_TARGET = {  # where a vote's weight goes, in a log and in an allocation alike
    "gauge": LOWER_ADDRESS,
    "target": {**LOWER_ADDRESS, "description": "what the weight is on: the pool, or a system gauge's target"},
    "pool": {"type": ["string", "null"], "pattern": LOWER_ADDRESS["pattern"], "description": "null: a system gauge"},
}

VOTE_EVENT = obj({
    "chainId": CHAIN_ID,
    "id": {"type": "string", "description": "the log: transaction hash and log index"},
    "kind": {"enum": ["vote", "poke", "reset"], "description": "the transaction's: vote (abstains from the veNFT's "
             "previous targets, then votes), poke (recasts them with its current voting power), reset (abstains "
             "from all)"},
    "event": {"enum": ["Voted", "Abstained"], "description": "Voted puts weight on the target; Abstained takes it off"},
    "tokenId": TOKEN_ID,
    "voter": {**LOWER_ADDRESS, "description": "the veNFT's owner at the time"},
    **VOTE_TARGET,
    "weightRaw": {**RAW_INTEGER, "description": "the voting power of the log (1e18-scaled)"},
    "deltaRaw": {"type": "string", "pattern": "^-?[0-9]+$", "description": "its effect on the target's weight: "
                 "+weightRaw (Voted) or -weightRaw (Abstained)"},
    "targetWeightAfterRaw": {**RAW_INTEGER, "description": "the target's Voter weight after the log"},
    "totalWeightAfterRaw": {**RAW_INTEGER, "description": "the Voter's total weight after the log"},
    "epochStart": ISO_TIME,
    "at": {**ISO_TIME, "description": "the block time"},
    "blockNumber": {"type": "integer", "minimum": 0},
    "transactionHash": {"type": "string"},
    "logIndex": {"type": "integer", "minimum": 0},
}, "One Voter log.")

VOTE_FILTERS = obj({
    "view": {"type": "string"}, "chainIds": {"type": "array", "items": CHAIN_ID},
    "epoch": {**NULLABLE_TIME, "description": "null: every epoch (always null in view=current)"},
    **{name: {"type": "string", "description": "lower-case address filter; empty: any"}
       for name in ("pool", "gauge", "voter")},
    **{f"{name}Chain": {"type": "integer", "minimum": 0, "description": "0: any chain"} for name in ("pool", "gauge")},
    "tokenId": nullable("integer"), "kind": {"type": "string", "description": "empty: any"},
}, "The normalized filters the page (and its cursor) applies.")

ALLOCATION_COVERAGE = obj({
    **EVENTS_COVERAGE["properties"],
    "fromDeployment": {"type": "boolean", "description": "the chain's governance events are indexed from its "
                       "deployment on, so no allocation cast before the indexed span is missing; false: meta.complete "
                       "is false"},
}, "How far one chain's governance events are indexed, and whether from its deployment.")

VOTE_ALLOCATION = obj({
    "chainId": CHAIN_ID,
    "tokenId": TOKEN_ID,
    "owner": {"type": ["string", "null"], "pattern": LOWER_ADDRESS["pattern"],
              "description": "the veNFT's owner at the snapshot block; null when its lock was not read there"},
    **VOTE_TARGET,
    "weightRaw": {**RAW_INTEGER, "description": "the weight the veNFT has on the target (1e18-scaled): its voting "
                  "power when it last voted or poked, times the target's share; what the Voter counts until the "
                  "veNFT acts again"},
    "usedWeightRaw": {**RAW_INTEGER, "description": "the veNFT's weight on all its targets (the Voter's usedWeights)"},
    "lastAction": obj({
        "kind": {"enum": ["vote", "poke"], "description": "the veNFT's last Voter transaction before the snapshot"},
        "at": ISO_TIME,
        "blockNumber": {"type": "integer", "minimum": 0},
        "transactionHash": {"type": "string"},
    }, "The transaction that set the allocation."),
    "lastVotedAt": {**NULLABLE_TIME, "description": "the veNFT's last vote (pokes do not change it, as the Voter's "
                    "lastVoted); null when its last vote is before the indexed span"},
    "lock": {"oneOf": [obj({
        "lockedRaw": {**RAW_INTEGER, "description": "the locked core token, raw (18 decimals)"},
        "unlockAt": {**NULLABLE_TIME, "description": "null: a permanent lock"},
        "permanent": {"type": "boolean"},
        "votingPowerRaw": {**RAW_INTEGER, "description": "voting power at the block: lockedRaw if permanent, else "
                           "lockedRaw x (unlockAt - block time) / (4 x 365 days), integer division, 0 once unlocked"},
        "blockNumber": {"type": "integer", "minimum": 0, "description": "the snapshot block it was read at"},
        "at": {**ISO_TIME, "description": "that block's time"},
    }), {"type": "null"}], "description": "the veNFT's lock at the chain's snapshot block; null when it was not read "
        "there (per-lock state is kept for the last two days of snapshots)"},
}, "One veNFT's weight on one target, in effect at the chain's snapshot.")

SCHEMAS = {
    "V1Bribe": BRIBE,
    "V1VotePage": {
        "oneOf": [ref("V1VoteEventPage"), ref("V1VoteAllocationPage")],
        "discriminator": {"propertyName": "view", "mapping": {"events": "#/components/schemas/V1VoteEventPage",
                                                             "current": "#/components/schemas/V1VoteAllocationPage"}},
        "description": "A page of /v1/votes in the view the request chose (`view`).",
    },
    "V1VoteEventPage": obj({
        "view": {"enum": ["events"]},
        "rows": {"type": "array", "items": VOTE_EVENT, "description": "newest first: time descending, then chainId, "
                 "then block and log index descending"},
        "coverage": {"type": "array", "items": EVENTS_COVERAGE, "description": "per covered chain"},
        "filters": VOTE_FILTERS,
    }, "A page of the Voter's logs of the covered chains (view=events)."),
    "V1VoteAllocationPage": obj({
        "view": {"enum": ["current"]},
        "rows": {"type": "array", "items": VOTE_ALLOCATION, "description": "chainId, then tokenId (numerically), "
                 "then target ascending"},
        "coverage": {"type": "array", "items": ALLOCATION_COVERAGE, "description": "per covered chain"},
        "filters": VOTE_FILTERS,
    }, "A page of the allocations in effect at the covered chains' snapshots (view=current)."),
    "V1BribeMarket": obj({
        "epochStart": {**ISO_TIME, "description": "the one epoch of every row"},
        "rows": {"type": "array", "items": MARKET_ROW, "description": "dollarPerVote highest first, unknown last, then "
                 "chainId and gauge"},
    }, "The vote market of one epoch: per gauge the rewards on offer, its votes and dollarPerVote."),
    "V1Epoch": obj(EPOCH, "One epoch of one chain: sums over its gauges. Votes, emissions, notified bribes and trading "
                   "fees are separate quantities."),
    "V1EpochPage": obj({"rows": {**array_of("V1Epoch"), "description": "newest epoch first, then chainId"}},
                       "A page of the covered chains' epochs."),
    "V1EpochDetail": obj({**EPOCH, "gaugeEpochs": {"oneOf": [{"type": "array", "items": GAUGE_EPOCH}, {"type": "null"}],
                                                   "description": "most votes first; null with gap"}},
                         "One epoch of one chain with every gauge's figures."),
    "V1BribePage": obj({
        "rows": {**array_of("V1Bribe"), "description": "newest first: notifiedAt descending, then chainId and id "
                 "ascending"},
        "coverage": {"type": "array", "items": EVENTS_COVERAGE, "description": "per covered chain"},
        "filters": FILTERS,
    }, "A page of notified funding records of the covered chains."),
}
