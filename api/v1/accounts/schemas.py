"""JSON Schemas of the /v1 account answers (components of /openapi.json)."""
from __future__ import annotations

from ...schema import ISO_TIME, RAW_INTEGER, array_of, nullable_ref, obj, ref
from ..common.events_coverage import indexed_coverage_schema
from ..common.schemas import CHAIN_ID, DECIMAL, LOWER_ADDRESS, NULLABLE_TIME
from ..governance.schemas import ALLOCATION_COVERAGE
from .activity import KINDS, LIQUIDITY_EVENTS
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
BLOCK_AT = obj({"blockNumber": COUNT, "at": ISO_TIME}, "The snapshot block the lock was read at, and its time.")
ACTION = obj({
    "kind": {"enum": ["vote", "poke", "reset"], "description": "the veNFT's last Voter transaction before the snapshot"},
    "at": ISO_TIME,
    "blockNumber": COUNT,
    "transactionHash": {"type": "string"},
}, "The veNFT's last Voter transaction (vote, poke or reset) before the chain's snapshot.")
TARGET_WEIGHT = {
    "target": {**LOWER_ADDRESS, "description": "what the weight is on: the pool, or a system gauge's target"},
    "gauge": LOWER_ADDRESS,
    "pool": {"type": ["string", "null"], "pattern": LOWER_ADDRESS["pattern"], "description": "null: a system gauge"},
}
ALLOCATED = obj({
    **TARGET_WEIGHT,
    "weight": qty("the weight the veNFT has on the target: its voting power when it last voted or poked, times the "
                  "target's share; what the Voter counts until the veNFT acts again"),
    "share": {**DECIMAL, "description": "weight / usedWeight, truncated at 18 places"},
}, "The veNFT's weight on one target, in effect at the chain's snapshot.")
LOGGED = obj({**TARGET_WEIGHT, "weight": qty("the log's weight (voting power, 1e18-scaled)")},
             "One Voted or Abstained log of a Voter transaction.")
VOTING_POSITION = obj({
    "chainId": CHAIN_ID,
    "tokenId": {"type": "string", "pattern": "^[0-9]+$", "description": "the veNFT"},
    "status": {"enum": ["permanent", "decaying", "expired"], "description": "permanent: the lock never decays; "
               "decaying: its power falls linearly to its unlock time; expired: unlocked (power 0), not withdrawn"},
    "locked": qty("the core token locked"),
    "unlockAt": {**NULLABLE_TIME, "description": "null: a permanent lock"},
    "votingPower": qty("the voting power at the snapshot block: locked if permanent, else locked x (unlockAt - block "
                       "time) / (4 x 365 days), integer division, 0 once unlocked"),
    "observation": ref("V1AccountBlock"),
    "usedWeight": qty("the veNFT's weight on all its targets (the Voter's usedWeights); 0: no allocation"),
    "allocation": {**array_of("V1AccountAllocation"), "description": "by target ascending; empty: none in effect"},
    "lastAction": nullable_ref("V1AccountVoterAction", "null: no indexed Voter transaction of the veNFT"),
    "lastVotedAt": {**NULLABLE_TIME, "description": "its last vote (pokes and resets do not change it, as the "
                    "Voter's lastVoted); null: none indexed"},
    "lastVotedEpoch": {**NULLABLE_TIME, "description": "the start of the epoch of lastVotedAt"},
}, "One veNFT the address owns at the chain's published snapshot.")
VOTING_CHAIN = obj({
    "chainId": CHAIN_ID,
    "status": {"enum": ["observed", "not_read", "unavailable"], "description": "observed: every lock was read at the "
               "snapshot block; not_read: the chain's locks were not read there (per-lock state is kept for the "
               "recent snapshots alone): the address's veNFTs are unknown; unavailable: no published snapshot"},
    "snapshotAt": NULLABLE_TIME,
    "blockNumber": {"type": ["integer", "null"], "minimum": 0},
    "positions": {"type": ["integer", "null"], "minimum": 0, "description": "the veNFTs the address owns there, over "
                  "every page; null unless observed"},
    "locked": qty("their locked core token; null unless observed"),
    "votingPower": qty("their voting power at the snapshot block (a chain's own; never added across chains); null "
                       "unless observed"),
    "complete": {"type": "boolean", "description": "observed, and the chain's governance events are indexed from its "
                 "deployment and not behind, so every allocation is whole"},
    "coverage": nullable_ref("V1AccountGovernanceCoverage", "null: the chain has no published snapshot"),
}, "The address's veNFTs on one selected chain, summed over every page.")
VOTING_POSITIONS = obj({
    "address": LOWER_ADDRESS,
    "rows": {**array_of("V1AccountVotingPosition"), "description": "by chainId, then tokenId numerically"},
    "chains": {**array_of("V1AccountVotingChain"), "description": "every selected chain, by chain ID"},
}, "A page of the veNFTs one address owns at the selected chains' published snapshots.")

