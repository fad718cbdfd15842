"""JSON Schemas of the governance answers of /api/stats: bribes, votes, vote escrow, epochs,
gauges and the foundation (OpenAPI components.schemas; conventions in protocol_schemas.py).
`AprBreakdown`, a gauge's APRs, is also the pools' (market_schemas.py)."""
from __future__ import annotations

from ..schema import ADDRESS, ISO_TIME, RAW_INTEGER, nullable, obj, ref

BRIBE_EVENT = obj(
    {
        "id": {"type": "string", "description": "event id (<transaction hash>-<log index>)"},
        "epoch": {"type": "integer", "description": "epoch start of the deposit, Unix seconds"},
        "timestamp": ISO_TIME,
        "blockNumber": {"type": "integer"},
        "transactionHash": {"type": "string"},
        "gaugeAddress": ADDRESS,
        "poolAddress": {**ADDRESS, "description": "target pool"},
        "tokenAddress": ADDRESS,
        "tokenSymbol": {"type": "string"},
        "tokenDecimals": {"type": "integer"},
        "amountRaw": RAW_INTEGER,
        "amount": {"type": "number", "description": "amountRaw / 10^tokenDecimals"},
        "amountUsd": nullable("number", "USD value at deposit time"),
        "sender": ADDRESS,
        "isFoundation": {"type": "boolean", "description": "funded by the foundation wallet"},
    },
    "One bribe deposit routed to a gauge (FoundationBribeEvent).",
)

BRIBE_TOTAL = obj(
    {
        "epochStart": {"type": "integer", "description": "Unix seconds"},
        "totalUsd": nullable("number", "sum of USD values at deposit time; null when a deposit has no USD value"),
        "count": {"type": "integer"},
    },
    "Bribes deposited in one epoch.",
)

VOTE_SNAPSHOT = obj(
    {
        "veNftId": {"type": "integer"},
        "epoch": {"type": "integer", "description": "epoch start, Unix seconds"},
        "poolAddress": ADDRESS,
        "gaugeAddress": ADDRESS,
        "weightRaw": RAW_INTEGER,
        "weight": {"type": "number", "description": "voting power allocated to the pool, weightRaw / 1e18"},
        "owner": {"type": "string", "description": "owner of the veNFT when it was read"},
        "isFoundation": {"type": "boolean"},
        "votedAt": ISO_TIME,
        "blockNumber": {"type": "integer"},
    },
    "One vote allocation: veNFT, pool, weight, epoch.",
)

VE_STATS = obj(
    {
        "snapshotAt": {**ISO_TIME, "type": ["string", "null"]},
        "blockNumber": nullable("integer"),
        "totalLocked": nullable("number", "core token locked, raw / 1e18"),
        "totalLockedRaw": RAW_INTEGER,
        "totalVotingPower": nullable("number", "raw / 1e18"),
        "totalVotingPowerRaw": RAW_INTEGER,
        "permanentLocked": nullable("number", "locked in permanent locks (voting power = amount)"),
        "permanentLockedRaw": RAW_INTEGER,
        "decayingLocked": nullable("number", "locked in decaying locks (totalLocked - permanentLocked)"),
        "decayingLockedRaw": RAW_INTEGER,
        "lockCount": nullable("integer", "veNFTs with a non-zero locked amount"),
        "permanentLockCount": nullable("integer"),
        "decayingLockCount": nullable("integer", "non-permanent locks whose unlock time is in the future"),
        "expiredLockCount": nullable("integer", "non-permanent locks past their unlock time, not withdrawn"),
        "averageLockDurationSeconds": nullable("number", "mean remaining lock time of the decaying locks"),
        "averageLockDurationDays": nullable("number"),
    },
    "Vote-escrow state at the snapshot block; every figure is null when the snapshot has no vote-escrow row.",
)

TOP_GAUGE = obj(
    {
        "gaugeAddress": ADDRESS,
        "poolAddress": ADDRESS,
        "token0Symbol": nullable("string", "from the snapshot's pool row; null when the pool is not in it"),
        "token1Symbol": nullable("string"),
        "votesRaw": RAW_INTEGER,
        "votes": {"type": "number"},
    }
)

EPOCH_SUMMARY = obj(
    {
        "epochStart": {"type": "integer"},
        "bribeCount": {"type": "integer"},
        "totalBribesUsd": nullable("number", "bribes deposited in the epoch, USD at deposit time"),
        "foundationBribeCount": {"type": "integer"},
        "foundationBribesUsd": nullable("number", "the foundation wallet's bribe spend"),
        "totalVotesRaw": RAW_INTEGER,
        "totalVotes": {"type": "number"},
        "foundationVotesRaw": RAW_INTEGER,
        "foundationVoteShare": nullable("number", "foundation veNFT votes / all votes; null without votes"),
        "gaugeCount": {"type": "integer", "description": "gauges that received votes"},
        "topGauges": {"type": "array", "items": ref("EpochTopGauge"), "description": "up to five most-voted gauges"},
    },
    "One epoch: bribes, foundation spend and vote share, most-voted gauges.",
)

