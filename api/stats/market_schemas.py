"""JSON Schemas of the market answers of /api/stats: pools, tokens, the core-token factsheet,
live dynamic fees and competitors (OpenAPI components.schemas; conventions in
protocol_schemas.py). `AprBreakdown` is the gauges' (governance_schemas.py)."""
from __future__ import annotations

from ..schema import ADDRESS, DATE, ISO_TIME, RAW_INTEGER, array_of, nullable, nullable_ref, obj, ref
from .flow_windows import flow_windows_schema

TOKEN_REF = obj(
    {"address": ADDRESS, "symbol": {"type": "string"}, "decimals": nullable("integer", "null when unknown")},
    "A pool token.",
)

POOL_SNAPSHOT = obj(
    {
        "address": ADDRESS,
        "type": {"enum": ["v2-volatile", "v2-stable", "cl"], "description": "pool kind"},
        "version": {"enum": ["v2", "v3"], "description": "the `type` filter's grouping: v2 (volatile, stable) or v3 (cl)"},
        "token0": ref("PoolToken"),
        "token1": ref("PoolToken"),
        "feePips": {"type": "integer", "minimum": 0, "description": "fee charged at the snapshot block, pips (1e6 = 100 %)"},
        "isDynamicFee": {"type": "boolean"},
        "isCustomFee": {"type": "boolean"},
        "tickSpacing": nullable("integer", "CL pools only"),
        "tvlUsd": nullable("number"),
        "volume24hUsd": nullable("number", "sum of the pool's hourly buckets over flowWindow"),
        "fees24hUsd": nullable("number"),
        "feeApr": nullable("number", "fees24hUsd x 365 / tvlUsd; null when either is unknown or TVL is 0"),
        "flowWindow": nullable_ref("FlowWindow", "the 24h window volume24hUsd and fees24hUsd summed"),
        "gauge": {
            "oneOf": [obj({"address": ADDRESS, "isAlive": nullable("boolean")}), {"type": "null"}],
            "description": "the pool's gauge, null when it has none",
        },
        "incentivized": {"type": "boolean", "description": "the gauge is alive and (when known) receives emissions this epoch"},
        "gaugeApr": nullable("number", "total APR of the gauge (aprBreakdown.total)"),
        "aprBreakdown": nullable_ref("AprBreakdown", "null until the gauge snapshot has a row for the pool"),
    },
    "One pool at one snapshot.",
)

POOL_HISTORY_POINT = obj(
    {
        "snapshotAt": ISO_TIME,
        "tvlUsd": nullable("number"),
        "volume24hUsd": nullable("number"),
        "fees24hUsd": nullable("number"),
        "feeApr": nullable("number"),
        "feePips": {"type": "integer"},
    },
    "The pool at one successful snapshot.",
)

GAUGE_STATE = obj(
    {
        "snapshotAt": ISO_TIME,
        "address": ADDRESS,
        "isAlive": {"type": "boolean"},
        "epochStart": {"type": "integer", "description": "Unix seconds"},
        "votes": nullable("number", "pool weight this epoch, raw / 1e18"),
        "votesRaw": RAW_INTEGER,
        "foundationVoteShare": nullable("number"),
        "emissionsEpoch": nullable("number", "core token directed to the gauge this epoch, raw / 1e18"),
        "emissionsEpochRaw": RAW_INTEGER,
        "bribesEpochUsd": nullable("number"),
        "feesEpochUsd": nullable("number"),
        "aprBreakdown": ref("AprBreakdown"),
    },
    "The pool's gauge at the served snapshot (gauge_snap15m).",
)

GAUGE_HISTORY_POINT = obj({"snapshotAt": ISO_TIME, "aprBreakdown": ref("AprBreakdown")}, "The gauge's APRs at one snapshot.")