AMOUNT_PROPS = {"raw": {**RAW_INTEGER, "type": ["string", "null"]},
                "value": {**DECIMAL, "type": ["string", "null"], "description": "raw / 10^decimals; null when the "
                          "decimals are not known"}}
AMOUNT = obj(AMOUNT_PROPS, "An exact token amount.")
TOKEN_AMOUNT = obj({"token": {"type": ["string", "null"], "pattern": LOWER_ADDRESS["pattern"],
                              "description": "null: the token is not known (a vault's by its snapshot)"},
                    **AMOUNT_PROPS}, "An exact amount of one token (raw null: the record moves none of it).")
LOGGED_TARGETS = array_of("V1AccountLoggedWeight")
ACTIVITY = obj({
    "chainId": CHAIN_ID,
    "kind": {"enum": list(KINDS),
             "description": "vote, poke, reset: a Voter transaction of a veNFT the address owned then (`vote`); "
             "lock*, veTransferIn, veTransferOut, veMerge, veSplit: a VotingEscrow log of one of its veNFTs (`lock`; "
             "a split is a record for the source, burnt, and one for each veNFT minted from it); "
             "claim: a reward paid to it (`claim`); rebaseClaim: a rebase claimed for one of its veNFTs (`rebase`; "
             "claimed into a live lock, the same transaction's lockDepositFor adds it to the lock); "
             "vaultDeposit, vaultRedemption (`vault`); xcore*: a move of its escrow-share token (`xcore`); "
             "lpAdd, lpRemove, lpStake, lpUnstake, lpCollect, lpClaim: one of its liquidity positions (`liquidity`)"},
    "id": {"type": "string", "description": "the record, unique on the chain: transaction hash and log index"},
    "at": {**ISO_TIME, "description": "the block time"},
    "blockNumber": COUNT,
    "transactionHash": {"type": "string"},
    "logIndex": {**COUNT, "description": "the record's first log in the transaction"},
    "vote": {"oneOf": [obj({
        "tokenId": {"type": "string", "pattern": "^[0-9]+$"},
        "voted": {**LOGGED_TARGETS, "description": "the Voted logs: weight put on each target"},
        "abstained": {**LOGGED_TARGETS, "description": "the Abstained logs: weight taken off each target"},
    }), {"type": "null"}], "description": "vote, poke and reset only"},
    "lock": {"oneOf": [obj({
        "tokenId": {"type": "string", "pattern": "^[0-9]+$"},
        "from": {**LOWER_ADDRESS, "description": "the owner before the log (the zero address before a create, "
                 "and for a veNFT a split mints)"},
        "to": {**LOWER_ADDRESS, "description": "the owner after it (the zero address after a withdraw, and for a "
               "merge's or a split's source, burnt)"},
        "amount": qty("what the log locked, added, moved or withdrew (0 for an extension)"),
        "unlockAt": {**NULLABLE_TIME, "description": "the lock's unlock time after the log; null: permanent or gone"},
        "permanent": {"type": "boolean", "description": "the lock is permanent after the log"},
        "mergedInto": {"type": ["string", "null"], "pattern": "^[0-9]+$", "description": "veMerge: the veNFT it "
                       "was merged into"},
        "splitFrom": {"type": ["string", "null"], "pattern": "^[0-9]+$", "description": "veSplit of a minted veNFT: "
                      "the veNFT it was split from"},
    }), {"type": "null"}], "description": "lock*, veTransferIn, veTransferOut, veMerge and veSplit only"},
    "claim": {"oneOf": [obj({
        "tokenId": {"type": "string", "pattern": "^[0-9]+$", "description": "the veNFT whose reward it is"},
        "rewardKind": {"enum": ["bribe", "fee"], "description": "a bribe reward or the trading-fee reward"},
        "epochStart": {**ISO_TIME, "description": "the epoch the reward was earned in"},
        "gauge": LOWER_ADDRESS,
        "pool": {"type": ["string", "null"], "pattern": LOWER_ADDRESS["pattern"]},
        "token": obj({"address": LOWER_ADDRESS, "symbol": {"type": "string"}, "decimals": COUNT}),
        "amount": ref("V1AccountAmount"),
        "amountUsd": {"type": ["number", "null"], "description": "at the claim's time; null: no price then"},
    }), {"type": "null"}], "description": "claim only; rewards and their kinds are never added up here"},
    "rebase": {"oneOf": [obj({
        "tokenId": {"type": "string", "pattern": "^[0-9]+$", "description": "the veNFT whose rebase it is"},
        "fromEpoch": {**ISO_TIME, "description": "the first epoch the claim took"},
        "toEpochExclusive": {**ISO_TIME, "description": "the epoch after the last one it took"},
        "toLock": {"type": "boolean", "description": "deposited into the veNFT's lock (a live lock); false: paid to "
                   "the owner (an expired one)"},
        "token": obj({"address": LOWER_ADDRESS, "symbol": {"type": "string"}, "decimals": COUNT}),
        "amount": ref("V1AccountAmount"),
        "amountUsd": {"type": ["number", "null"], "description": "at the claim's time; null: no price then"},
    }), {"type": "null"}], "description": "rebaseClaim only"},
    "vault": {"oneOf": [obj({
        "vault": LOWER_ADDRESS,
        "shares": ref("V1AccountAmount"),
        "amount0": ref("V1AccountTokenAmount"),
        "amount1": ref("V1AccountTokenAmount"),
        "amountUsd": {"type": ["number", "null"], "description": "at the event's time; null: no price then"},
    }), {"type": "null"}], "description": "vaultDeposit and vaultRedemption only"},
    "xcore": {"oneOf": [obj({
        "shares": qty("xCORE minted, burnt or moved"),
        "amount": qty("core token deposited or paid out; null for bridge moves"),
        "penalty": qty("exits only: the core token kept back"),
        "guid": {"type": ["string", "null"], "description": "bridge moves: the transfer's id on both chains"},
        "srcChainId": {"type": ["integer", "null"]},
        "dstChainId": {"type": ["integer", "null"]},
    }), {"type": "null"}], "description": "xcore* only"},
    "liquidity": {"oneOf": [obj({
        "event": {"enum": list(LIQUIDITY_EVENTS), "description": "the chain's event: a v2 add or removal, a CL mint "
                  "or burn, a stake or unstake in the gauge, a fee collect, an emission claim"},
        "positionKind": {"enum": ["v2", "cl"]},
        "positionId": {"type": "string", "description": "as /liquidity-positions names it: 'cl:<tokenId>' or "
                       "'v2:<pool>'"},
        "tokenId": {"type": ["string", "null"], "pattern": "^[0-9]+$"},
        "pool": LOWER_ADDRESS,
        "lp": ref("V1AccountAmount"),
        "liquidity": ref("V1AccountAmount"),
        "tickLower": {"type": ["integer", "null"]},
        "tickUpper": {"type": ["integer", "null"]},
        "amount0": ref("V1AccountTokenAmount"),
        "amount1": ref("V1AccountTokenAmount"),
        "fees0": ref("V1AccountTokenAmount"),
        "fees1": ref("V1AccountTokenAmount"),
        "emissions": ref("V1AccountTokenAmount"),
        "staked": {"type": ["boolean", "null"], "description": "clMint: staked in the gauge at once"},
    }, "lp: v2 LP tokens added, removed, staked or unstaked; liquidity: CL liquidity minted or burnt; amount0/1: the "
       "tokens added or removed; fees0/1: trading fees collected (a removal, stake, collect or burn collects them); "
       "emissions: gauge emissions claimed (an unstake or a claim); raw null where the event moves none"),
        {"type": "null"}], "description": "lp* only"},
}, "One record of an address's activity.")
ACTIVITY_COVERAGE = obj({
    "chainId": CHAIN_ID,
    "snapshotAt": ISO_TIME,
    **{domain: {"oneOf": [indexed_coverage_schema(f"{what} events", "records"), {"type": "null"}],
                "description": f"how far the chain's {what} events are indexed; null: the chain has none, or no "
                "kind of them was asked for"}
       for domain, what in (("governance", "governance"), ("vaults", "vault"), ("xcore", "xCORE"),
                            ("liquidity", "liquidity"))},
}, "How far one chain's events of each domain are indexed.")
ACTIVITY_PAGE = obj({
    "address": LOWER_ADDRESS,
    "rows": {**array_of("V1AccountActivity"), "description": "newest first: time descending, then chainId, then block "
             "and log index descending, then kind and id"},
    "coverage": {**array_of("V1AccountActivityCoverage"), "description": "per selected chain with a snapshot"},
    "filters": obj({"address": LOWER_ADDRESS, "chainIds": {"type": "array", "items": CHAIN_ID},
                    "kinds": {"type": "array", "items": {"type": "string"}}}, "What the page (and its cursor) selects."),
}, "A page of one address's activity on the selected chains.")

SCHEMAS = {"V1AccountXcoreCoverage": COVERAGE, "V1AccountXcoreMove": MOVE, "V1AccountXcoreChain": CHAIN,
           "V1AccountXcoreRate": RATE, "V1AccountXcore": ACCOUNT_XCORE,
           "V1AccountGovernanceCoverage": ALLOCATION_COVERAGE, "V1AccountBlock": BLOCK_AT,
           "V1AccountVoterAction": ACTION, "V1AccountAllocation": ALLOCATED,
           "V1AccountVotingPosition": VOTING_POSITION, "V1AccountVotingChain": VOTING_CHAIN,
           "V1AccountVotingPositions": VOTING_POSITIONS, "V1AccountAmount": AMOUNT, "V1AccountActivity": ACTIVITY,
           "V1AccountTokenAmount": TOKEN_AMOUNT, "V1AccountLoggedWeight": LOGGED,
           "V1AccountActivityCoverage": ACTIVITY_COVERAGE, "V1AccountActivityPage": ACTIVITY_PAGE}
