"""JSON Schemas of /v1/accounts/{address}/rewards (components of /openapi.json)."""
from __future__ import annotations

from ...schema import ISO_TIME, array_of, nullable_ref, obj, ref
from ..common.events_coverage import indexed_coverage_schema
from ..common.schemas import CHAIN_ID, DECIMAL, LOWER_ADDRESS, NULLABLE_TIME
from .rewards import KINDS, NO_PRICE_AT_CLAIM, STATUSES

COUNT = {"type": "integer", "minimum": 0}
NULLABLE_USD = {**DECIMAL, "type": ["string", "null"]}
KIND = {"enum": list(KINDS), "description": "bribe: a bribe reward; fee: the trading-fee reward; rebase: the "
        "rewards distributor's weekly rebase (these three a veNFT's); emission: a gauge's emissions to a liquidity "
        "position staked in it (see `kinds`)"}
STATUS = {"enum": list(STATUSES), "description": "claimable: earned in an ended epoch and not claimed by the "
          "snapshot block (only the veNFT's owner can claim it); claimed: paid to the address"}
TOKEN = obj({"address": LOWER_ADDRESS, "symbol": {"type": ["string", "null"]},
             "decimals": {"type": ["integer", "null"], "minimum": 0, "description": "null: not known by the snapshot"}},
            "The reward's token.")
VALUE = obj({
    "usd": {**NULLABLE_USD, "description": "the amount in USD, truncated at 36 places; null: no safe price (see reason)"},
    "basis": {"enum": ["current_price", "at_claim"], "description": "current_price: a claimable amount at the "
              "token's price at its chain's published snapshot (`price`); at_claim: a claimed amount at the token's "
              "price when it was claimed, as indexed with the claim"},
    "price": nullable_ref("V1PriceAtBoundary", "current_price only: the accepted price observation and its age"),
    "reason": {"type": ["string", "null"], "description": "why usd is null: before_first_market_activity, "
               "no_price_observation, price_observation_too_old, token_not_found (not in the snapshot, or blocked), "
               f"{NO_PRICE_AT_CLAIM}"},
}, "What a reward amount is worth, and on what basis.")
CLAIM = obj({"at": ISO_TIME, "blockNumber": COUNT, "transactionHash": {"type": "string"}},
            "The claim that paid the reward.")
REWARD = obj({
    "chainId": CHAIN_ID,
    "tokenId": {"type": ["string", "null"], "pattern": "^[0-9]+$", "description": "the veNFT that earned it; null: "
                "an emission (earned by a liquidity position, `positionId`)"},
    "positionId": {"type": ["string", "null"], "description": "emission only: the liquidity position, as "
                   "/liquidity-positions names it ('cl:<tokenId>' or 'v2:<pool>')"},
    "epochStart": {**ISO_TIME, "description": "the epoch it was earned in (a veNFT's rewards of the epoch in progress "
                   "are not earned before its end and are not listed); an emission: the epoch of its claim, or for a "
                   "claimable one the snapshot's (a gauge keeps one unclaimed amount per position, not one per "
                   "epoch)"},
    "kind": KIND,
    "status": STATUS,
    "gauge": {"type": ["string", "null"], "pattern": LOWER_ADDRESS["pattern"], "description": "null: a rebase (paid "
              "by the rewards distributor, not a gauge's reward contract), or an emission of a pool without a gauge "
              "at the snapshot"},
    "pool": {"type": ["string", "null"], "pattern": LOWER_ADDRESS["pattern"], "description": "null: a system gauge, "
             "or a rebase"},
    "token": ref("V1AccountRewardToken"),
    "amount": ref("V1AccountAmount"),
    "value": ref("V1AccountRewardValue"),
    "claim": nullable_ref("V1AccountRewardClaim", "claimed only"),
}, "One reward of one veNFT: (chain, epoch, veNFT, gauge, kind, token). Claimable: its share of what the gauge's "
   "reward contract took in the epoch (bribes per token, or the pool's trading fees), its votes for the gauge at the "
   "epoch's last second over the gauge's votes then, rounded down as the contract rounds; a rebase: its voting power "
   "at the epoch's start over the escrow's total then, times the epoch's rebase. A claimed rebase is listed per epoch "
   "its claim took, with the claim's USD shared in proportion. An emission: what the pool's gauge holds for one of the "
   "address's open positions at the snapshot block (claimable), or one claim of it (claimed), in the core token.")
