"""Handlers of the governance routes of /api/stats: bribes, votes, vote escrow, epochs, gauges
and the foundation. Each runs one SQL file of `warehouse_sql/queries/stats/` (named after the
handler unless it says otherwise) and only shapes what SQL cannot.

Optional filters are bound as sentinels so every file has a fixed parameter list: '' for "any
pool", ANY (-1) for "any epoch" / "any veNFT".
"""
from __future__ import annotations

from typing import Any

from ..errors import ApiError
from ..routes import RequestContext, runs
from .governance_schemas import VE_STATS

ANY = -1
GAUGE_NOT_FOUND = "gauge_not_found"


def _opt(value: Any, missing: Any) -> Any:
    return missing if value is None else value


async def _bribe_rows(ctx: RequestContext, *, pool: str = "", gauge: str = "", foundation_only: bool | None = None,
                      epoch: int | None = None, limit: int | None = None) -> Any:
    """bribes.sql, the one query behind every bribe list (its JSON rows); unset filters come from
    the query string."""
    p = ctx.params
    return await ctx.json(
        "bribes",
        pool=pool,
        gauge=gauge,
        epoch=epoch if epoch is not None else _opt(p.get("epoch"), ANY),
        foundation_only=foundation_only if foundation_only is not None else bool(p.get("foundationOnly")),
        limit=limit if limit is not None else p["limit"],
    )


@runs("bribes")
async def bribes(ctx: RequestContext) -> Any:
    return await _bribe_rows(ctx, pool=_opt(ctx.params.get("pool"), ""))


@runs("bribes")
async def pool_bribes(ctx: RequestContext) -> Any:
    """Exactly /bribes?pool=<poolId>: the same SQL file with the path's pool."""
    return await _bribe_rows(ctx, pool=ctx.params["poolId"])


@runs("bribes_totals")
async def bribes_totals(ctx: RequestContext) -> Any:
    return await ctx.json()


@runs("votes")
async def votes(ctx: RequestContext) -> Any:
    p = ctx.params
    return await ctx.json(
        "votes",
        epoch=_opt(p.get("epoch"), ANY),
        venft_id=_opt(p.get("venftId"), ANY),
        pool=_opt(p.get("pool"), ""),
        latest_only=bool(p["latestOnly"]),
        foundation_only=False,
    )


VE_FIELDS = tuple(VE_STATS["properties"])


@runs("ve")
async def ve(ctx: RequestContext) -> dict[str, Any]:
    rows = await ctx.rows()
    return rows[0] if rows else {name: None for name in VE_FIELDS}


@runs("epochs")
async def epochs(ctx: RequestContext) -> list[dict[str, Any]]:
    rows = await ctx.rows()
    for row in rows:
        row["topGauges"] = [
            {"gaugeAddress": g[0], "poolAddress": g[1], "token0Symbol": g[2], "token1Symbol": g[3],
             "votesRaw": g[4], "votes": g[5]}
            for g in (row.get("topGauges") or [])
        ]
    return rows


APR_COLUMNS = (("aprEmission", "emission"), ("aprFee", "fee"), ("aprBribe", "bribe"), ("aprTotal", "total"))


def _gauge(row: dict[str, Any]) -> dict[str, Any]:
    apr = {name: row.pop(column) for column, name in APR_COLUMNS}
    row.pop("snapshotAt", None)
    row["apr"] = apr
    return row


GAUGE_HISTORY_POINTS = 672  # about 7 days of 15-minute snapshots


@runs("gauges")
async def gauges(ctx: RequestContext) -> list[dict[str, Any]]:
    return [_gauge(row) for row in await ctx.rows("gauges", gauge_address="", points=1)]


@runs("gauges")
async def gauges_detail(ctx: RequestContext) -> dict[str, Any]:
    """gauges.sql for one gauge over the newest GAUGE_HISTORY_POINTS snapshots."""
    rows = await ctx.rows("gauges", points=GAUGE_HISTORY_POINTS)
    assert ctx.snapshot is not None
    if not rows or rows[0]["snapshotAt"] != ctx.snapshot.at_iso:
        raise ApiError(404, GAUGE_NOT_FOUND, f"no gauge {ctx.params['gaugeAddress']} in the snapshot at {ctx.snapshot.at_iso}")
    history = [
        {"snapshotAt": r["snapshotAt"], "votesRaw": r["votesRaw"], "foundationVoteShare": r["foundationVoteShare"],
         "apr": {name: r[column] for column, name in APR_COLUMNS}}
        for r in reversed(rows)
    ]
    return {"current": _gauge(dict(rows[0])), "history": history}


@runs("bribes")
async def gauges_bribes(ctx: RequestContext) -> list[dict[str, Any]]:
    """/bribes filtered to one gauge: the same SQL file."""
    return await _bribe_rows(ctx, gauge=ctx.params["gaugeAddress"])


