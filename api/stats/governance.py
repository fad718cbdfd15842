"""Governance routes of /api/stats: bribes, votes, vote escrow and epochs.

Routes, handlers and data schemas of the domain in one module; `api/stats/routes.py` appends
`ROUTES` to the family and `SCHEMAS` to its components. Each handler runs one SQL file of
`warehouse_sql/queries/stats/` (named after the handler) and only shapes what SQL cannot.

Optional filters are bound as sentinels so every file has a fixed parameter list: '' for "any
pool", -1 for "any epoch" / "any veNFT".
"""
from __future__ import annotations

from typing import Any

from ve_analytics.api.errors import ApiError
from ve_analytics.api.routes import ErrorDoc, RequestContext, Route
from ve_analytics.api.schema import ADDRESS, ISO_TIME, RAW_INTEGER, array_of, nullable, obj, ref
from ve_analytics.api.validation import Param
from ve_analytics.core.epochs import LAST_EPOCH_START, WEEK

ANY = -1
EPOCH_TEXT = "an epoch start: Thursday 00:00 UTC"

EPOCH = Param("epoch", "integer", "Epoch start, Unix seconds (a Thursday 00:00 UTC, a multiple of 604800)",
              minimum=0, maximum=LAST_EPOCH_START, multiple_of=WEEK, multiple_text=EPOCH_TEXT)
POOL = Param("pool", "address", "Only this pool")
FOUNDATION_ONLY = Param("foundationOnly", "boolean", "Only deposits funded by the foundation wallet", default=False)
LIMIT_1000 = Param("limit", "integer", "Maximum number of rows", default=100, minimum=1, maximum=1000)
POOL_ID = Param("poolId", "address", "Pool address", location="path")
VENFT_ID = Param("venftId", "integer", "Only this veNFT (token id)", minimum=0)
LATEST_ONLY = Param("latestOnly", "boolean", "Only each veNFT's most recent voting epoch (false: full history)",
                    default=True)
GAUGE_ADDRESS = Param("gaugeAddress", "address", "Gauge address", location="path")
REWARDS_LIMIT = Param("limit", "integer", "Number of epochs", default=12, minimum=1, maximum=200)
GAUGE_NOT_FOUND = "gauge_not_found"
EPOCH_START = Param("epochStart", "integer", "Epoch start, Unix seconds (a Thursday 00:00 UTC)", location="path",
                    minimum=0, maximum=LAST_EPOCH_START, multiple_of=WEEK, multiple_text=EPOCH_TEXT, code="invalid_epoch")
MIN_USD = Param("minUsd", "number", "Only gauges whose total reward (bribes + fees) is at least this many USD",
                default=0, minimum=0)
LIMIT_500 = Param("limit", "integer", "Maximum number of rows", default=100, minimum=1, maximum=500)
EPOCH_LIMIT = Param("limit", "integer", "Number of epochs", default=12, minimum=1, maximum=52)

# -- schemas ---------------------------------------------------------------------------------
BRIBE_EVENT = obj(
    {
        "id": {"type": "string", "description": "event id (<transaction hash>-<log index>)"},
        "epoch": {"type": "integer", "description": "epoch start of the deposit, Unix seconds"},
        "timestamp": ISO_TIME,
        "blockNumber": {"type": "integer"},
        "transactionHash": {"type": "string"},
        "gaugeAddress": ADDRESS,
        "poolAddress": {**ADDRESS, "description": "target pool"},
        "tokenAddress": ADDRESS,
        "tokenSymbol": {"type": "string"},
        "tokenDecimals": {"type": "integer"},
        "amountRaw": RAW_INTEGER,
        "amount": {"type": "number", "description": "amountRaw / 10^tokenDecimals"},
        "amountUsd": nullable("number", "USD value at deposit time"),
        "sender": ADDRESS,
        "isFoundation": {"type": "boolean", "description": "funded by the foundation wallet"},
    },
    "One bribe deposit routed to a gauge (FoundationBribeEvent).",
)

