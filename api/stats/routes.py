"""The /api/stats family: its route tables, joined. Routing, validation, caching, error codes
and the OpenAPI contract are all generated from them.

Each domain has a route table, handlers and schemas: protocol_* (protocol snapshot, /config,
/health), governance_* (bribes, votes, vote escrow, epochs, gauges, foundation) and market_*
(pools, tokens, core token, competitors; the live chain read in live_fees.py). To add a route:
write `warehouse_sql/queries/stats/<name>.sql` (typed `{name:Type}` parameters, comment naming
them), an `async def <name>(ctx)` in the domain's handlers module, its data schema in the
domain's schemas module, and one `Route(...)` in the domain's route table. Nothing else changes.
"""
from __future__ import annotations

from ..routes import Family
from ..schema import components
from . import (
    governance_routes,
    governance_schemas,
    market_routes,
    market_schemas,
    protocol_routes,
    protocol_schemas,
)
from ...core.chains import STATS_CHAIN_ID

CONTRACT_VERSION = "0.1.0"

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
    routes=protocol_routes.ROUTES + governance_routes.ROUTES + market_routes.ROUTES,
    schemas=components(protocol_schemas.SCHEMAS, governance_schemas.SCHEMAS, market_schemas.SCHEMAS),
    tags={
        "competitors": "Other DEXes of the chain compared with this one, pair by pair.",
        "governance": "Gauges, votes, bribes, vote escrow, epochs and the foundation's voting.",
        "live": "Values read from the chain at request time rather than from a snapshot.",
        "pools": "Pools with TVL, volume, fees and APR, one pool's detail and daily series, dynamic fees.",
        "protocol": "Protocol totals now, by snapshot and by day.",
        "system": "Health and configuration of this API.",
        "tokens": "Tokens with prices and liquidity, the core token.",
    },
)
