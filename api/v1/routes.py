"""The /v1 route table (spec v1-api.md; ADR 0009). Routing, validation, caching, error codes and
the contract at /openapi.json are all generated from it. Reference routes: reference.py."""
from __future__ import annotations

from ..guide import Guide
from ..routes import ErrorDoc, Family, Route
from ..schema import array_of, components, ref
from ..validation import Param
from . import protocol, reference
from .discovery_routes import ROUTES as DISCOVERY_ROUTES
from .discovery_schemas import SCHEMAS as DISCOVERY_SCHEMAS
from .envelope import V1_ENVELOPE
from .price_observations import SCHEMAS as PRICE_OBSERVATION_SCHEMAS
from .price_history_routes import ROUTES as PRICE_HISTORY_ROUTES, SCHEMAS as PRICE_HISTORY_SCHEMAS
from .protocol_schemas import SCHEMAS as PROTOCOL_SCHEMAS
from .route_parts import windows_param, CHAIN_IDS, CHAIN_UNAVAILABLE_DOC, HEALTH_SECONDS, MARKET_SECONDS, REFERENCE_SECONDS
from .schemas import SCHEMAS
from .token_routes import ROUTES as TOKEN_ROUTES, SCHEMAS as TOKEN_SCHEMAS

CONTRACT_VERSION = "0.2.0"  # 0.2.0: token detail and price routes (additive)
ALIGNMENT = Param("alignment", "enum", "rolling: periods end at each chain's latest completed hourly bucket; utc: "
                  "calendar periods shared by every chain, the running one clipped and marked partial",
                  default="rolling", choices=("rolling", "utc"))
WINDOWS = windows_param("24h,7d,30d")
PROTOCOL_DESCRIPTION = (
    " Covers the chains with the `pools` feature (default: all of them; a selected chain without it is 404 "
    "`feature_unsupported`). Each chain's flows are sums of its hourly buckets over spans ending at or before its "
    "own anchor (the end of its latest hourly bucket completed by its published snapshot); totals add these independently observed spans and say "
    "which chains they added and which are missing: a missing chain makes a total a known subtotal (`complete: false`), "
    "never a silent zero. Backing, bridge balances, holders, prices and APRs are never added (`policy`)."
)
UNHEALTHY_DOC = ErrorDoc(503, reference.UNHEALTHY, "The warehouse is unreachable, or no chain has a published snapshot "
                         "within the freshness limit.")


def reference_route(path: str, name: str, handler, summary: str, schema: dict, description: str) -> Route:
    return Route(path, name, handler, summary, schema, params=(CHAIN_IDS,), cache_seconds=REFERENCE_SECONDS,
                 snapshot=True, multichain=True, description=description, tags=("reference",))


def protocol_route(path: str, name: str, handler, summary: str, schema: str, description: str,
                   params: tuple[Param, ...] = (CHAIN_IDS,)) -> Route:
    return Route(path, name, handler, summary, ref(schema), params=params, cache_seconds=MARKET_SECONDS,
                 snapshot=True, multichain=True, feature="pools", description=description + PROTOCOL_DESCRIPTION,
                 tags=("protocol",), errors=(CHAIN_UNAVAILABLE_DOC,))