BRIBE_TOTAL = obj(
    {
        "epochStart": {"type": "integer", "description": "Unix seconds"},
        "totalUsd": nullable("number", "sum of USD values at deposit time; null when a deposit has no USD value"),
        "count": {"type": "integer"},
    },
    "Bribes deposited in one epoch.",
)

VOTE_SNAPSHOT = obj(
    {
        "veNftId": {"type": "integer"},
        "epoch": {"type": "integer", "description": "epoch start, Unix seconds"},
        "poolAddress": ADDRESS,
        "gaugeAddress": ADDRESS,
        "weightRaw": RAW_INTEGER,
        "weight": {"type": "number", "description": "voting power allocated to the pool, weightRaw / 1e18"},
        "owner": {"type": "string", "description": "owner of the veNFT when it was read"},
        "isFoundation": {"type": "boolean"},
        "votedAt": ISO_TIME,
        "blockNumber": {"type": "integer"},
    },
    "One vote allocation: veNFT, pool, weight, epoch.",
)

VE_STATS = obj(
    {
        "snapshotAt": {**ISO_TIME, "type": ["string", "null"]},
        "blockNumber": nullable("integer"),
        "totalLocked": nullable("number", "core token locked, raw / 1e18"),
        "totalLockedRaw": RAW_INTEGER,
        "totalVotingPower": nullable("number", "raw / 1e18"),
        "totalVotingPowerRaw": RAW_INTEGER,
        "permanentLocked": nullable("number", "locked in permanent locks (voting power = amount)"),
        "permanentLockedRaw": RAW_INTEGER,
        "decayingLocked": nullable("number", "locked in decaying locks (totalLocked - permanentLocked)"),
        "decayingLockedRaw": RAW_INTEGER,
        "lockCount": nullable("integer", "veNFTs with a non-zero locked amount"),
        "permanentLockCount": nullable("integer"),
        "decayingLockCount": nullable("integer", "non-permanent locks whose unlock time is in the future"),
        "expiredLockCount": nullable("integer", "non-permanent locks past their unlock time, not withdrawn"),
        "averageLockDurationSeconds": nullable("number", "mean remaining lock time of the decaying locks"),
        "averageLockDurationDays": nullable("number"),
    },
    "Vote-escrow state at the snapshot block; every figure is null when the snapshot has no vote-escrow row.",
)

TOP_GAUGE = obj(
    {
        "gaugeAddress": ADDRESS,
        "poolAddress": ADDRESS,
        "token0Symbol": nullable("string", "from the snapshot's pool row; null when the pool is not in it"),
        "token1Symbol": nullable("string"),
        "votesRaw": RAW_INTEGER,
        "votes": {"type": "number"},
    }
)

EPOCH_SUMMARY = obj(
    {
        "epochStart": {"type": "integer"},
        "bribeCount": {"type": "integer"},
        "totalBribesUsd": nullable("number", "bribes deposited in the epoch, USD at deposit time"),
        "foundationBribeCount": {"type": "integer"},
        "foundationBribesUsd": nullable("number", "the foundation wallet's bribe spend"),
        "totalVotesRaw": RAW_INTEGER,
        "totalVotes": {"type": "number"},
        "foundationVotesRaw": RAW_INTEGER,
        "foundationVoteShare": nullable("number", "foundation veNFT votes / all votes; null without votes"),
        "gaugeCount": {"type": "integer", "description": "gauges that received votes"},
        "topGauges": {"type": "array", "items": ref("EpochTopGauge"), "description": "up to five most-voted gauges"},
    },
    "One epoch: bribes, foundation spend and vote share, most-voted gauges.",
)

APR = obj(
    {
        "emission": nullable("number", "core-token emissions of the epoch x core price x 365/7 / pool TVL"),
        "fee": nullable("number", "rolling 24h fees x 365 / pool TVL"),
        "bribe": nullable("number", "bribes deposited this epoch so far x 365/7 / pool TVL"),
        "total": nullable("number", "emission + fee + bribe; null when a part is unknown"),
    },
    "APR breakdown as fractions per year (0.25 = 25 %); null when an input is unknown.",
)

