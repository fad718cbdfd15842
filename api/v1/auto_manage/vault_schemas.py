"""JSON Schemas of the /v1 auto-managed vault record (list and detail) and its history."""
from __future__ import annotations

from ...schema import ISO_TIME, RAW_INTEGER, array_of, obj
from ..common.schemas import CHAIN_ID, DECIMAL, LOWER_ADDRESS, NULLABLE_TIME
from .records import APR_STATUSES, MIN_APR_HOURS

NULLABLE_ADDRESS = {"type": ["string", "null"], "pattern": LOWER_ADDRESS["pattern"]}
NULLABLE_BOOL = {"type": ["boolean", "null"]}
NULLABLE_INT = {"type": ["integer", "null"]}
TOKEN = obj({"address": NULLABLE_ADDRESS, "symbol": {"type": ["string", "null"]},
             "decimals": {"type": ["integer", "null"], "minimum": 0}}, "One of the vault's tokens; null where unread.")
AMOUNT = {"$ref": "#/components/schemas/V1VaultAmount"}
USD = {**DECIMAL, "description": "USD; null where a token has no price"}
SOURCES = ("live", "indexed")
REASONS = ("live_read_failed", "rpc_unavailable")

VAULT = obj({
    "chainId": CHAIN_ID,
    "address": LOWER_ADDRESS,
    "key": {"type": "string", "description": "the vault's key in the chain book"},
    "kind": {"enum": ["cl", "v2"], "description": "cl: a concentrated-liquidity range; v2: a pool's LP tokens"},
    "name": {"type": ["string", "null"], "description": "live reads only; null from the index"},
    "symbol": {"type": ["string", "null"], "description": "live reads only; null from the index"},
    "pool": NULLABLE_ADDRESS,
    "gauge": {**NULLABLE_ADDRESS, "description": "the gauge its position is staked in; null: none"},
    "strategy": NULLABLE_ADDRESS,
    "token0": TOKEN,
    "token1": TOKEN,
    "observation": obj({
        "source": {"enum": [*SOURCES, None], "description": "live: read from the chain now (the vault data API's read, "
                   "kept 15 s); indexed: its last indexed 15-minute snapshot, because the live read failed; null: "
                   "neither (not indexed in the week before its chain's snapshot), every figure null"},
        "blockNumber": NULLABLE_INT,
        "at": {**NULLABLE_TIME, "description": "the block's time"},
        "reason": {"enum": [*REASONS, None], "description": "why it is not live: live_read_failed (the vault's own "
                   "reads failed at the live block), rpc_unavailable (the chain's RPC did not answer); null when live"},
    }, "What the figures were read from."),
    "principal": obj({
        "shares": {**AMOUNT, "description": "the vault's share supply"},
        "token0": {**AMOUNT, "description": "token0 held: position + idle (getTotalAmounts)"},
        "token1": {**AMOUNT, "description": "token1 held: position + idle"},
        "tvlUsd": {**USD, "description": "amount0 x price0 + amount1 x price1; null where a price is unknown"},
        "sharePriceUsd": {**USD, "description": "tvlUsd / shares"},
        "prices": obj({"token0Usd": USD, "token1Usd": USD,
                       "at": {**NULLABLE_TIME, "description": "the published snapshot the prices are from (live: the "
                              "chain's latest, as /api/v1 values; indexed: the vault's row's)"}},
                      "The token prices the principal is valued with."),
    }, "What the vault holds."),
    "range": {"oneOf": [obj({
        "tickLower": {"type": "integer"},
        "tickUpper": {"type": "integer"},
        "priceLower": {**DECIMAL, "description": "token1 per token0 at tickLower (decimals applied)"},
        "priceUpper": {**DECIMAL, "description": "token1 per token0 at tickUpper"},
        "tick": {**NULLABLE_INT, "description": "the pool's tick"},
        "sqrtPriceX96": RAW_INTEGER,
        "price": {**DECIMAL, "description": "token1 per token0 at sqrtPriceX96"},
        "inRange": {**NULLABLE_BOOL, "description": "tickLower <= tick < tickUpper"},
    }, "The position's range and the pool's price."), {"type": "null"}],
        "description": "null for a v2 vault, or where unread"},
    "rewardFee": obj({
        "bps": {**NULLABLE_INT, "description": "the strategy's fee on harvested rewards, in basis points"},
        "fraction": {**DECIMAL, "description": "bps / 10000"},
        "recipient": NULLABLE_ADDRESS,
    }, "The strategy's reward fee."),
    "apr": obj({
        "value": {**DECIMAL, "description": "a fraction: netUsd / meanTvlUsd x (365 days / the window's hours); null "
                  "unless status is estimated"},
        "status": {"enum": list(APR_STATUSES), "description": f"estimated; insufficient_history (fewer than "
                   f"{MIN_APR_HOURS} indexed hours); unpriced (an hour's TVL or harvest, or a fee, has no USD value); "
                   "no_liquidity (mean TVL zero)"},
        "from": {**NULLABLE_TIME, "description": "the window's first indexed hour"},
        "toExclusive": {**NULLABLE_TIME, "description": "the end of its last: the last hour indexed by the chain's "
                        "snapshot"},
        "hours": {"type": "integer", "minimum": 0, "description": "indexed hours in the window (at most 168)"},
        "harvestedUsd": {**USD, "description": "gross rewards harvested in the window, USD at harvest time"},
        "rewardFeeUsd": {**USD, "description": "the strategy's fee taken from them"},
        "netUsd": {**USD, "description": "harvestedUsd - rewardFeeUsd: what was compounded"},
        "meanTvlUsd": {**USD, "description": "mean of the window's hourly TVLs"},
    }, "The estimated APR: the net compounded return of the trailing week of indexed hours, annualised without "
       "compounding. It assumes the next week harvests like the last at today's TVL; it ignores impermanent loss and "
       "trading fees (a staked position earns the gauge's emissions, not fees) and the reward token's price change."),
    "status": obj({
        "isCalm": NULLABLE_BOOL,
        "paused": {**NULLABLE_BOOL, "description": "the vault's own pause (live reads only)"},
        "strategyPaused": NULLABLE_BOOL,
        "globalPause": NULLABLE_BOOL,
        "needsRebalance": NULLABLE_BOOL,
        "lastHarvest": NULLABLE_TIME,
        "lastRebalance": NULLABLE_TIME,
    }, "The strategy's flags."),
}, "One auto-managed vault: identity, principal, range, reward fee and estimated APR, from one observation.")

