"""JSON Schemas of the /v1 auto-managed vault answers (components of /openapi.json)."""
from __future__ import annotations

from ...schema import ISO_TIME, RAW_INTEGER, array_of, obj, ref
from ..common.events_coverage import indexed_coverage_schema
from ..common.schemas import CHAIN_ID, DECIMAL, LOWER_ADDRESS

NULLABLE_DECIMALS = {"type": ["integer", "null"], "minimum": 0}
TOKEN = obj({"address": LOWER_ADDRESS, "symbol": {"type": ["string", "null"]}, "decimals": NULLABLE_DECIMALS},
            "A token as the chain's snapshot names it (symbol and decimals null where it does not).")
AMOUNT = obj({"amountRaw": RAW_INTEGER,
              "amount": {**DECIMAL, "description": "amountRaw / 10^decimals; null where either is unknown"}},
             "An exact token amount: raw integer and decimal; null where the index does not hold it.")
PAIR = obj({"token0": ref("V1VaultAmount"), "token1": ref("V1VaultAmount")}, "An amount of each of the vault's tokens.")
RANGE = obj({
    "tickLower": {"type": "integer"},
    "tickUpper": {"type": "integer"},
    "priceLower": {**DECIMAL, "description": "token1 per token0 at tickLower (decimals applied)"},
    "priceUpper": {**DECIMAL, "description": "token1 per token0 at tickUpper (decimals applied)"},
}, "A concentrated-liquidity range: ticks and the prices at its bounds.")
HEAD = {
    "id": {"type": "string", "description": "the event: transaction hash and log index"},
    "at": {**ISO_TIME, "description": "block time"},
    "blockNumber": {"type": "integer", "minimum": 0},
    "transactionHash": {"type": "string"},
    "logIndex": {"type": "integer", "minimum": 0},
}
COVERAGE = indexed_coverage_schema("vault events", "events")


def page(row: str, what: str) -> dict:
    return obj({
        "chainId": CHAIN_ID,
        "vault": LOWER_ADDRESS,
        "kind": {"enum": ["cl", "v2"], "description": "cl: a concentrated-liquidity range; v2: a pool's LP tokens"},
        "token0": TOKEN,
        "token1": TOKEN,
        "coverage": COVERAGE,
        "rows": {**array_of(row), "description": "newest first, in chain order (block, log index)"},
    }, what)


SCHEMAS = {
    "V1VaultAmount": AMOUNT,
    "V1VaultRangeReset": obj({
        **HEAD,
        "rangeBefore": RANGE,
        "rangeAfter": RANGE,
        "tick": {"type": "integer", "description": "the pool's tick at the reset"},
        "sqrtPriceX96": {**RAW_INTEGER, "description": "the pool's sqrtPriceX96 at the reset; null where the index does "
                         "not hold it"},
        "price": {**DECIMAL, "description": "token1 per token0 at sqrtPriceX96 (decimals applied)"},
        "amountsBefore": {**PAIR, "description": "the vault's total amounts (position + idle) just before the reset"},
        "amountsAfter": {**PAIR, "description": "the vault's total amounts (position + idle) just after it"},
        "feesCollected": {**PAIR, "description": "the trading fees the burnt position collected: zero while it was "
                          "staked in an alive gauge (a staked position earns the gauge's emissions, not fees)"},
        "swap": {"oneOf": [obj({
            "tokenIn": LOWER_ADDRESS,
            "tokenOut": LOWER_ADDRESS,
            "amountIn": ref("V1VaultAmount"),
            "amountOut": ref("V1VaultAmount"),
        }, "The surplus swap that re-balances the vault's tokens for the new range."), {"type": "null"}],
                 "description": "null where the index does not hold it"},
    }, "One range reset (rebalance) of a concentrated-liquidity vault."),
    "V1VaultActivity": obj({
        **HEAD,
        "kind": {"enum": ["deposit", "redemption", "claim"], "description": "deposit and redemption: an account's "
                 "shares minted or burnt for the tokens; claim: the vault's harvest of its gauge rewards"},
        "account": {"type": ["string", "null"], "pattern": LOWER_ADDRESS["pattern"], "description": "the depositor "
                    "or redeemer; null for a claim"},
        "shares": {"oneOf": [ref("V1VaultAmount"), {"type": "null"}], "description": "shares minted or burnt; null "
                   "for a claim"},
        "amounts": {"oneOf": [PAIR, {"type": "null"}], "description": "tokens paid in or out; null for a claim"},
        "amountUsd": {**DECIMAL, "description": "USD value at the event's time (a claim: the gross rewards)"},
        "claim": {"oneOf": [obj({
            "token": TOKEN,
            "gross": ref("V1VaultAmount"),
            "fee": {"$ref": "#/components/schemas/V1VaultAmount",
                    "description": "the strategy's reward fee taken from the claim"},
            "feeUsd": {**DECIMAL, "description": "the fee's USD value at the claim's time"},
            "compounded": {"$ref": "#/components/schemas/V1VaultAmount",
                           "description": "gross minus fee: sold for the vault's tokens and added to its position"},
        }, "What a harvest claimed and kept."), {"type": "null"}], "description": "null for a deposit or redemption"},
    }, "One deposit, redemption or claim of an auto-managed vault."),
    "V1VaultRangeResetPage": page("V1VaultRangeReset", "A page of a vault's range resets."),
    "V1VaultActivityPage": page("V1VaultActivity", "A page of a vault's deposits, redemptions and claims."),
}