GAUGE_FIELDS = {
    "gaugeAddress": ADDRESS,
    "poolAddress": ADDRESS,
    "poolType": {"type": ["string", "null"], "enum": ["v2-volatile", "v2-stable", "cl", None]},
    "token0Symbol": nullable("string"),
    "token1Symbol": nullable("string"),
    "tvlUsd": nullable("number", "pool TVL in USD"),
    "isAlive": {"type": "boolean"},
    "epochStart": {"type": "integer"},
    "votesRaw": RAW_INTEGER,
    "votes": nullable("number", "votes for the pool this epoch, raw / 1e18"),
    "foundationVotesRaw": RAW_INTEGER,
    "foundationVoteShare": nullable("number", "foundation veNFT votes / all votes of the pool; null without votes"),
    "emissionsEpochRaw": RAW_INTEGER,
    "emissionsEpoch": nullable("number", "core token directed to the gauge this epoch"),
    "bribesEpochUsd": nullable("number", "bribes deposited this epoch so far, USD at deposit time"),
    "feesEpochUsd": nullable("number", "pool fees of the epoch's ended hours"),
    "apr": ref("AprBreakdown"),
}
GAUGE = obj(GAUGE_FIELDS, "A gauge with its pool, this epoch's votes and the APR breakdown.")
GAUGE_HISTORY_POINT = obj(
    {"snapshotAt": ISO_TIME, "votesRaw": RAW_INTEGER, "foundationVoteShare": nullable("number"), "apr": ref("AprBreakdown")},
    "The gauge's APR breakdown at one successful snapshot.",
)
GAUGE_DETAIL = obj(
    {
        "current": ref("Gauge"),
        "history": {"type": "array", "items": ref("GaugeHistoryPoint"),
                    "description": "up to the last 672 successful snapshots (about 7 days), oldest first"},
    },
    "A gauge of the snapshot and the history of its APR breakdown.",
)
REWARD_TOKEN = obj(
    {
        "tokenAddress": ADDRESS,
        "tokenSymbol": {"type": "string"},
        "tokenDecimals": {"type": "integer"},
        "amountRaw": RAW_INTEGER,
        "amount": {"type": "number"},
        "amountUsd": nullable("number"),
    }
)
GAUGE_EPOCH_REWARD = obj(
    {
        "epochStart": {"type": "integer"},
        "bribes": {"type": "array", "items": ref("RewardToken"), "description": "bribes deposited, USD at deposit time"},
        "fees": {"type": "array", "items": ref("RewardToken"),
                 "description": "fee rewards claimed by the epoch's voters, USD at claim time"},
        "bribesUsd": nullable("number"),
        "feesUsd": nullable("number"),
    },
    "One epoch of a gauge's voter rewards, token by token.",
)

