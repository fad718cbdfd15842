"""JSON Schemas of /v1/accounts/{address}/liquidity-positions (components of /openapi.json)."""
from __future__ import annotations

from ...schema import ISO_TIME, array_of, nullable_ref, obj, ref
from ..common.events_coverage import indexed_coverage_schema
from ..common.schemas import CHAIN_ID, DECIMAL, LOWER_ADDRESS, NULLABLE_TIME
from .liquidity import KINDS, PARTS

COUNT = {"type": "integer", "minimum": 0}
NULLABLE_USD = {**DECIMAL, "type": ["string", "null"]}
NULLABLE_ADDRESS = {"type": ["string", "null"], "pattern": LOWER_ADDRESS["pattern"]}
VALUE = {
    "usd": {**NULLABLE_USD, "description": "in USD at the tokens' current prices (`prices`), truncated at 36 places; "
            "null when a token it holds has no safe price (the amounts stay)"},
    "usdComplete": {"type": "boolean", "description": "every token it holds has a price, so usd is known"},
}
TOKEN = obj({"address": NULLABLE_ADDRESS, "symbol": {"type": ["string", "null"]},
             "decimals": {"type": ["integer", "null"], "minimum": 0, "description": "null: not known by the snapshot"}},
            "A token as the chain's snapshot lists it (address null: the snapshot does not list the pool).")
LEG = obj({
    "where": {"enum": ["wallet", "gauge", "vault"], "description": "wallet: held by the address (v2 LP tokens, or an "
              "unstaked CL NFT); gauge: staked in the pool's gauge (earning emissions instead of trading fees); vault: "
              "shares of an auto-managed vault (its strategy compounds the fees and emissions into them)"},
    "liquidity": ref("V1AccountAmount"),
    "amount0": ref("V1AccountAmount"),
    "amount1": ref("V1AccountAmount"),
    **VALUE,
}, "One part of a position: its liquidity (v2: LP tokens, 18 decimals; CL: the position's liquidity, a raw integer "
   "that is not a token quantity; vault: shares, in the vault's decimals) and the token amounts it is worth at the "
   "snapshot block (a vault's shares: their part of its totals, rounded down; raw null where the chain's vault events "
   "are not indexed from its deployment on, so the shares are not known).")
RANGE = obj({
    "tickLower": {"type": "integer"},
    "tickUpper": {"type": "integer"},
    "priceLower": {"type": ["string", "null"], "description": "token1 per token0 at tickLower (1.0001^tick in whole "
                   "tokens); null without both decimals"},
    "priceUpper": {"type": ["string", "null"], "description": "token1 per token0 at tickUpper"},
    "currentTick": {"type": ["integer", "null"], "description": "the pool's tick at the snapshot; null when the "
                    "snapshot does not list the pool"},
    "inRange": {"type": ["boolean", "null"], "description": "tickLower <= currentTick < tickUpper: the position earns "
                "(fees unstaked, emissions staked) only then"},
}, "A concentrated-liquidity position's range.")
POOL = obj({
    "address": LOWER_ADDRESS,
    "type": {"type": ["string", "null"], "enum": ["v2-volatile", "v2-stable", "cl", None]},
    "token0": ref("V1AccountLiquidityToken"),
    "token1": ref("V1AccountLiquidityToken"),
    "gauge": {**NULLABLE_ADDRESS, "description": "the pool's gauge at the snapshot; null: none"},
}, "The position's pool at the chain's snapshot.")
FEES = obj({"amount0": ref("V1AccountAmount"), "amount1": ref("V1AccountAmount"), **VALUE},
           "Trading fees the position earned and were not collected by the snapshot block (a wallet's LP and "
           "unstaked NFTs earn them; staked liquidity does not).")
EMISSIONS = obj({"token": ref("V1AccountLiquidityToken"), "amount": ref("V1AccountAmount"), **VALUE},
                "Gauge emissions (the chain's core token) the staked part earned and were not claimed by the "
                "snapshot block.")
OBSERVATION = obj({"blockNumber": COUNT, "at": ISO_TIME},
                  "The block the chain's LpSugar was read at: every amount of the position is as of it.")