POOL_DETAIL = obj(
    {
        "current": ref("PoolSnapshot"),
        "history": {**array_of("PoolHistoryPoint"), "maxItems": 672, "description": "latest 672 successful snapshots, oldest first"},
        "gauge": nullable_ref("PoolGauge", "null when no gauge snapshot row exists for the pool"),
        "gaugeHistory": {**array_of("PoolGaugeHistoryPoint"), "maxItems": 672},
    },
    "A pool with its recent history.",
)

POOL_DAILY_ROW = obj(
    {
        "date": DATE,
        "volumeUsd": nullable("number", "null when the day has no rollup row"),
        "feesUsd": nullable("number"),
        "tvlUsdClose": nullable("number", "TVL at the end of the day's last stored hour"),
        "hoursCovered": nullable("integer"),
        "partial": {"type": "boolean", "description": "true only for the UTC day of the snapshot (in progress)"},
    },
    "One pool's totals of one UTC day.",
)

TOKEN_SNAPSHOT = obj(
    {
        "address": ADDRESS,
        "symbol": {"type": "string"},
        "name": {"type": "string"},
        "decimals": {"type": "integer"},
        "priceUsd": nullable("number"),
        "derivedEth": nullable("number", "price in the wrapped native token (subgraph ratio)"),
        "tvlUsd": nullable("number"),
    },
    "One token at one snapshot.",
)

TOKEN_PRICE_POINT = obj(
    {"snapshotAt": ISO_TIME, "priceUsd": nullable("number"), "derivedEth": nullable("number")},
    "A token's price at one successful snapshot.",
)

TOKEN_DETAIL = obj(
    {"current": ref("TokenSnapshot"), "history": {**array_of("TokenPricePoint"), "maxItems": 672}},
    "A token with its latest 672 price points, oldest first.",
)

CORE_FACTSHEET = obj(
    {
        "snapshotAt": ISO_TIME,
        "blockNumber": {"type": "integer", "description": "every figure below was read at this block"},
        "token": obj({"address": ADDRESS, "symbol": {"type": "string"}, "decimals": {"type": "integer"}}),
        "price": obj(
            {
                "usd": nullable("number"),
                "derivedEth": nullable("number"),
                "source": {"type": "string", "description": "where the canonical price comes from (subgraph:Token.priceUSD)"},
                "referencePool": {**ADDRESS, "type": ["string", "null"], "description": "deepest pool containing the token at the block"},
                "blockNumber": {"type": "integer"},
            },
            "Canonical price and its provenance.",
        ),
        "supply": obj(
            {
                "totalSupply": nullable("number", "raw / 10^decimals"),
                "totalSupplyRaw": RAW_INTEGER,
                "source": {"const": "erc20:totalSupply() via Multicall3"},
                "blockNumber": {"type": "integer"},
            }
        ),
        "marketCapUsd": nullable("number", "price.usd x supply.totalSupply, both at blockNumber"),
        "liquidity": obj(
            {
                "tvlUsd": nullable("number", "TVL summed over every pool containing the token; null if one is unknown"),
                "poolCount": {"type": "integer"},
            }
        ),
        "activity": obj(
            {
                "volume24hUsd": nullable("number", "pools containing the token, rolling 24h of hourly buckets"),
                "fees24hUsd": nullable("number"),
                "utcDay": obj(
                    {
                        "date": DATE,
                        "volumeUsd": nullable("number"),
                        "feesUsd": nullable("number"),
                        "hoursCovered": {"type": "integer"},
                        "partial": {"const": True},
                    },
                    "The snapshot's UTC day so far: buckets from 00:00 to the flow window's end.",
                ),
                "volume7dUsd": nullable("number"),
                "fees7dUsd": nullable("number"),
                "volume30dUsd": nullable("number"),
                "fees30dUsd": nullable("number"),
                "lifetimeVolumeUsd": nullable("number", "cumulative subgraph volume of those pools at the block"),
                "lifetimeFeesUsd": nullable("number"),
                "flowWindows": flow_windows_schema("which hourly buckets each rolling total summed"),
            }
        ),
        "ratios": obj(
            {
                "marketCapToTvl": nullable("number", "marketCapUsd / protocol TVL (all pools)"),
                "marketCapToLiquidity": nullable("number", "marketCapUsd / liquidity.tvlUsd"),
                "feesAnnualizedToMarketCap": nullable("number", "protocol 24h fees x 365 / marketCapUsd"),
                "volume24hToLiquidity": nullable("number", "activity.volume24hUsd / liquidity.tvlUsd (turnover)"),
            },
            "Server-computed valuation ratios; null when an input is unknown or a divisor is 0.",
        ),
        "priceHistory": {
            "type": "array",
            "maxItems": 672,
            "items": obj({"snapshotAt": ISO_TIME, "priceUsd": nullable("number"), "blockNumber": {"type": "integer"}}),
            "description": "every successful snapshot of the last 7 days, oldest first",
        },
        "daily": {
            "type": "array",
            "items": obj({"date": DATE, "volumeUsd": nullable("number"), "feesUsd": nullable("number"), "partial": {"type": "boolean"}}),
            "description": "90 UTC days of volume and fees of the pools containing the token, oldest first",
        },
    },
    "Factsheet of the core token from one snapshot.",
)