FOUNDATION_VOTE = obj(
    {
        "veNftId": {"type": "integer"},
        "epoch": {"type": "integer"},
        "poolAddress": ADDRESS,
        "gaugeAddress": ADDRESS,
        "weightRaw": RAW_INTEGER,
        "weight": {"type": "number"},
        "votedAt": ISO_TIME,
        "snapshotAt": {**ISO_TIME, "description": "the representative snapshot the allocation was read from"},
    },
    "One foundation veNFT's allocation to a pool in an epoch (foundation vote snapshot).",
)
ACTIVITY = obj(
    {
        "lifetimeUsd": nullable("number"), "lifetimeCount": {"type": "integer"},
        "recentUsd": nullable("number", "the 30 days up to the snapshot"), "recentCount": {"type": "integer"},
        "recentDays": {"const": 30},
    }
)
FOUNDATION_SUMMARY = obj(
    {
        "wallet": {"type": ["string", "null"]},
        "veNftIds": {"type": "array", "items": {"type": "integer"}, "description": "owned veNFTs"},
        "totalLockedRaw": RAW_INTEGER,
        "totalLocked": nullable("number", "vote escrow held (core token locked)"),
        "votingPowerRaw": RAW_INTEGER,
        "votingPower": nullable("number"),
        "epochStart": nullable("integer"),
        "votesThisEpochRaw": RAW_INTEGER,
        "votesThisEpoch": nullable("number"),
        "voteCount": nullable("integer", "(veNFT, pool) allocations of the current snapshot"),
        "votedPoolCount": nullable("integer", "pools voted for in the current snapshot"),
        "allocation": {
            "type": "array",
            "items": obj({"poolAddress": ADDRESS, "weightRaw": RAW_INTEGER, "weight": {"type": "number"}}),
            "description": "current-epoch vote allocation per pool, largest first",
        },
        "bribes": ACTIVITY,
        "claims": ACTIVITY,
    },
    "The foundation's position at the snapshot and its bribe spend and reward claims; the position is null "
    "when the snapshot has no foundation row.",
)
EPOCH_DETAIL = obj(
    {
        "epochStart": {"type": "integer"},
        "representativeSnapshotAt": {**ISO_TIME, "type": ["string", "null"],
                                     "description": "the snapshot the vote and KPI lists come from"},
        "votes": {"type": "array", "items": ref("FoundationVote")},
        "bribes": {"type": "array", "items": ref("BribeEvent"), "description": "every bribe deposited in the epoch"},
        "kpis": {"type": "array", "items": ref("FoundationKpi")},
    },
    "Foundation votes, bribes and KPI rows of one epoch.",
)

FOUNDATION_KPI = obj(
    {
        "epoch": {"type": "integer"},
        "snapshotAt": {**ISO_TIME, "description": "the representative snapshot of the epoch"},
        "gaugeAddress": ADDRESS,
        "poolAddress": ADDRESS,
        "voteWeightRaw": RAW_INTEGER,
        "voteWeight": {"type": "number", "description": "the foundation's votes on the pool this epoch"},
        "voteShare": nullable("number", "foundation votes / all votes on the pool"),
        "bribeCostUsd": nullable("number", "the foundation's bribes to the gauge this epoch, USD at deposit"),
        "emissionsDirectedRaw": RAW_INTEGER,
        "emissionsDirected": {"type": "number", "description": "gauge emissions of the epoch x voteShare"},
        "emissionsDirectedUsd": nullable("number"),
        "tvlUsd": nullable("number"),
        "tvlPrevUsd": nullable("number", "one epoch earlier"),
        "tvlDelta": nullable("number", "tvlUsd / tvlPrevUsd - 1"),
        "volumeUsd": nullable("number", "epoch to date"),
        "volumePrevUsd": nullable("number", "the same elapsed hours of the previous epoch"),
        "volumeDelta": nullable("number"),
        "feesUsd": nullable("number"),
        "feesPrevUsd": nullable("number"),
        "feesDelta": nullable("number"),
        "valuePerBribeUsd": nullable("number", "(emissions directed USD + fees x voteShare) / bribe cost"),
        "classification": {"enum": ["scale", "repeat", "monitor", "reduce", "stop", "insufficient_data"]},
        "methodologyVersion": {"type": "string", "description": "docs/methodology/kpi-classification.md version"},
    },
    "Foundation KPI of one gauge in one epoch (classification per the KPI methodology).",
)

BRIBE_MARKET_ROW = obj(
    {
        "gaugeAddress": ADDRESS,
        "poolAddress": ADDRESS,
        "token0Symbol": nullable("string"),
        "token1Symbol": nullable("string"),
        "epoch": {"type": "integer"},
        "bribeCount": {"type": "integer"},
        "totalBribesUsd": nullable("number", "bribes deposited in the epoch, USD at deposit time"),
        "totalFeesUsd": nullable("number", "the pool's fees over the epoch's hours ended by the snapshot"),
        "feeHoursCovered": {"type": "integer"},
        "totalRewardUsd": nullable("number", "totalBribesUsd + totalFeesUsd; null when a part is unknown"),
        "votesRaw": RAW_INTEGER,
        "votes": {"type": "number", "description": "votes on the pool in the epoch up to the snapshot"},
        "dollarPerVote": nullable("number", "totalRewardUsd / votes; null without votes"),
    },
    "One gauge of an epoch's bribe market.",
)

