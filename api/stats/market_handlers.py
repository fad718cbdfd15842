"""Handlers of the market routes of /api/stats: pools, tokens, the core-token factsheet and
competitors (the live chain read is live_fees.py).

SQL files (warehouse_sql/queries/stats/): pools.sql (list, pool detail `current`, dynamic-fees),
pools_history.sql, pools_gauge_history.sql, pools_daily.sql, tokens.sql (list and token detail
`current`), tokens_history.sql, core.sql, core_price_history.sql, core_daily.sql, config_pairs.sql
(competitors).
"""
from __future__ import annotations

from typing import Any

from ..errors import ApiError
from ..routes import RequestContext, runs
from .flow_windows import flow_window, flow_windows

MAX_LIMIT = 500
POOL_NOT_FOUND = "pool_not_found"
TOKEN_NOT_FOUND = "token_not_found"

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
    """pools.sql's values: every filter off (its sentinels), then `overrides`."""
    values: dict[str, Any] = {
        "sort": "tvl", "type": "all", "limit": MAX_LIMIT, "pair_a": "", "pair_b": "", "token": "",
        "min_tvl": -1.0, "incentivized": -1, "pool": "", "fee_kind": "",
    }
    values.update(overrides)
    return values


@runs("pools")
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


@runs("pools", "pools_history", "pools_gauge_history")
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


@runs("pools", "pools_daily")
async def pool_daily(ctx: RequestContext) -> Any:
    await _current_pool(ctx)
    return await ctx.json("pools_daily")


@runs("pools")
async def dynamic_fees(ctx: RequestContext) -> list[dict[str, Any]]:
    rows = await ctx.rows("pools", **_pool_filters(fee_kind="dynamic_or_custom"))
    return [pool_snapshot(r) for r in rows]


@runs("tokens")
async def tokens(ctx: RequestContext) -> Any:
    return await ctx.json("tokens", address="")


@runs("tokens", "tokens_history")
async def token_detail(ctx: RequestContext) -> dict[str, Any]:
    address = ctx.params["address"]
    rows = await ctx.rows("tokens", limit=1)
    if not rows:
        raise ApiError(404, TOKEN_NOT_FOUND, f"no token {address} in a pool of the snapshot {ctx.snapshot.at_iso if ctx.snapshot else ''}")
    return {"current": rows[0], "history": await ctx.json("tokens_history")}


@runs("core", "core_price_history", "core_daily")
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


@runs("config_pairs")
async def competitor_pair(ctx: RequestContext) -> dict[str, Any]:
    pair = ctx.params["pair"].lower()
    a, _, b = pair.partition("-")
    tracked = {row["pair"] for row in await ctx.rows("config_pairs")}
    return {"pair": pair, "recognised": f"{a}-{b}" in tracked or f"{b}-{a}" in tracked, "available": False}