LIVE_POOL = obj(
    {
        "address": ADDRESS,
        "feePips": nullable("integer", "fee() of the pool now"),
        "moduleFeePips": nullable("integer", "getFee(pool) of the dynamic fee module"),
        "isDynamicFee": {"type": "boolean"},
        "isCustomFee": {"type": "boolean"},
        "dynamicFeeConfig": {
            "oneOf": [
                obj({"baseFeePips": {"type": "integer"}, "feeCapPips": {"type": "integer"}, "scalingFactor": {"type": "integer"}}),
                {"type": "null"},
            ],
            "description": "feeConfig(pool); null when the pool has no dynamic fee",
        },
        "customFeePips": nullable("integer", "customFee(pool); null when the pool has no custom fee"),
    },
    "A concentrated-liquidity pool's fee read from chain now.",
)

LIVE_DYNAMIC_FEES = obj(
    {
        "blockNumber": {"type": "integer", "description": "block every read was made at"},
        "blockTimestamp": ISO_TIME,
        "readAt": {**ISO_TIME, "description": "when the chain was read (the server caches a read briefly)"},
        "dynamicFeeModule": ADDRESS,
        "pools": array_of("LiveDynamicFeePool"),
    },
    "Current fees of every CL pool and the dynamic fee module's configuration, read from chain RPC.",
)

COMPETITORS = obj({"available": {"const": False}}, "Competitor data is not available.")
COMPETITOR_PAIR = obj(
    {
        "pair": {"type": "string", "description": "normalized pair key (lower case)"},
        "recognised": {"type": "boolean", "description": "the pair (either order) is a pair of the snapshot's pools"},
        "available": {"const": False},
    },
    "Competitor data of one pair.",
)

SCHEMAS = {
    "PoolToken": TOKEN_REF,
    "PoolSnapshot": POOL_SNAPSHOT,
    "PoolHistoryPoint": POOL_HISTORY_POINT,
    "PoolGauge": GAUGE_STATE,
    "PoolGaugeHistoryPoint": GAUGE_HISTORY_POINT,
    "PoolDetail": POOL_DETAIL,
    "PoolDailyRow": POOL_DAILY_ROW,
    "TokenSnapshot": TOKEN_SNAPSHOT,
    "TokenPricePoint": TOKEN_PRICE_POINT,
    "TokenDetail": TOKEN_DETAIL,
    "CoreFactsheet": CORE_FACTSHEET,
    "LiveDynamicFeePool": LIVE_POOL,
    "LiveDynamicFees": LIVE_DYNAMIC_FEES,
    "Competitors": COMPETITORS,
    "CompetitorPair": COMPETITOR_PAIR,
}