SCHEMAS: dict[str, dict] = {
    "BribeMarketRow": BRIBE_MARKET_ROW,
    "FoundationKpi": FOUNDATION_KPI,
    "FoundationVote": FOUNDATION_VOTE,
    "FoundationSummary": FOUNDATION_SUMMARY,
    "EpochDetail": EPOCH_DETAIL,
    "AprBreakdown": APR,
    "Gauge": GAUGE,
    "GaugeHistoryPoint": GAUGE_HISTORY_POINT,
    "GaugeDetail": GAUGE_DETAIL,
    "RewardToken": REWARD_TOKEN,
    "GaugeEpochReward": GAUGE_EPOCH_REWARD,
    "BribeEvent": BRIBE_EVENT,
    "BribeTotal": BRIBE_TOTAL,
    "VoteSnapshot": VOTE_SNAPSHOT,
    "VeStats": VE_STATS,
    "EpochTopGauge": TOP_GAUGE,
    "EpochSummary": EPOCH_SUMMARY,
}


# -- handlers --------------------------------------------------------------------------------
def _opt(value: Any, missing: Any) -> Any:
    return missing if value is None else value


async def _bribe_rows(ctx: RequestContext, *, pool: str = "", gauge: str = "", foundation_only: bool | None = None,
                      epoch: int | None = None, limit: int | None = None) -> list[dict[str, Any]]:
    """bribes.sql, the one query behind every bribe list; unset filters come from the query string."""
    p = ctx.params
    return await ctx.rows(
        "bribes",
        pool=pool,
        gauge=gauge,
        epoch=epoch if epoch is not None else _opt(p.get("epoch"), ANY),
        foundation_only=foundation_only if foundation_only is not None else bool(p.get("foundationOnly")),
        limit=limit if limit is not None else p["limit"],
    )


async def bribes(ctx: RequestContext) -> list[dict[str, Any]]:
    return await _bribe_rows(ctx, pool=_opt(ctx.params.get("pool"), ""))


async def pool_bribes(ctx: RequestContext) -> list[dict[str, Any]]:
    """Exactly /bribes?pool=<poolId>: the same SQL file with the path's pool."""
    return await _bribe_rows(ctx, pool=ctx.params["poolId"])


async def bribes_totals(ctx: RequestContext) -> list[dict[str, Any]]:
    return await ctx.rows()


async def votes(ctx: RequestContext) -> list[dict[str, Any]]:
    p = ctx.params
    return await ctx.rows(
        "votes",
        epoch=_opt(p.get("epoch"), ANY),
        venft_id=_opt(p.get("venftId"), ANY),
        pool=_opt(p.get("pool"), ""),
        latest_only=bool(p["latestOnly"]),
        foundation_only=False,
    )


VE_FIELDS = tuple(VE_STATS["properties"])


async def ve(ctx: RequestContext) -> dict[str, Any]:
    rows = await ctx.rows()
    return rows[0] if rows else {name: None for name in VE_FIELDS}


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


async def gauges(ctx: RequestContext) -> list[dict[str, Any]]:
    return [_gauge(row) for row in await ctx.rows("gauges", gauge_address="", points=1)]


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


async def gauges_bribes(ctx: RequestContext) -> list[dict[str, Any]]:
    """/bribes filtered to one gauge: the same SQL file."""
    return await _bribe_rows(ctx, gauge=ctx.params["gaugeAddress"])


def _usd_total(values: list[float | None]) -> float | None:
    return None if any(v is None for v in values) else sum(values)  # type: ignore[arg-type]


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


async def foundation_votes(ctx: RequestContext) -> list[dict[str, Any]]:
    p = ctx.params
    return await ctx.rows(epoch=_opt(p.get("epoch"), ANY), latest_only=bool(p["latestOnly"]))


