"""The /api/stats route table: routing, validation, caching, error codes and the OpenAPI
contract are all generated from it.

To add a route: write `warehouse_sql/queries/stats/<name>.sql` (typed `{name:Type}`
parameters, comment naming them), an `async def <name>(ctx)` in handlers.py, its data schema
in schemas.py, and one `Route(...)` line below. Nothing else changes.
"""
from __future__ import annotations

from ve_analytics.api.routes import ErrorDoc, Family, Route
from ve_analytics.api.stats import governance, handlers, market
from ve_analytics.api.schema import array_of, ref
from ve_analytics.api.stats.schemas import SCHEMAS
from ve_analytics.api.validation import Param
from ve_analytics.core.chains import STATS_CHAIN_ID

CONTRACT_VERSION = "0.1.0"
CONFIG_CACHE_SECONDS = 300

DAYS_30 = Param("days", "integer", "Number of days in the window", default=30, minimum=1, maximum=365)


ROUTES: tuple[Route, ...] = (
    Route(
        "/protocol",
        "protocol",
        handlers.protocol,
        "Latest protocol snapshot",
        ref("ProtocolSnapshot"),
        description="Protocol-wide TVL, rolling 24h/7d/30d volume and fees (with the windows they summed), "
        "gauges, emissions, vote escrow and core-token price of the most recent successful snapshot.",
        tags=("protocol",),
    ),
    Route(
        "/protocol/history",
        "protocol_history",
        handlers.protocol_history,
        "Protocol history, one point per snapshot",
        array_of("HistoryPoint"),
        params=(DAYS_30,),
        description="Every successful 15-minute snapshot with snapshotAt in (latest - days x 24h, latest], "
        "oldest first. Failed runs never appear.",
        tags=("protocol",),
    ),
    Route(
        "/protocol/daily",
        "protocol_daily",
        handlers.protocol_daily,
        "Protocol volume and fees per UTC day",
        array_of("DailyPoint"),
        params=(DAYS_30,),
        description="One row per UTC day for the `days` days ending with the snapshot's UTC day, oldest first. "
        "A day without data is listed with null values; `partial` is true only for the snapshot's own day.",
        tags=("protocol",),
    ),
    Route(
        "/config",
        "config",
        handlers.config,
        "Service configuration",
        ref("Config"),
        cache_seconds=CONFIG_CACHE_SECONDS,
        description="Chain, methodology version, snapshot cadence, foundation wallet, tracked pairs, "
        "contract address book and the latest successful snapshot.",
        tags=("system",),
    ),
    Route(
        "/health",
        "health",
        handlers.health,
        "Snapshot freshness",
        ref("HealthStatus"),
        cache_seconds=0,
        snapshot=False,
        description="HTTP 200 with `healthy: true` while the latest successful snapshot is younger than the "
        "staleness threshold (45 minutes) by the wall clock; otherwise HTTP 503, `ok: false`, error code "
        "`unhealthy`, with the same freshness object as `error.details`. Never cached.",
        errors=(
            ErrorDoc(
                503,
                handlers.UNHEALTHY,
                "The latest successful snapshot is stale or missing, or the warehouse is unreachable; "
                "`error.details` is the HealthStatus object.",
                details_schema=ref("HealthStatus"),
            ),
        ),
        tags=("system",),
    ),
)

FAMILY = Family(
    name="stats",
    prefix="/api/stats",
    title="analytics API",
    version=CONTRACT_VERSION,
    description=(
        "Single-chain (chain ID 56), snapshot-backed statistics of a vote-escrow DEX. A job publishes a "
        "snapshot every 15 minutes; every route reads the latest successful one, so two callers see identical "
        "numbers until the next snapshot lands (`meta.snapshotAt`, weak ETag `W/\"snap-<snapshotAt>\"`). "
        "All routes are GET, return the `{ok, data|error, meta}` envelope and carry "
        "`Access-Control-Allow-Origin: *`. Poll no faster than every 60 s."
    ),
    chain_id=STATS_CHAIN_ID,
    routes=ROUTES + governance.ROUTES + market.ROUTES,
    schemas={**SCHEMAS, **governance.SCHEMAS, **market.SCHEMAS},
)