TOTAL = obj({
    "kind": KIND,
    "status": STATUS,
    "token": ref("V1AccountRewardToken"),
    "amount": ref("V1AccountAmount"),
    "rewards": {**COUNT, "description": "how many rewards the amount sums"},
    "usd": {**NULLABLE_USD, "description": "claimable: the amount at the snapshot price; claimed: the claims' USD at "
            "their times, summed over those that had one; null when none has a value"},
    "usdComplete": {"type": "boolean", "description": "every reward of the sum has a USD value"},
    "reason": {"type": ["string", "null"], "description": "why usd is null or incomplete (see V1AccountRewardValue)"},
}, "One token's rewards of one kind and status on one chain, over every page.")
KIND_TOTAL = obj({
    "kind": KIND,
    "status": STATUS,
    "tokens": {**COUNT, "description": "the tokens summed"},
    "usd": {**NULLABLE_USD, "description": "the USD of the kind's tokens that have one (never across kinds); null "
            "when none has"},
    "usdComplete": {"type": "boolean", "description": "every token's rewards have a USD value, so usd is the whole"},
}, "One kind and status of the address's rewards on one chain, in USD.")
CHAIN = obj({
    "chainId": CHAIN_ID,
    "status": {"enum": ["observed", "not_read", "unavailable"], "description": "observed: the chain's locks were read "
               "at the snapshot block, so the veNFTs the address owns (and their claimable rewards) are known; "
               "not_read: they were not (claimable rewards unknown, claimed ones listed); unavailable: no published "
               "snapshot"},
    "snapshotAt": NULLABLE_TIME,
    "blockNumber": {"type": ["integer", "null"], "minimum": 0},
    "complete": {"type": "boolean", "description": "observed, the chain's governance events indexed from its "
                 "deployment and not behind, every fee reward read after its epoch ended, and its emissions complete "
                 "(or unsupported)"},
    "coverage": nullable_ref("V1AccountGovernanceCoverage", "null: the chain has no published snapshot"),
    "emissions": ref("V1AccountRewardEmissions"),
    "totals": {**array_of("V1AccountRewardTotal"), "description": "per kind, status and token, over every page of the "
               "filtered answer"},
    "byKind": {**array_of("V1AccountRewardKindTotal"), "description": "per kind and status, in USD"},
}, "The address's rewards on one selected chain, summed over every page.")
EMISSIONS = obj({
    "status": {"enum": ["observed", "not_read", "unavailable", "unsupported"], "description": "observed: the "
               "chain's liquidity positions were read at the snapshot block, so the unclaimed emissions are known; "
               "not_read: they were not (unknown, not none); unavailable: no published snapshot; unsupported: the "
               "chain has no liquidity positions feature"},
    "coverage": nullable_ref("V1AccountRewardLiquidityCoverage", "how far the chain's liquidity events (the emission "
                             "claims) are indexed; null: unsupported"),
}, "A chain's emissions: whether its positions were read, and how far their claims are indexed.")
LIQUIDITY_COVERAGE = obj({
    **indexed_coverage_schema("liquidity events", "emission claims")["properties"],
    "fromDeployment": {"type": "boolean", "description": "indexed from the chain's deployment on"},
}, "How far one chain's liquidity events are indexed.")
KIND_NOTE = obj({"kind": {"enum": list(KINDS)}, "indexed": {"type": "boolean"}, "note": {"type": "string"}},
                "A kind of reward and whether this release indexes it.")
PAGE = obj({
    "address": LOWER_ADDRESS,
    "rows": {**array_of("V1AccountReward"), "description": "by chainId, then epoch newest first, then tokenId "
             "numerically, gauge, kind and token"},
    "chains": {**array_of("V1AccountRewardsChain"), "description": "every selected chain, by chain ID"},
    "kinds": {**array_of("V1AccountRewardKindIndexing"), "description": "every kind of reward, indexed or not"},
}, "A page of one address's veNFT rewards on the selected chains.")

SCHEMAS = {"V1AccountRewardEmissions": EMISSIONS, "V1AccountRewardLiquidityCoverage": LIQUIDITY_COVERAGE,
           "V1AccountRewardToken": TOKEN, "V1AccountRewardValue": VALUE, "V1AccountRewardClaim": CLAIM,
           "V1AccountReward": REWARD, "V1AccountRewardTotal": TOTAL, "V1AccountRewardKindTotal": KIND_TOTAL,
           "V1AccountRewardsChain": CHAIN, "V1AccountRewardKindIndexing": KIND_NOTE, "V1AccountRewards": PAGE}