APR_BREAKDOWN = obj(
    {
        "emission": nullable("number", "core-token emissions to the gauge, annualized over staked TVL"),
        "fee": nullable("number", "fees paid to voters, annualized"),
        "bribe": nullable("number", "bribes, annualized"),
        "total": nullable("number", "emission + fee + bribe"),
    },
    "APRs as fractions per year (0.25 = 25 %) from the gauge snapshot; null when an input is unknown.",
)

GAUGE_FIELDS = {
    "gaugeAddress": ADDRESS,
    "poolAddress": ADDRESS,
    "poolType": {"type": ["string", "null"], "enum": ["v2-volatile", "v2-stable", "cl", None]},
    "token0Symbol": nullable("string"),
    "token1Symbol": nullable("string"),
    "tvlUsd": nullable("number", "pool TVL in USD"),
    "isAlive": {"type": "boolean"},
    "epochStart": {"type": "integer"},
    "votesRaw": RAW_INTEGER,
    "votes": nullable("number", "votes for the pool this epoch, raw / 1e18"),
    "foundationVotesRaw": RAW_INTEGER,
    "foundationVoteShare": nullable("number", "foundation veNFT votes / all votes of the pool; null without votes"),
    "emissionsEpochRaw": RAW_INTEGER,
    "emissionsEpoch": nullable("number", "core token directed to the gauge this epoch"),
    "bribesEpochUsd": nullable("number", "bribes deposited this epoch so far, USD at deposit time"),
    "feesEpochUsd": nullable("number", "pool fees of the epoch's ended hours"),
    "apr": ref("AprBreakdown"),
}
GAUGE = obj(GAUGE_FIELDS, "A gauge with its pool, this epoch's votes and the APR breakdown.")
GAUGE_HISTORY_POINT = obj(
    {"snapshotAt": ISO_TIME, "votesRaw": RAW_INTEGER, "foundationVoteShare": nullable("number"), "apr": ref("AprBreakdown")},
    "The gauge's APR breakdown at one successful snapshot.",
)
GAUGE_DETAIL = obj(
    {
        "current": ref("Gauge"),
        "history": {"type": "array", "items": ref("GaugeHistoryPoint"),
                    "description": "up to the last 672 successful snapshots (about 7 days), oldest first"},
    },
    "A gauge of the snapshot and the history of its APR breakdown.",
)
REWARD_TOKEN = obj(
    {
        "tokenAddress": ADDRESS,
        "tokenSymbol": {"type": "string"},
        "tokenDecimals": {"type": "integer"},
        "amountRaw": RAW_INTEGER,
        "amount": {"type": "number"},
        "amountUsd": nullable("number"),
    }
)
GAUGE_EPOCH_REWARD = obj(
    {
        "epochStart": {"type": "integer"},
        "bribes": {"type": "array", "items": ref("RewardToken"), "description": "bribes deposited, USD at deposit time"},
        "fees": {"type": "array", "items": ref("RewardToken"),
                 "description": "fee rewards claimed by the epoch's voters, USD at claim time"},
        "bribesUsd": nullable("number"),
        "feesUsd": nullable("number"),
    },
    "One epoch of a gauge's voter rewards, token by token.",
)

FOUNDATION_VOTE = obj(
    {
        "veNftId": {"type": "integer"},
        "epoch": {"type": "integer"},
        "poolAddress": ADDRESS,
        "gaugeAddress": ADDRESS,
        "weightRaw": RAW_INTEGER,
        "weight": {"type": "number"},
        "votedAt": ISO_TIME,
        "snapshotAt": {**ISO_TIME, "description": "the representative snapshot the allocation was read from"},
    },
    "One foundation veNFT's allocation to a pool in an epoch (foundation vote snapshot).",
)
ACTIVITY = obj(
    {
        "lifetimeUsd": nullable("number"), "lifetimeCount": {"type": "integer"},
        "recentUsd": nullable("number", "the 30 days up to the snapshot"), "recentCount": {"type": "integer"},
        "recentDays": {"const": 30},
    }
)
FOUNDATION_SUMMARY = obj(
    {
        "wallet": {"type": ["string", "null"]},
        "veNftIds": {"type": "array", "items": {"type": "integer"}, "description": "owned veNFTs"},
        "totalLockedRaw": RAW_INTEGER,
        "totalLocked": nullable("number", "vote escrow held (core token locked)"),
        "votingPowerRaw": RAW_INTEGER,
        "votingPower": nullable("number"),
        "epochStart": nullable("integer"),
        "votesThisEpochRaw": RAW_INTEGER,
        "votesThisEpoch": nullable("number"),
        "voteCount": nullable("integer", "(veNFT, pool) allocations of the current snapshot"),
        "votedPoolCount": nullable("integer", "pools voted for in the current snapshot"),
        "allocation": {
            "type": "array",
            "items": obj({"poolAddress": ADDRESS, "weightRaw": RAW_INTEGER, "weight": {"type": "number"}}),
            "description": "current-epoch vote allocation per pool, largest first",
        },
        "bribes": ACTIVITY,
        "claims": ACTIVITY,
    },
    "The foundation's position at the snapshot and its bribe spend and reward claims; the position is null "
    "when the snapshot has no foundation row.",
)
EPOCH_DETAIL = obj(
    {
        "epochStart": {"type": "integer"},
        "representativeSnapshotAt": {**ISO_TIME, "type": ["string", "null"],
                                     "description": "the snapshot the vote and KPI lists come from"},
        "votes": {"type": "array", "items": ref("FoundationVote")},
        "bribes": {"type": "array", "items": ref("BribeEvent"), "description": "every bribe deposited in the epoch"},
        "kpis": {"type": "array", "items": ref("FoundationKpi")},
    },
    "Foundation votes, bribes and KPI rows of one epoch.",
)

