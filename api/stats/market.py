"""Market routes of /api/stats: pools, tokens, the core-token factsheet, dynamic fees (snapshot
and live) and competitors. `ROUTES` and `SCHEMAS` join the family in `api/stats/routes.py`.

SQL files (warehouse_sql/queries/stats/): pools.sql (list, pool detail `current`, dynamic-fees),
pools_history.sql, pools_gauge_history.sql, pools_daily.sql, tokens.sql (list and token detail
`current`), tokens_history.sql, core.sql, core_price_history.sql, core_daily.sql, config_pairs.sql
(competitors). The live route reads chain RPC only (readers.chain, Multicall3).
"""
from __future__ import annotations

import asyncio
import time
from typing import Any

from ve_analytics.api.errors import ApiError
from ve_analytics.api.routes import ErrorDoc, RequestContext, Route
from ve_analytics.api.schema import ADDRESS, DATE, ISO_TIME, RAW_INTEGER, array_of, nullable, nullable_ref, obj, ref
from ve_analytics.api.stats.flow_windows import flow_window, flow_windows, flow_windows_schema
from ve_analytics.api.validation import Param
from ve_analytics.core.epochs import iso

COMPETITORS_CACHE_SECONDS = 300
LIVE_CACHE_SECONDS = 15  # s-maxage of the live route; the server-side cache is settings.live_cache_seconds
MAX_LIMIT = 500
POOL_NOT_FOUND = "pool_not_found"
TOKEN_NOT_FOUND = "token_not_found"
LIVE_FAILED = "live_dynamic_fees_failed"
SORTS = ("tvl", "volume24h", "fees24h", "apr", "gaugeApr")
SYMBOL = r"[A-Za-z0-9._]+"
PAIR_PATTERN = rf"{SYMBOL}-{SYMBOL}"


# ------------------------------------------------------------------------------ schemas