ROUTES: tuple[Route, ...] = (
    reference_route(
        "/chains", "chains", reference.chains, "Public chains: features, freshness and indexed coverage", array_of("V1Chain"),
        "Every selected public chain: name, network, each feature with its status (unsupported, or the chain's state), "
        "its latest published snapshot (snapshotAt, indexedAt, availableAt) and state, and what its indexed data "
        "covers (first market activity, history and snapshot ranges, subgraph lag). Start here: request a capability "
        "only where its status is fresh, failed or stale."),
    reference_route(
        "/deployments", "deployments", reference.deployments, "Contract addresses per chain", array_of("V1Deployment"),
        "The protocol's contracts on every selected chain, each with the feature it serves and whether it is indexed "
        "(a deployment alone does not establish indexed data: `indexed` is true only when the chain has a published "
        "snapshot and supports the feature)."),
    Route("/health", "health", reference.health, "Service health over every public chain", ref("V1Health"),
          cache_seconds=HEALTH_SECONDS, snapshot=False, errors=(UNHEALTHY_DOC,), tags=("reference",),
          description="200 `ok` when every public chain is fresh, `degraded` (naming the failed, stale and unavailable "
          "chains) when some are not; 503 `unhealthy` when the warehouse is unreachable or no chain's snapshot is within the "
          "freshness limit."),
    Route("/health/chains", "health_chains", reference.health_chains, "Health per public chain", array_of("V1ChainHealth"),
          cache_seconds=HEALTH_SECONDS, snapshot=False, errors=(UNHEALTHY_DOC,), tags=("reference",),
          description="Per public chain: the latest published snapshot and its age, the latest attempt, subgraph lag, "
          "coverage, what is still filling in, and whether the chain's RPC answers now. A chain past the freshness "
          "limit is `stale` while the others stay `fresh`; 503 `unhealthy` only when the warehouse is unreachable."),
    protocol_route(
        "/protocol", "protocol", protocol.protocol, "Protocol observation per chain and totals", "V1Protocol",
        "Per covered chain, at its published snapshot: eligible user-pool liquidity (TVL, split V2 / CL), pool and "
        "active gauge counts, and rolling 24h and 7d volume and fees, each window saying what it summed; and their "
        "totals."),
    protocol_route(
        "/protocol/history", "protocol_history", protocol.periods, "Hourly protocol flows and TVL per chain", "V1ProtocolPeriods",
        "The last `days` days of hourly periods per covered chain (oldest first): volume and fees summed from its "
        "hourly buckets, the TVL of its latest published snapshot in the period, and per period index the totals. "
        "Gaps are kept with their reason.",
        params=(CHAIN_IDS, ALIGNMENT, Param("days", "integer", "Days of hourly periods", default=7, minimum=1, maximum=90))),
    protocol_route(
        "/protocol/daily", "protocol_daily", protocol.periods, "Daily protocol flows and TVL per chain", "V1ProtocolPeriods",
        "The last `days` daily periods per covered chain (oldest first): rolling 24-hour periods ending at its anchor, "
        "or UTC days (alignment=utc) with the running day clipped at the anchor and marked partial; per period index "
        "the totals. Gaps are kept with their reason.",
        params=(CHAIN_IDS, ALIGNMENT, Param("days", "integer", "Daily periods", default=90, minimum=1, maximum=3660))),
    protocol_route(
        "/protocol/trailing", "protocol_trailing", protocol.trailing, "Trailing windows per chain and totals",
        "V1ProtocolTrailing",
        "Volume and fees over each requested trailing window of every covered chain, with the buckets each summed, "
        "and per window the totals.", params=(CHAIN_IDS, WINDOWS)),
    protocol_route(
        "/protocol/volume", "protocol_volume", protocol.volume, "Cumulative volume per chain", "V1ProtocolVolume",
        "Every public chain's cumulative volume and fees, from its first market activity to its anchor, and their "
        "totals.", params=()),
    *DISCOVERY_ROUTES,
    *TOKEN_ROUTES,
    *PRICE_HISTORY_ROUTES,
)