async def foundation_bribes(ctx: RequestContext) -> list[dict[str, Any]]:
    """/bribes with foundationOnly=true: the same SQL file."""
    return await _bribe_rows(ctx, pool=_opt(ctx.params.get("pool"), ""), foundation_only=True)


async def foundation_kpis(ctx: RequestContext) -> list[dict[str, Any]]:
    p = ctx.params
    return await ctx.rows("foundation_kpis", epoch=_opt(p.get("epoch"), ANY), pool=_opt(p.get("pool"), ""),
                          gauge_address="", latest_only=False, limit=p["limit"])


async def gauges_kpis(ctx: RequestContext) -> list[dict[str, Any]]:
    """/foundation/kpis of one gauge: the same SQL file."""
    p = ctx.params
    return await ctx.rows("foundation_kpis", epoch=_opt(p.get("epoch"), ANY), pool="",
                          gauge_address=p["gaugeAddress"], latest_only=False, limit=p["limit"])


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


async def markets_bribes(ctx: RequestContext) -> list[dict[str, Any]]:
    p = ctx.params
    return await ctx.rows(epoch=_opt(p.get("epoch"), ANY), min_usd=float(p["minUsd"]))


# -- routes ----------------------------------------------------------------------------------
TAGS = ("governance",)
BRIBES_DESC = ("Bribe deposits known at the snapshot, newest first (block time, then id). `amountUsd` is the USD "
               "value at deposit time. `epoch` must be an epoch start (else 400 `invalid_epoch`); "
               "`foundationOnly` keeps the foundation wallet's deposits.")

