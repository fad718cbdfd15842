"""Route table of the market routes of /api/stats: pools, tokens, the core-token factsheet,
dynamic fees (snapshot and live) and competitors. Handlers: market_handlers.py and
live_fees.py; schemas: market_schemas.py."""
from __future__ import annotations

from ..routes import ErrorDoc, Route
from ..schema import array_of, ref
from . import live_fees, market_handlers
from .live_fees import LIVE_CACHE_SECONDS, LIVE_FAILED
from .market_handlers import MAX_LIMIT, POOL_NOT_FOUND, TOKEN_NOT_FOUND
from ..validation import Param

COMPETITORS_CACHE_SECONDS = 300
SORTS = ("tvl", "volume24h", "fees24h", "apr", "gaugeApr")
SYMBOL = r"[A-Za-z0-9._]+"
PAIR_PATTERN = rf"{SYMBOL}-{SYMBOL}"

POOL_ID = Param("poolId", "address", "Pool address", location="path")
TOKEN_ADDRESS = Param("address", "address", "Token address", location="path")
POOL_NOT_FOUND_DOC = ErrorDoc(404, POOL_NOT_FOUND, "No pool with this address in the latest snapshot.")

ROUTES: tuple[Route, ...] = (
    Route(
        "/pools",
        "pools",
        market_handlers.pools,
        "Pool snapshots",
        array_of("PoolSnapshot"),
        params=(
            Param("sort", "enum", "Sort key, descending; unknown values last", default="tvl", choices=SORTS),
            Param("type", "enum", "v2 (volatile and stable), v3 (concentrated liquidity) or all", default="all", choices=("v2", "v3", "all")),
            Param("limit", "integer", "Number of pools", default=50, minimum=1, maximum=MAX_LIMIT),
            Param("pair", "string", "Two token symbols joined by a hyphen, either order, any case", pattern=PAIR_PATTERN),
            Param("token", "address", "Only pools with this token on either side"),
            Param("minTvl", "number", "Only pools with a known USD TVL of at least this", minimum=0),
            Param("incentivized", "boolean", "true: only pools whose gauge is alive and emits the core token; false: only the others"),
        ),
        description="Every pool of the latest snapshot matching the filters, sorted by `sort` descending "
        "(pools with an unknown sort value last, then by address). feeApr = fees24hUsd x 365 / tvlUsd; gaugeApr and "
        "aprBreakdown come from the gauge snapshot and are null until it has a row for the pool.",
        tags=("pools",),
    ),
    Route(
        "/pools/{poolId}",
        "pool_detail",
        market_handlers.pool_detail,
        "One pool with its history and gauge",
        ref("PoolDetail"),
        params=(POOL_ID,),
        error_prefix="pools",
        description="`current` is the pool snapshot; `history` the pool at the latest 672 successful snapshots "
        "(about 7 days), oldest first; `gauge` the gauge snapshot at the served snapshot and `gaugeHistory` its APRs "
        "over the same snapshots.",
        errors=(POOL_NOT_FOUND_DOC,),
        tags=("pools",),
    ),
    Route(
        "/pools/{poolId}/daily",
        "pool_daily",
        market_handlers.pool_daily,
        "One pool's volume, fees and closing TVL per UTC day",
        array_of("PoolDailyRow"),
        params=(POOL_ID, Param("days", "integer", "Number of days in the window", default=90, minimum=1, maximum=365)),
        error_prefix="pools",
        description="One row per UTC day for the `days` days ending with the snapshot's UTC day, oldest first; a day "
        "without data has null values; `partial` is true only for the snapshot's own day.",
        errors=(POOL_NOT_FOUND_DOC,),
        tags=("pools",),
    ),
    Route(
        "/dynamic-fees",
        "dynamic_fees",
        market_handlers.dynamic_fees,
        "Concentrated-liquidity pools with dynamic or custom fees (snapshot)",
        array_of("PoolSnapshot"),
        description="Pool snapshots of the CL pools whose fee is dynamic or custom, by TVL descending; `feePips` is "
        "the fee charged at the snapshot block. The fallback of /api/stats/live/dynamic-fees.",
        tags=("pools",),
    ),
    Route(
        "/live/dynamic-fees",
        "live_dynamic_fees",
        live_fees.live_dynamic_fees,
        "Current CL pool fees and dynamic fee module configuration (live chain read)",
        ref("LiveDynamicFees"),
        cache_seconds=LIVE_CACHE_SECONDS,
        snapshot=False,
        sources=("chain-rpc",),
        description="Reads chain RPC on demand (Multicall3, one block): every CL pool of the CL factory with its "
        "fee(), and the dynamic fee module's getFee, feeConfig and customFee. Not snapshot-backed (no ETag); the "
        "server keeps a read for a few seconds (LIVE_CACHE_SECONDS). An RPC failure answers 500 "
        "`live_dynamic_fees_failed`; /api/stats/dynamic-fees is the fallback.",
        errors=(ErrorDoc(500, LIVE_FAILED, "The chain RPC read failed; use /api/stats/dynamic-fees."),),
        tags=("live",),
    ),
    Route(
        "/tokens",
        "tokens",
        market_handlers.tokens,
        "Token snapshots",
        array_of("TokenSnapshot"),
        params=(Param("limit", "integer", "Number of tokens", default=100, minimum=1, maximum=MAX_LIMIT),),
        description="Every token in a pool of the latest snapshot, by USD price descending (unknown prices last).",
        tags=("tokens",),
    ),
    Route(
        "/tokens/{address}",
        "token_detail",
        market_handlers.token_detail,
        "One token with its price history",
        ref("TokenDetail"),
        params=(TOKEN_ADDRESS,),
        error_prefix="tokens",
        description="`current` is the token snapshot; `history` its price at the latest 672 successful snapshots, "
        "oldest first.",
        errors=(ErrorDoc(404, TOKEN_NOT_FOUND, "No token with this address in a pool of the latest snapshot."),),
        tags=("tokens",),
    ),
    Route(
        "/core",
        "core",
        market_handlers.core,
        "Core-token factsheet",
        ref("CoreFactsheet"),
        description="The protocol token from one snapshot, every figure read at its block: canonical price with "
        "provenance, ERC20 totalSupply and market cap, liquidity over the pools containing the token, activity of "
        "those pools (rolling 24h/7d/30d from hourly buckets with their windows, the UTC day so far, lifetime), "
        "valuation ratios, 7 days of prices and 90 days of daily activity.",
        tags=("tokens",),
    ),
    Route(
        "/competitors",
        "competitors",
        market_handlers.competitors,
        "Competitors index",
        ref("Competitors"),
        cache_seconds=COMPETITORS_CACHE_SECONDS,
        description="Competitor data is not available: `{available: false}`.",
        tags=("competitors",),
    ),
    Route(
        "/competitors/{pair}",
        "competitor_pair",
        market_handlers.competitor_pair,
        "Competitor data of one pair",
        ref("CompetitorPair"),
        params=(Param("pair", "string", "Pair key: token symbols joined by a hyphen (lower case)", location="path", pattern=PAIR_PATTERN),),
        cache_seconds=COMPETITORS_CACHE_SECONDS,
        error_prefix="competitors",
        description="Whether the pair (either order) is a pair of the latest snapshot's pools; competitor data is "
        "not available.",
        tags=("competitors",),
    ),
)