PERIOD = obj({
    "periodStart": ISO_TIME,
    "partial": {"type": "boolean", "description": "the running UTC day, as of its last indexed block"},
    "shares": AMOUNT,
    "token0": AMOUNT,
    "token1": AMOUNT,
    "tvlUsd": USD,
    "sharePriceUsd": USD,
    "harvestedUsd": {**USD, "description": "gross rewards harvested in the period, USD at harvest time"},
    "deposits": NULLABLE_INT,
    "withdrawals": NULLABLE_INT,
    "gap": {"enum": ["before_vault_deployment", "not_indexed", None], "description": "why the period has no state "
            "(null when it has one): before_vault_deployment (inside the indexed range, before the vault's first "
            "period), not_indexed (outside the chain's indexed vault history)"},
}, "The vault's state at the end of one period (amounts null in a gap).")

HISTORY = obj({
    "chainId": CHAIN_ID,
    "vault": LOWER_ADDRESS,
    "interval": {"enum": ["1h", "1d"]},
    "from": ISO_TIME,
    "toExclusive": ISO_TIME,
    "indexedFrom": {**NULLABLE_TIME, "description": "the chain's indexed vault history starts here"},
    "indexedUntil": {**NULLABLE_TIME, "description": "and reaches here (exclusive)"},
    "periods": {**array_of("V1AutoVaultPeriod"), "description": "oldest first, every period of the range"},
}, "A vault's principal per hour or UTC day.")

SCHEMAS = {"V1AutoVault": VAULT, "V1AutoVaultPeriod": PERIOD, "V1AutoVaultHistory": HISTORY}