V1_GUIDE = Guide(
    description=(
        "Read-only multichain JSON data of a vote-escrow DEX on chains 56, 4663, 8453, 1 and 5042: chains and their "
        "coverage, deployments, health, protocol figures (per chain and totals, rolling windows, hourly and daily "
        "periods, cumulative volume), curation, discovery of pools and tokens, token detail and prices (current, "
        "batch, trailing changes, price history with a reason for every period without a price); more routes land "
        "release by release; /openapi.json lists what is served."
    ),
    envelope={
        "success": '{"ok": true, "data": <endpoint-specific>, "meta": {"chainIds", "chains": [{"chainId", "state", '
                   '"snapshotAt", "indexedAt", "availableAt"}], "complete", "generatedAt", "cacheTtlSeconds"}}',
        "failure": '{"ok": false, "error": {"code", "message"[, "details"]}, "meta": {"generatedAt"}}',
        "rule": "branch on `ok`; check `meta.complete` and each chain's `state` before treating values as complete; "
                "`generatedAt` and `cacheTtlSeconds` are serving times, not chain observations",
    },
    errors={
        "400": "`invalid_<parameter>`, `invalid_range` or `unknown_parameter`: fix the request; `invalid_cursor`, "
               "`cursor_expired` or `price_history_source_changed`: restart the traversal without the cursor",
        "404": "`chain_not_public` (GET /v1/chains lists the public chains), `feature_unsupported` (a selected chain "
               "lacks the route's feature: see its features in GET /v1/chains), `token_not_found` or no such route",
        "500": "`<route>_query_failed` or `internal_error`: retry with exponential backoff",
        "503": "`source_unavailable`, `chain_unavailable` (no selected chain has published yet) or `unhealthy`: retry "
               "after the Retry-After header",
    },
    caching=(
        "Answers resting on published snapshots carry a weak ETag W/\"cov-<digest>\" over each covered chain's snapshot "
        "and state, and `Cache-Control: public, max-age=0, s-maxage=<cacheTtlSeconds>, stale-while-revalidate=30`; send "
        "the ETag back in If-None-Match: 304 means nothing changed. s-maxage: reference routes 300, protocol routes 60; "
        "health is `no-store`; errors are `no-store`."
    ),
    polling="Each chain publishes a snapshot every 15 minutes; poll no faster than cacheTtlSeconds and detect new data by the ETag.",
    openapi_errors=(
        "and `Cache-Control: no-store`: 400 for a malformed query (one code per parameter, `unknown_parameter` for any "
        "other name), 404 `chain_not_public` for a chain ID that is not public, 404 `feature_unsupported` for a chain "
        "without the route's feature, 500 `<route>_query_failed` when a "
        "warehouse query fails, 503 `source_unavailable` when the warehouse is unreachable and no snapshot is known, "
        "503 `chain_unavailable` when a route needs a selected chain's data and none has published"
    ),
)

FAMILY = Family(
    name="v1",
    prefix="/v1",
    title="multichain market, governance and account data API",
    version=CONTRACT_VERSION,
    description=(
        "Multichain (chain IDs 56, 4663, 8453, 1, 5042), read-only data of a vote-escrow DEX. Pools and tokens are "
        "identified by chain ID plus address; collections take `chainIds` (default all). Every answer says which "
        "chains it covers and, per chain, the published snapshot it rests on (`meta.chains`); a stale or unavailable "
        "chain is flagged, never hidden, and makes `meta.complete` false. Start with GET /v1/chains. All routes are "
        "GET (HEAD and OPTIONS too) with open CORS."
    ),
    chain_id=0,  # multichain: every route's coverage names its chains
    routes=ROUTES,
    schemas=components(SCHEMAS, PROTOCOL_SCHEMAS, DISCOVERY_SCHEMAS, PRICE_OBSERVATION_SCHEMAS, TOKEN_SCHEMAS,
                       PRICE_HISTORY_SCHEMAS),
    envelope=V1_ENVELOPE,
    guide=V1_GUIDE,
    contract_path="/openapi.json",
    tags={
        "curation": "The reviewed curation publication: its categories and token lists.",
        "discovery": "Pools and tokens across chains: filters, sorts, facets and signed cursors.",
        "protocol": "Protocol totals per chain and in total: now, history, daily, trailing windows, volume.",
        "reference": "Chains, deployments and health: where to start.",
        "tokens": "One token's detail, prices, trailing windows, price changes and price history.",
    },
)
