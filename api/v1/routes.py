"""The /v1 family (spec v1-api.md; ADR 0009), assembled from its domains: each domain package
(reference, protocol, curation, discovery, pools, tokens) declares its routes, schemas, handlers and row
shaping, and exports `ROUTES` and `SCHEMAS` from its routes.py; what they share is in common/.
Routing, validation, caching, error codes and the contract at /openapi.json are all generated
from this table; a path, route name or schema name declared twice stops the service at start."""
from __future__ import annotations

from ..guide import Guide
from ..routes import Family, Route
from ..schema import components
from .accounts import routes as accounts
from .auto_manage import routes as auto_manage
from .bridge import routes as bridge
from .curation import routes as curation
from .discovery import routes as discovery
from .pools import routes as pools
from .envelope import V1_ENVELOPE
from .gauges import routes as gauges
from .governance import routes as governance
from .protocol import routes as protocol
from .reference import routes as reference
from .tokens import routes as tokens
from .xcore import routes as xcore

CONTRACT_VERSION = "0.16.0"  # 0.2.0: token detail and price routes; 0.3.0: pool detail; 0.4.0: pool ticks, trailing windows and bribes; 0.5.0: pool history and daily; 0.6.0: governance: /v1/bribes, /v1/gauges (+ detail, history, rewards, bribes), /v1/epochs (+ detail), /v1/markets/bribes, /v1/votes (additive); 0.7.0: /v1/votes?view=current (V1VotePage becomes a oneOf of V1VoteEventPage and V1VoteAllocationPage on `view`); 0.8.0: /v1/bridge and /v1/bridge/{guid}, the chains' `bridge` feature (additive); 0.9.0: an auto-managed vault's /rebalances and /activity (additive); 0.10.0: /v1/auto-manage/vaults, a vault's detail and /history (additive); 0.11.0: /v1/xcore, its rate history and epochs (additive); 0.12.0: /v1/accounts/{address}/xcore (additive); 0.13.0: /v1/accounts/{address}/voting-positions, /votes and /activity (additive); 0.14.0: /v1/accounts/{address}/rewards (additive); 0.15.0: /v1/accounts/{address}/liquidity-positions and /portfolio, liquidity records in /activity, the chains' `liquidityPositions` feature (additive); 0.16.0: rebases in /rewards (kind rebase, a rebase's gauge null), /portfolio and /activity (rebaseClaim, lockDepositFor), the chains' `rebases` feature; gauge emissions in /rewards (kind emission: positionId, tokenId null; each chain's `emissions` status and coverage; its cursors of format 2)
DOMAINS = (reference, protocol, curation, discovery, pools, tokens, gauges, governance, bridge, auto_manage, xcore,
           accounts)  # in the contract's order
ROUTES: tuple[Route, ...] = tuple(route for domain in DOMAINS for route in domain.ROUTES)

V1_GUIDE = Guide(
    description=(
        "Read-only multichain JSON data of a vote-escrow DEX on chains 56, 4663, 8453, 1 and 5042: chains and their "
        "coverage, deployments, health, protocol figures (per chain and totals, rolling windows, hourly and daily "
        "periods, cumulative volume), curation, discovery of pools and tokens, pool detail, token detail and prices (current, "
        "batch, trailing changes, price history with a reason for every period without a price), gauges (kinds, "
        "timelines, Voter weight, emissions, per-epoch history and rewards), notified funding records (bribes), epochs, "
        "the vote market of an epoch, the Voter's logs, the core token's cross-chain messages, auto-managed vaults, the escrow-share token and one address's holdings of it; more routes land "
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
        "400": "`invalid_<parameter>`, `invalid_range`, `epoch_not_aligned`, `filter_not_in_view`, `vault_not_concentrated` or `unknown_parameter`: fix the request; `invalid_cursor`, "
               "`cursor_expired` or `price_history_source_changed`: restart the traversal without the cursor",
        "404": "`chain_not_public` (GET /v1/chains lists the public chains), `feature_unsupported` (a selected chain "
               "lacks the route's feature: see its features in GET /v1/chains), `token_not_found`, `pool_not_found`, `gauge_not_found`, `epoch_before_deployment`, `epoch_in_future`, `bridge_message_not_found`, `vault_not_found`, `xcore_not_deployed` or no such route",
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
    schemas=components(*(domain.SCHEMAS for domain in DOMAINS)),
    envelope=V1_ENVELOPE,
    guide=V1_GUIDE,
    contract_path="/openapi.json",
    tags={
        "accounts": "One address across chains, each at its own published snapshot: its veNFTs, votes and escrow-share token so far. "
                    "Reads only: not authority to sign.",
        "auto-manage": "Auto-managed liquidity vaults: range resets, deposits, redemptions and claims.",
        "bridge": "The core token's cross-chain messages: state (LayerZero Scan's words) and both sides' events.",
        "curation": "The reviewed curation publication: its categories and token lists.",
        "discovery": "Pools and tokens across chains: filters, sorts, facets and signed cursors.",
        "gauges": "Gauges across chains: kinds, timelines, Voter weight, emissions, this epoch's bribes and fees, APRs.",
        "governance": "Notified funding (bribes) and epochs across gauges and chains.",
        "pools": "One pool's detail (its discovery figures, emissions scenario and liquidity state) and its "
                 "initialized ticks.",
        "protocol": "Protocol totals per chain and in total: now, history, daily, trailing windows, volume.",
        "reference": "Chains, deployments and health: where to start.",
        "tokens": "One token's detail, prices, trailing windows, price changes and price history.",
        "xcore": "The escrow-share token: rate, supply and backing counted once, their reconciliation across chains, "
                 "rate history and epochs.",
    },
)