FOUNDATION_KPI = obj(
    {
        "epoch": {"type": "integer"},
        "snapshotAt": {**ISO_TIME, "description": "the representative snapshot of the epoch"},
        "gaugeAddress": ADDRESS,
        "poolAddress": ADDRESS,
        "voteWeightRaw": RAW_INTEGER,
        "voteWeight": {"type": "number", "description": "the foundation's votes on the pool this epoch"},
        "voteShare": nullable("number", "foundation votes / all votes on the pool"),
        "bribeCostUsd": nullable("number", "the foundation's bribes to the gauge this epoch, USD at deposit"),
        "emissionsDirectedRaw": RAW_INTEGER,
        "emissionsDirected": {"type": "number", "description": "gauge emissions of the epoch x voteShare"},
        "emissionsDirectedUsd": nullable("number"),
        "tvlUsd": nullable("number"),
        "tvlPrevUsd": nullable("number", "one epoch earlier"),
        "tvlDelta": nullable("number", "tvlUsd / tvlPrevUsd - 1"),
        "volumeUsd": nullable("number", "epoch to date"),
        "volumePrevUsd": nullable("number", "the same elapsed hours of the previous epoch"),
        "volumeDelta": nullable("number"),
        "feesUsd": nullable("number"),
        "feesPrevUsd": nullable("number"),
        "feesDelta": nullable("number"),
        "valuePerBribeUsd": nullable("number", "(emissions directed USD + fees x voteShare) / bribe cost"),
        "classification": {"enum": ["scale", "repeat", "monitor", "reduce", "stop", "insufficient_data"]},
        "methodologyVersion": {"type": "string", "description": "docs/methodology/kpi-classification.md version"},
    },
    "Foundation KPI of one gauge in one epoch (classification per the KPI methodology).",
)

BRIBE_MARKET_ROW = obj(
    {
        "gaugeAddress": ADDRESS,
        "poolAddress": ADDRESS,
        "token0Symbol": nullable("string"),
        "token1Symbol": nullable("string"),
        "epoch": {"type": "integer"},
        "bribeCount": {"type": "integer"},
        "totalBribesUsd": nullable("number", "bribes deposited in the epoch, USD at deposit time"),
        "totalFeesUsd": nullable("number", "the pool's fees over the epoch's hours ended by the snapshot"),
        "feeHoursCovered": {"type": "integer"},
        "totalRewardUsd": nullable("number", "totalBribesUsd + totalFeesUsd; null when a part is unknown"),
        "votesRaw": RAW_INTEGER,
        "votes": {"type": "number", "description": "votes on the pool in the epoch up to the snapshot"},
        "dollarPerVote": nullable("number", "totalRewardUsd / votes; null without votes"),
    },
    "One gauge of an epoch's bribe market.",
)

SCHEMAS: dict[str, dict] = {
    "BribeMarketRow": BRIBE_MARKET_ROW,
    "FoundationKpi": FOUNDATION_KPI,
    "FoundationVote": FOUNDATION_VOTE,
    "FoundationSummary": FOUNDATION_SUMMARY,
    "EpochDetail": EPOCH_DETAIL,
    "AprBreakdown": APR_BREAKDOWN,
    "Gauge": GAUGE,
    "GaugeHistoryPoint": GAUGE_HISTORY_POINT,
    "GaugeDetail": GAUGE_DETAIL,
    "RewardToken": REWARD_TOKEN,
    "GaugeEpochReward": GAUGE_EPOCH_REWARD,
    "BribeEvent": BRIBE_EVENT,
    "BribeTotal": BRIBE_TOTAL,
    "VoteSnapshot": VOTE_SNAPSHOT,
    "VeStats": VE_STATS,
    "EpochTopGauge": TOP_GAUGE,
    "EpochSummary": EPOCH_SUMMARY,
}