ROUTES: tuple[Route, ...] = (
    Route("/gauges", "gauges", gauges, "Gauges with their pools", array_of("Gauge"),
          description="Every gauge of the snapshot with its pool (type, token symbols, TVL), this epoch's votes, "
          "the foundation's vote share and the APR breakdown (emission, fee, bribe, total); most-voted first.",
          tags=TAGS),
    Route("/gauges/{gaugeAddress}", "gauges_detail", gauges_detail, "One gauge and its APR history", ref("GaugeDetail"),
          params=(GAUGE_ADDRESS,),
          description="`current`: the gauge in the snapshot; `history`: its APR breakdown at up to the last 672 "
          "successful snapshots, oldest first. 404 `gauge_not_found` when the snapshot has no such gauge.",
          errors=(ErrorDoc(404, GAUGE_NOT_FOUND, "The snapshot has no gauge with this address."),),
          tags=TAGS),
    Route("/gauges/{gaugeAddress}/bribes", "gauges_bribes", gauges_bribes, "Bribe deposits of one gauge",
          array_of("BribeEvent"), params=(GAUGE_ADDRESS, LIMIT_1000, EPOCH, FOUNDATION_ONLY),
          description=BRIBES_DESC, tags=TAGS),
    Route("/gauges/{gaugeAddress}/kpis", "gauges_kpis", gauges_kpis, "Foundation KPI snapshots of one gauge",
          array_of("FoundationKpi"), params=(GAUGE_ADDRESS, EPOCH, LIMIT_1000), error_prefix="foundation_kpis",
          description="`/foundation/kpis` for one gauge.", tags=TAGS),
    Route("/gauges/{gaugeAddress}/rewards", "gauges_rewards", gauges_rewards, "Voter rewards of one gauge per epoch",
          array_of("GaugeEpochReward"), params=(GAUGE_ADDRESS, REWARDS_LIMIT),
          description="The newest `limit` epochs with rewards, newest first: token by token, the bribes deposited "
          "(USD at deposit time) and the fee rewards claimed by the epoch's voters (USD at claim time).",
          tags=TAGS),
    Route("/bribes", "bribes", bribes, "Bribe deposits", array_of("BribeEvent"),
          params=(POOL, FOUNDATION_ONLY, EPOCH, LIMIT_1000), description=BRIBES_DESC, tags=TAGS),
    Route("/bribes/totals", "bribes_totals", bribes_totals, "Bribe totals per epoch", array_of("BribeTotal"),
          description="One row per epoch with deposits up to the snapshot, the 52 newest epochs, newest first.",
          tags=TAGS),
    Route("/pools/{poolId}/bribes", "pool_bribes", pool_bribes, "Bribe deposits of one pool", array_of("BribeEvent"),
          params=(POOL_ID, LIMIT_1000, EPOCH, FOUNDATION_ONLY), error_prefix="bribes",
          description="Alias of `/api/stats/bribes?pool=<poolId>`: the same query, the same rows. " + BRIBES_DESC,
          tags=TAGS),
    Route("/votes", "votes", votes, "Vote allocations", array_of("VoteSnapshot"),
          params=(EPOCH, VENFT_ID, POOL, LATEST_ONLY),
          description="Vote allocations (veNFT, pool, weight, epoch) cast up to the snapshot, newest epoch first, "
          "then by veNFT id and pool. With `latestOnly` (default true) each veNFT's most recent voting epoch only; "
          "false returns the full history.",
          tags=TAGS),
    Route("/foundation", "foundation", foundation, "Foundation summary", ref("FoundationSummary"),
          description="The foundation wallet's owned veNFTs, vote escrow held, voting power and current-epoch vote "
          "allocation at the snapshot, with its lifetime and recent (30 days) bribe spend and reward claims.",
          tags=TAGS),
    Route("/foundation/votes", "foundation_votes", foundation_votes, "Foundation vote snapshots",
          array_of("FoundationVote"), params=(EPOCH, LATEST_ONLY),
          description="The foundation veNFTs' allocations, one representative snapshot per epoch (the latest "
          "successful snapshot inside it); `latestOnly` (default true) keeps the newest epoch only.",
          tags=TAGS),
    Route("/foundation/bribes", "foundation_bribes", foundation_bribes, "Foundation bribe deposits",
          array_of("BribeEvent"), params=(POOL, EPOCH, LIMIT_1000), error_prefix="bribes",
          description="Bribes funded by the foundation wallet, newest first: `/bribes?foundationOnly=true`.",
          tags=TAGS),
    Route("/foundation/kpis", "foundation_kpis", foundation_kpis, "Foundation KPI snapshots",
          array_of("FoundationKpi"), params=(EPOCH, POOL, LIMIT_1000),
          description="KPI rows of the gauges the foundation voted for or bribed, one representative snapshot per "
          "epoch (the latest successful one inside it), newest epoch first. Classification method: "
          "docs/methodology/kpi-classification.md, version = `/config` methodologyVersion.",
          tags=TAGS),
    Route("/ve", "ve", ve, "Vote-escrow statistics", ref("VeStats"),
          description="Total locked, total voting power, permanent vs decaying locks, lock counts and the average "
          "remaining lock duration at the snapshot block.",
          tags=TAGS),
    Route("/epochs", "epochs", epochs, "Epoch summaries", array_of("EpochSummary"), params=(EPOCH_LIMIT,),
          description="Epochs with bribes or votes up to the snapshot, newest first: bribes deposited, foundation "
          "bribe spend and vote share, gauges voted for and the five most-voted gauges.",
          tags=TAGS),
    Route("/markets/bribes", "markets_bribes", markets_bribes, "Bribe market of an epoch", array_of("BribeMarketRow"),
          params=(EPOCH, MIN_USD, LIMIT_500),
          description="Per gauge for the epoch (default: the most recent epoch with bribes): bribes deposited, the "
          "pool's fees (voter fee rewards) over the epoch's ended hours, the epoch's votes and dollarPerVote = "
          "(bribes + fees) / votes; sorted by total reward USD descending.",
          tags=TAGS),
    Route("/epochs/{epochStart}", "epochs_detail", epochs_detail, "One epoch in detail", ref("EpochDetail"),
          params=(EPOCH_START,),
          description="The foundation's votes and KPI rows from one representative snapshot inside the epoch (the "
          "latest successful one), and every bribe deposited in the epoch. A value that is not an epoch start "
          "(Thursday 00:00 UTC, a multiple of 604800) is a 400 `invalid_epoch`.",
          tags=TAGS),
)