POSITION = obj({
    "chainId": CHAIN_ID,
    "positionId": {"type": "string", "description": "'cl:<tokenId>' for a CL NFT, 'v2:<pool>' for the address's LP "
                   "of a v2 pool, 'vault:<vault>' for its shares of an auto-managed vault; unique per chain and "
                   "address, the page order"},
    "kind": {"enum": list(KINDS)},
    "tokenId": {"type": ["string", "null"], "pattern": "^[0-9]+$", "description": "the NFT (CL); null otherwise"},
    "vault": {**NULLABLE_ADDRESS, "description": "the auto-managed vault (kind vault); null otherwise"},
    "pool": ref("V1AccountLiquidityPool"),
    "range": nullable_ref("V1AccountLiquidityRange", "a CL position's, or a CL vault's current range"),
    "staked": {"type": "boolean", "description": "some of it is staked in the gauge"},
    "legs": {**array_of("V1AccountLiquidityLeg"), "description": "v2: the wallet's LP and the gauge's, each when "
             "nonzero, kept apart; CL: the one NFT, in the wallet or the gauge"},
    "value": ref("V1AccountLiquidityValue"),
    "uncollectedFees": ref("V1AccountLiquidityFees"),
    "emissions": ref("V1AccountLiquidityEmissions"),
    "observation": ref("V1AccountLiquidityObservation"),
}, "One open liquidity position of the address at its chain's published snapshot.")
PART_TOKEN = obj({"token": ref("V1AccountLiquidityToken"), "amount": ref("V1AccountAmount"),
                  "usd": {**NULLABLE_USD, "description": "null: no safe price"}},
                 "One token's sum in one part.")
PART = obj({
    "part": {"enum": list(PARTS), "description": "unstaked: in the wallet (v2 LP) or unstaked NFTs; staked: in gauges; "
             "vaults: what its auto-managed vault shares hold; fees: uncollected trading fees; emissions: unclaimed "
             "gauge emissions"},
    "tokens": array_of("V1AccountLiquidityPartToken"),
    "usd": {**NULLABLE_USD, "description": "the USD of the part's tokens that have a price (never across parts); null "
            "when none has"},
    "usdComplete": {"type": "boolean", "description": "every token of the part has a price, so usd is the whole"},
}, "One part of the address's positions on one chain, over every page.")
CHAIN = obj({
    "chainId": CHAIN_ID,
    "status": {"enum": ["observed", "not_read", "unavailable"], "description": "observed: the chain's positions were "
               "read at the snapshot block (an address with none there has none); not_read: they were not (unknown, "
               "not none); unavailable: no published snapshot"},
    "snapshotAt": NULLABLE_TIME,
    "blockNumber": {"type": ["integer", "null"], "minimum": 0},
    "positions": {"type": ["integer", "null"], "minimum": 0, "description": "the address's open positions (every "
                  "page of the filtered answer); null unless observed"},
    "totals": {**array_of("V1AccountLiquidityPart"), "description": "per part: " + ", ".join(PARTS)},
    "complete": {"type": "boolean", "description": "observed, and (on a chain with vaults) its vault events indexed "
                 "from its deployment and not behind"},
    "vaults": nullable_ref("V1AccountVaultCoverage", "null: the chain has no vaults"),
}, "The address's liquidity on one selected chain, summed over every page.")
PRICE = obj({
    "chainId": CHAIN_ID,
    "token": ref("V1AccountLiquidityToken"),
    "price": nullable_ref("V1PriceAtBoundary", "the accepted observation at the chain's snapshot and its age"),
    "reason": {"type": ["string", "null"], "description": "why price is null: before_first_market_activity, "
               "no_price_observation, price_observation_too_old, token_not_found (not in the snapshot, or blocked)"},
}, "The current price of a token this answer values (at its chain's published snapshot, as /v1/prices gives it).")
PAGE = obj({
    "address": LOWER_ADDRESS,
    "rows": {**array_of("V1AccountLiquidityPosition"), "description": "by chainId, then positionId"},
    "chains": {**array_of("V1AccountLiquidityChain"), "description": "every selected chain, by chain ID"},
    "prices": {**array_of("V1AccountLiquidityPrice"), "description": "every token price this page and the totals "
               "use, by chain and token"},
}, "A page of one address's liquidity positions on the selected chains.")

VAULT_COVERAGE = obj({
    **indexed_coverage_schema("vault events", "vault moves")["properties"],
    "fromDeployment": {"type": "boolean", "description": "the chain's vault events are indexed from its deployment "
                       "on, so the sum of an address's moves is its balance of shares"},
}, "How far one chain's vault events are indexed, and whether from its deployment.")

SCHEMAS = {"V1AccountVaultCoverage": VAULT_COVERAGE, "V1AccountLiquidityValue": obj(VALUE, "The legs' value together."), "V1AccountLiquidityToken": TOKEN, "V1AccountLiquidityLeg": LEG, "V1AccountLiquidityRange": RANGE,
           "V1AccountLiquidityPool": POOL, "V1AccountLiquidityFees": FEES, "V1AccountLiquidityEmissions": EMISSIONS,
           "V1AccountLiquidityObservation": OBSERVATION, "V1AccountLiquidityPosition": POSITION,
           "V1AccountLiquidityPartToken": PART_TOKEN, "V1AccountLiquidityPart": PART, "V1AccountLiquidityChain": CHAIN,
           "V1AccountLiquidityPrice": PRICE, "V1AccountLiquidityPositions": PAGE}