def _usd_total(values: list[float | None]) -> float | None:
    return None if any(v is None for v in values) else sum(values)  # type: ignore[arg-type]


@runs("gauges_rewards")
async def gauges_rewards(ctx: RequestContext) -> list[dict[str, Any]]:
    epochs: dict[int, dict[str, Any]] = {}
    for r in await ctx.rows():
        epoch = epochs.setdefault(r["epochStart"], {"epochStart": r["epochStart"], "bribes": [], "fees": []})
        kind = "bribes" if r.pop("kind") == "bribe" else "fees"
        r.pop("epochStart")
        epoch[kind].append(r)
    out = []
    for epoch in epochs.values():  # newest first, as the SQL orders them
        epoch["bribesUsd"] = _usd_total([t["amountUsd"] for t in epoch["bribes"]])
        epoch["feesUsd"] = _usd_total([t["amountUsd"] for t in epoch["fees"]])
        out.append(epoch)
    return out


@runs("foundation")
async def foundation(ctx: RequestContext) -> dict[str, Any]:
    row = (await ctx.rows())[0]
    has = row.pop("hasSnapshotRow") > 0
    out: dict[str, Any] = {}
    for key in ("wallet", "veNftIds", "totalLockedRaw", "totalLocked", "votingPowerRaw", "votingPower", "epochStart",
                "votesThisEpochRaw", "votesThisEpoch", "voteCount", "votedPoolCount"):
        out[key] = row[key] if has else ([] if key == "veNftIds" else None)
    out["veNftIds"] = list(out["veNftIds"])
    out["allocation"] = [{"poolAddress": a[0], "weightRaw": a[1], "weight": a[2]} for a in row["allocation"]]
    for kind in ("bribes", "claims"):
        prefix = kind
        out[kind] = {
            "lifetimeUsd": row[f"{prefix}LifetimeUsd"] if row[f"{prefix}LifetimeCount"] else 0.0,
            "lifetimeCount": row[f"{prefix}LifetimeCount"],
            "recentUsd": row[f"{prefix}RecentUsd"] if row[f"{prefix}RecentCount"] else 0.0,
            "recentCount": row[f"{prefix}RecentCount"],
            "recentDays": 30,
        }
    return out


@runs("foundation_votes")
async def foundation_votes(ctx: RequestContext) -> Any:
    p = ctx.params
    return await ctx.json(epoch=_opt(p.get("epoch"), ANY), latest_only=bool(p["latestOnly"]))


@runs("bribes")
async def foundation_bribes(ctx: RequestContext) -> Any:
    """/bribes with foundationOnly=true: the same SQL file."""
    return await _bribe_rows(ctx, pool=_opt(ctx.params.get("pool"), ""), foundation_only=True)


@runs("foundation_kpis")
async def foundation_kpis(ctx: RequestContext) -> Any:
    p = ctx.params
    return await ctx.json("foundation_kpis", epoch=_opt(p.get("epoch"), ANY), pool=_opt(p.get("pool"), ""),
                          gauge_address="", latest_only=False, limit=p["limit"])


@runs("foundation_kpis")
async def gauges_kpis(ctx: RequestContext) -> Any:
    """/foundation/kpis of one gauge: the same SQL file."""
    p = ctx.params
    return await ctx.json("foundation_kpis", epoch=_opt(p.get("epoch"), ANY), pool="",
                          gauge_address=p["gaugeAddress"], latest_only=False, limit=p["limit"])


@runs("foundation_votes", "bribes", "foundation_kpis")
async def epochs_detail(ctx: RequestContext) -> dict[str, Any]:
    """Three list queries (votes, bribes, KPIs); the vote and KPI lists share one representative
    snapshot: the latest successful one inside the epoch."""
    epoch = ctx.params["epochStart"]
    votes = await ctx.rows("foundation_votes", epoch=epoch, latest_only=True)
    rep = votes[0]["snapshotAt"] if votes else None
    bribes = await _bribe_rows(ctx, epoch=epoch, foundation_only=False, limit=100_000)
    kpis = await ctx.rows("foundation_kpis", epoch=epoch, pool="", gauge_address="", limit=100_000, latest_only=True)
    if rep is None and kpis:
        rep = kpis[0]["snapshotAt"]
    kpis = [k for k in kpis if k["snapshotAt"] == rep]
    return {"epochStart": epoch, "representativeSnapshotAt": rep, "votes": votes, "bribes": bribes, "kpis": kpis}


@runs("markets_bribes")
async def markets_bribes(ctx: RequestContext) -> Any:
    p = ctx.params
    return await ctx.json(epoch=_opt(p.get("epoch"), ANY), min_usd=float(p["minUsd"]))
