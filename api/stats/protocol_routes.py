"""Route table of the protocol and system routes of /api/stats: the protocol snapshot, its
history and daily totals, /config and /health. Handlers: protocol_handlers.py; schemas:
protocol_schemas.py."""
from __future__ import annotations

from ..routes import ErrorDoc, Route
from ..schema import array_of, ref
from . import protocol_handlers
from ..validation import Param

CONFIG_CACHE_SECONDS = 300

DAYS_30 = Param("days", "integer", "Number of days in the window", default=30, minimum=1, maximum=365)

ROUTES: tuple[Route, ...] = (
    Route(
        "/protocol",
        "protocol",
        protocol_handlers.protocol,
        "Latest protocol snapshot",
        ref("ProtocolSnapshot"),
        description="Protocol-wide TVL, rolling 24h/7d/30d volume and fees (with the windows they summed), "
        "gauges, emissions, vote escrow and core-token price of the most recent successful snapshot.",
        tags=("protocol",),
    ),
    Route(
        "/protocol/history",
        "protocol_history",
        protocol_handlers.protocol_history,
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
        protocol_handlers.protocol_daily,
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
        protocol_handlers.config,
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
        protocol_handlers.health,
        "Snapshot freshness",
        ref("HealthStatus"),
        cache_seconds=0,
        snapshot=False,
        description="HTTP 200 with `healthy: true` while the latest successful snapshot is younger than the "
        "staleness threshold (45 minutes) by the wall clock; otherwise HTTP 503, `ok: false`, error code "
        "`unhealthy`, with the same freshness object as `error.details`. Status and top-level fields are about "
        "chain 56; `chains` reports every configured chain (snapshot freshness, subgraph lag behind the chain "
        "head, data coverage, what is still filling in) without changing the status. Never cached.",
        errors=(
            ErrorDoc(
                503,
                protocol_handlers.UNHEALTHY,
                "The latest successful snapshot is stale or missing, or the warehouse is unreachable; "
                "`error.details` is the HealthStatus object.",
                details_schema=ref("HealthStatus"),
            ),
        ),
        tags=("system",),
    ),
)
