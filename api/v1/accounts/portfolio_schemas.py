"""JSON Schemas of /v1/accounts/{address}/portfolio (components of /openapi.json)."""
from __future__ import annotations

from ...schema import array_of, obj
from ..common.schemas import CHAIN_ID, DECIMAL, LOWER_ADDRESS, NULLABLE_TIME
from .portfolio import HOLDINGS, KINDS

NULLABLE_USD = {**DECIMAL, "type": ["string", "null"]}
KIND = {"enum": list(KINDS), "description": "liquidity: v2 LP in the wallet and staked, CL NFTs (/liquidity-positions' "
        "unstaked and staked parts); vaults: what its auto-managed vault shares hold (its vaults part); liquidityFees: their uncollected trading fees; emissions: their unclaimed gauge "
        "emissions; locked: core token locked in the address's veNFTs (/voting-positions); xcore: its xCORE's worth "
        "in core token at the canonical rate (/xcore); rewards: its veNFTs' claimable bribe, trading-fee and rebase rewards "
        "(/rewards)"}
PART = obj({
    "kind": KIND,
    "status": {"enum": ["observed", "not_read", "unavailable", "unsupported"], "description": "observed; not_read: "
               "the chain's per-item state was not read at its snapshot (unknown, not none); unavailable: no published "
               "snapshot; unsupported: the chain does not have this kind"},
    "usd": {**NULLABLE_USD, "description": "in USD at the tokens' current prices at the chain's snapshot (`prices`), "
            "truncated at 36 places; the priced part when usdComplete is false; null unless observed or when "
            "nothing of it is priced"},
    "usdComplete": {"type": "boolean", "description": "usd is the whole kind: observed, every token priced, and the "
                    "state behind it whole (e.g. rewards need the chain's governance events indexed from deployment); "
                    "true for an unsupported kind (nothing is missing)"},
}, "One kind of the address's value on one chain.")
CHAIN = obj({
    "chainId": CHAIN_ID,
    "status": {"enum": ["observed", "unavailable"], "description": "unavailable: the chain has no published snapshot"},
    "snapshotAt": NULLABLE_TIME,
    "kinds": {**array_of("V1AccountPortfolioPart"), "description": "every kind, in the order of `totals`"},
}, "The address's value on one selected chain, by kind.")
TOTAL = obj({
    "kind": KIND,
    "usd": {**NULLABLE_USD, "description": "the sum over the chains that have the kind of their usd; null when none "
            "is known"},
    "usdComplete": {"type": "boolean", "description": "every chain's part is complete"},
    "chainIds": {"type": "array", "items": CHAIN_ID, "description": "the chains whose usd the sum holds"},
}, "One kind across the selected chains.")
HOLDING = obj({
    "usd": {**NULLABLE_USD, "description": "the sum of the kinds in `kinds` across the chains (what the address holds, "
            "not what it has earned); null when none is known"},
    "usdComplete": {"type": "boolean", "description": "every kind summed is complete"},
    "kinds": {"type": "array", "items": {"enum": list(HOLDINGS)}, "description": "the kinds it sums"},
}, "What the address holds across the selected chains, in USD.")
PAGE = obj({
    "address": LOWER_ADDRESS,
    "chains": {**array_of("V1AccountPortfolioChain"), "description": "every selected chain, by chain ID"},
    "totals": {**array_of("V1AccountPortfolioTotal"), "description": "per kind, across the chains; kinds are never "
               "added together here"},
    "holdings": {"$ref": "#/components/schemas/V1AccountPortfolioHoldings"},
    "prices": {**array_of("V1AccountLiquidityPrice"), "description": "every token price the values use, by chain and "
               "token"},
}, "One address's value on the selected chains, by kind, each chain at its published snapshot.")

SCHEMAS = {"V1AccountPortfolioPart": PART, "V1AccountPortfolioChain": CHAIN, "V1AccountPortfolioTotal": TOTAL,
           "V1AccountPortfolioHoldings": HOLDING, "V1AccountPortfolio": PAGE}