TOKEN_REF = obj(
    {"address": ADDRESS, "symbol": {"type": "string"}, "decimals": nullable("integer", "null when unknown")},
    "A pool token.",
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
    "AprBreakdown": APR_BREAKDOWN,
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


# ------------------------------------------------------------------------------ shaping

APR_KEYS = (("emission", "aprEmission"), ("fee", "aprFee"), ("bribe", "aprBribe"), ("total", "gaugeApr"))


def pool_snapshot(row: dict[str, Any]) -> dict[str, Any]:
    gauge = None
    if row["gaugeAddress"] is not None:
        gauge = {"address": row["gaugeAddress"], "isAlive": row["gaugeAlive"]}
    breakdown = {key: row[column] for key, column in APR_KEYS} if row["hasGaugeSnapshot"] else None
    return {
        "address": row["address"],
        "type": row["type"],
        "version": row["version"],
        "token0": {"address": row["token0Address"], "symbol": row["token0Symbol"], "decimals": row["token0Decimals"]},
        "token1": {"address": row["token1Address"], "symbol": row["token1Symbol"], "decimals": row["token1Decimals"]},
        "feePips": row["feePips"],
        "isDynamicFee": bool(row["isDynamicFee"]),
        "isCustomFee": bool(row["isCustomFee"]),
        "tickSpacing": row["tickSpacing"],
        "tvlUsd": row["tvlUsd"],
        "volume24hUsd": row["volume24hUsd"],
        "fees24hUsd": row["fees24hUsd"],
        "feeApr": row["feeApr"],
        "flowWindow": flow_window("24h", row["flowWindowEnd"], row["hours24h"]),
        "gauge": gauge,
        "incentivized": bool(row["incentivized"]),
        "gaugeApr": row["gaugeApr"],
        "aprBreakdown": breakdown,
    }


def _pool_filters(**overrides: Any) -> dict[str, Any]:
    values: dict[str, Any] = {
        "sort": "tvl", "type": "all", "limit": MAX_LIMIT, "pair_a": "", "pair_b": "", "token": "",
        "min_tvl": -1.0, "incentivized": -1, "pool": "", "fee_kind": "",
    }
    values.update(overrides)
    return values


# ------------------------------------------------------------------------------ handlers

async def pools(ctx: RequestContext) -> list[dict[str, Any]]:
    p = ctx.params
    pair_a = pair_b = ""
    if p.get("pair") is not None:
        pair_a, _, pair_b = p["pair"].lower().partition("-")
    incentivized = p.get("incentivized")
    rows = await ctx.rows(
        "pools",
        **_pool_filters(
            sort=p["sort"], type=p["type"], limit=p["limit"], pair_a=pair_a, pair_b=pair_b,
            token=p.get("token") or "",
            min_tvl=float(p["minTvl"]) if p.get("minTvl") is not None else -1.0,
            incentivized=-1 if incentivized is None else int(incentivized),
        ),
    )
    return [pool_snapshot(r) for r in rows]


async def _current_pool(ctx: RequestContext) -> dict[str, Any]:
    pool_id = ctx.params["poolId"]
    rows = await ctx.rows("pools", **_pool_filters(pool=pool_id, limit=1))
    if not rows:
        raise ApiError(404, POOL_NOT_FOUND, f"no pool {pool_id} in the snapshot {ctx.snapshot.at_iso if ctx.snapshot else ''}")
    return rows[0]


async def pool_detail(ctx: RequestContext) -> dict[str, Any]:
    current = pool_snapshot(await _current_pool(ctx))
    history = await ctx.rows("pools_history")
    gauge_rows = await ctx.rows("pools_gauge_history")
    gauge_history = [
        {"snapshotAt": r["snapshotAt"], "aprBreakdown": {k: r[k] for k in ("emission", "fee", "bribe", "total")}}
        for r in gauge_rows
    ]
    gauge = None
    if gauge_rows and ctx.snapshot is not None and gauge_rows[-1]["snapshotAt"] == ctx.snapshot.at_iso:
        last = dict(gauge_rows[-1])
        breakdown = {k: last.pop(k) for k in ("emission", "fee", "bribe", "total")}
        gauge = {**last, "isAlive": bool(last["isAlive"]), "aprBreakdown": breakdown}
    return {"current": current, "history": history, "gauge": gauge, "gaugeHistory": gauge_history}


async def pool_daily(ctx: RequestContext) -> list[dict[str, Any]]:
    await _current_pool(ctx)
    return await ctx.rows("pools_daily")


async def dynamic_fees(ctx: RequestContext) -> list[dict[str, Any]]:
    rows = await ctx.rows("pools", **_pool_filters(fee_kind="dynamic_or_custom"))
    return [pool_snapshot(r) for r in rows]


async def tokens(ctx: RequestContext) -> list[dict[str, Any]]:
    return await ctx.rows("tokens", address="")


async def token_detail(ctx: RequestContext) -> dict[str, Any]:
    address = ctx.params["address"]
    rows = await ctx.rows("tokens", limit=1)
    if not rows:
        raise ApiError(404, TOKEN_NOT_FOUND, f"no token {address} in a pool of the snapshot {ctx.snapshot.at_iso if ctx.snapshot else ''}")
    return {"current": rows[0], "history": await ctx.rows("tokens_history")}


async def core(ctx: RequestContext) -> dict[str, Any]:
    rows = await ctx.rows("core")
    if not rows:  # a successful run always wrote its core-token row; a gap is a failed read
        raise LookupError(f"no core_token_snap15m row for the snapshot at {ctx.snapshot.at_iso if ctx.snapshot else '?'}")
    c = rows[0]
    history = await ctx.rows("core_price_history")
    daily = await ctx.rows("core_daily", token=c["address"])
    windows = flow_windows(c["flowWindowEnd"], c)
    supply_raw = c["totalSupplyRaw"]
    return {
        "snapshotAt": c["snapshotAt"],
        "blockNumber": c["blockNumber"],
        "token": {"address": c["address"], "symbol": c["symbol"], "decimals": c["decimals"]},
        "price": {
            "usd": c["priceUsd"],
            "derivedEth": c["derivedEth"],
            "source": c["priceSource"],
            "referencePool": c["referencePool"],
            "blockNumber": c["blockNumber"],
        },
        "supply": {
            "totalSupply": c["totalSupply"] if supply_raw is not None else None,
            "totalSupplyRaw": supply_raw,
            "source": "erc20:totalSupply() via Multicall3",
            "blockNumber": c["blockNumber"],
        },
        "marketCapUsd": c["marketCapUsd"],
        "liquidity": {"tvlUsd": c["liquidityUsd"], "poolCount": c["poolCount"]},
        "activity": {
            "volume24hUsd": c["volume24hUsd"],
            "fees24hUsd": c["fees24hUsd"],
            "utcDay": {
                "date": c["snapshotAt"][:10],
                "volumeUsd": c["volumeDayUsd"],
                "feesUsd": c["feesDayUsd"],
                "hoursCovered": c["hoursDay"],
                "partial": True,
            },
            "volume7dUsd": c["volume7dUsd"],
            "fees7dUsd": c["fees7dUsd"],
            "volume30dUsd": c["volume30dUsd"],
            "fees30dUsd": c["fees30dUsd"],
            "lifetimeVolumeUsd": c["volumeLifetimeUsd"],
            "lifetimeFeesUsd": c["feesLifetimeUsd"],
            "flowWindows": windows,
        },
        "ratios": {
            "marketCapToTvl": c["marketCapToTvl"],
            "marketCapToLiquidity": c["marketCapToLiquidity"],
            "feesAnnualizedToMarketCap": c["feesAnnualizedToMarketCap"],
            "volume24hToLiquidity": c["volume24hToLiquidity"],
        },
        "priceHistory": history,
        "daily": daily,
    }


async def competitors(ctx: RequestContext) -> dict[str, Any]:
    return {"available": False}


async def competitor_pair(ctx: RequestContext) -> dict[str, Any]:
    pair = ctx.params["pair"].lower()
    a, _, b = pair.partition("-")
    tracked = {row["pair"] for row in await ctx.rows("config_pairs")}
    return {"pair": pair, "recognised": f"{a}-{b}" in tracked or f"{b}-{a}" in tracked, "available": False}


# -- live ------------------------------------------------------------------------------------

def read_live_dynamic_fees(reader: Any, cl_factory: str, module: str) -> dict[str, Any]:
    """Blocking chain reads, all at one block: the CL factory's pools, then per pool fee() and
    the module's getFee / feeConfig / customFee through Multicall3."""
    head = reader.head()
    block = head.number
    (length,) = reader.multicall([(cl_factory, "allPoolsLength()", (), ("uint256",))], block)
    if length is None:
        raise RuntimeError("CLFactory.allPoolsLength() failed")
    addresses = reader.multicall([(cl_factory, "allPools(uint256)", (i,), ("address",)) for i in range(int(length))], block)
    if any(a is None for a in addresses):
        raise RuntimeError("CLFactory.allPools(i) failed")
    calls = []
    for pool in addresses:
        calls += [
            (pool, "fee()", (), ("uint24",)),
            (module, "getFee(address)", (pool,), ("uint24",)),
            (module, "feeConfig(address)", (pool,), ("uint24", "uint24", "uint64")),
            (module, "customFee(address)", (pool,), ("uint24",)),
        ]
    answers = reader.multicall(calls, block) if calls else []
    pools = []
    for i, pool in enumerate(addresses):
        fee, module_fee, config, custom = answers[4 * i : 4 * i + 4]
        dynamic = config is not None and any(int(v) for v in config)
        pools.append(
            {
                "address": pool.lower(),
                "feePips": fee,
                "moduleFeePips": module_fee,
                "isDynamicFee": dynamic,
                "isCustomFee": bool(custom),
                "dynamicFeeConfig": (
                    {"baseFeePips": int(config[0]), "feeCapPips": int(config[1]), "scalingFactor": int(config[2])} if dynamic else None
                ),
                "customFeePips": int(custom) if custom else None,
            }
        )
    pools.sort(key=lambda p: p["address"])
    return {
        "blockNumber": block,
        "blockTimestamp": iso(head.timestamp),
        "readAt": iso(time.time()),
        "dynamicFeeModule": module.lower(),
        "pools": pools,
    }


async def live_dynamic_fees(ctx: RequestContext) -> dict[str, Any]:
    async def read() -> dict[str, Any]:
        contracts = ctx.settings.contracts(ctx.chain_id)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            None, read_live_dynamic_fees, ctx.chain_reader(), contracts["clFactory"], contracts["dynamicFeeModule"]
        )

    ttl = float(getattr(ctx.settings, "live_cache_seconds", LIVE_CACHE_SECONDS))
    try:
        return await ctx.app.ctx.memo.get(("stats", ctx.route.name), ttl, read)
    except Exception as exc:  # noqa: BLE001 - any chain failure is this route's documented 500
        raise ApiError(
            500, LIVE_FAILED,
            "the chain RPC read failed; /api/stats/dynamic-fees serves the latest snapshot's fees",
        ) from exc


# ------------------------------------------------------------------------------ routes

POOL_ID = Param("poolId", "address", "Pool address", location="path")
TOKEN_ADDRESS = Param("address", "address", "Token address", location="path")
POOL_NOT_FOUND_DOC = ErrorDoc(404, POOL_NOT_FOUND, "No pool with this address in the latest snapshot.")

ROUTES: tuple[Route, ...] = (
    Route(
        "/pools",
        "pools",
        pools,
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
        pool_detail,
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
        pool_daily,
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
        dynamic_fees,
        "Concentrated-liquidity pools with dynamic or custom fees (snapshot)",
        array_of("PoolSnapshot"),
        description="Pool snapshots of the CL pools whose fee is dynamic or custom, by TVL descending; `feePips` is "
        "the fee charged at the snapshot block. The fallback of /api/stats/live/dynamic-fees.",
        tags=("pools",),
    ),
    Route(
        "/live/dynamic-fees",
        "live_dynamic_fees",
        live_dynamic_fees,
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
        tokens,
        "Token snapshots",
        array_of("TokenSnapshot"),
        params=(Param("limit", "integer", "Number of tokens", default=100, minimum=1, maximum=MAX_LIMIT),),
        description="Every token in a pool of the latest snapshot, by USD price descending (unknown prices last).",
        tags=("tokens",),
    ),
    Route(
        "/tokens/{address}",
        "token_detail",
        token_detail,
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
        core,
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
        competitors,
        "Competitors index",
        ref("Competitors"),
        cache_seconds=COMPETITORS_CACHE_SECONDS,
        description="Competitor data is not available: `{available: false}`.",
        tags=("competitors",),
    ),
    Route(
        "/competitors/{pair}",
        "competitor_pair",
        competitor_pair,
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
