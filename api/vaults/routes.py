"""The /api/v1 route table (vault data API). Routing, validation, memoization TTLs, cache
headers, error codes and the OpenAPI contract all come from it, like /api/stats.

Every route reads the vault book's on-chain state live (Multicall3, one block per answer,
memoized per worker) and the latest published stats rows where it shows prices or APRs.
The history and user routes also read the vault warehouse tables (vault_hourly, vault_daily,
vault_events), filled by the vault_history asset.
"""
from __future__ import annotations

from ..ratelimit import RATE_LIMITED
from ..routes import ErrorDoc, Family, Route
from ..schema import array_of, components, ref
from ..guide import VAULT_GUIDE
from ..validation import Param
from . import handlers, schemas, user_schemas, users
from .envelope import VaultEnvelope
from .sources import UPSTREAM_ERROR
from ...core.chains import STATS_CHAIN_ID

CONTRACT_VERSION = "1.0.0"
VAULTS_TTL, HEALTH_TTL, GAUGES_TTL, TOKENS_TTL = 15, 10, 60, 60  # spec: server memoization = s-maxage
HISTORY_TTL, POSITIONS_TTL = 60, 10

COMMON_ERRORS = (
    ErrorDoc(429, RATE_LIMITED, "Too many requests from this client (token bucket, see the API description); retry after Retry-After seconds."),
    ErrorDoc(502, UPSTREAM_ERROR, "The chain RPC did not answer at all; retry with backoff. A partial answer is a 200 with meta.degraded true."),
)
NOT_FOUND_DOC = ErrorDoc(404, handlers.NOT_FOUND, "No vault with this configuration key or address.")
BAD_ADDRESS_DOC = ErrorDoc(400, handlers.INVALID_ADDRESS, "An address in the path (a wallet, or a vault given as 0x...) is not 0x followed by exactly 40 hex digits.")

KEY_OR_ADDRESS = Param(
    "keyOrAddress",
    "string",
    "A vault's configuration key (e.g. cl-wbnb-usdt) or its address in any case",
    location="path",
    pattern=r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}",
)
USER_ADDRESS = Param("address", "address", "The wallet's address in any case", location="path")
INCLUDE_LIST = Param(
    "include",
    "string",
    "Comma list of extras per vault: integration (the manifest), abi (the manifest with full JSON ABIs)",
    pattern=r"(integration|abi)(,(integration|abi))*",
)


def route(path: str, name: str, handler, summary: str, schema: dict, ttl: int, description: str, params=(), errors=(), tags=("vaults",)) -> Route:
    return Route(
        path, name, handler, summary, schema, params=tuple(params), cache_seconds=ttl, snapshot=False, memoized=True,
        description=description, errors=tuple(errors) + COMMON_ERRORS, tags=tags, sources=("chain-rpc",),
    )


ROUTES: tuple[Route, ...] = (
    route("/meta", "meta", handlers.meta, "Protocol root", ref("Meta"), VAULTS_TTL,
          "Chain id, the shared contract addresses (including vaultFactory, zapper and positionManager), protocol tokens, "
          "vault counts by kind, the global pause and the total vault TVL (null when any vault's TVL is unknown).",
          tags=("system",)),
    route("/health", "health", handlers.health, "Per-source status", ref("Health"), HEALTH_TTL,
          "Status of each source: onchain (the vault reads at the head block), stats (age of the latest published stats "
          "snapshot against the staleness threshold) and subgraph (its _meta head: lagging more than 100 blocks behind "
          "the chain or reporting indexing errors is degraded). Statuses: ok, degraded, down; `status` is the worst. "
          "Always 200: the status is the answer.",
          tags=("system",)),
    route("/vaults", "vaults", handlers.vaults, "All vaults", array_of("VaultWithManifest"), VAULTS_TTL,
          "Every configured vault's live state at meta.indexedBlock; include=integration adds the manifest, include=abi "
          "the manifest with its JSON ABIs.",
          params=(Param("kind", "enum", "Only vaults of this kind", choices=("cl", "v2")), INCLUDE_LIST)),
    route("/vaults/health", "vaults_health", handlers.vaults_health, "Rebalance health of the CL vaults", array_of("VaultHealth"), HEALTH_TTL,
          "Concentrated-liquidity vaults only: tick, range, distance to the range edges, needsRebalance, lastRebalance, "
          "isCalm, paused and actionable = needsRebalance and isCalm and not paused (a keeper may rebalance now); "
          "actionable=true|false keeps the vaults with that value (unknown ones match neither).",
          params=(Param("actionable", "boolean", "Keep only vaults whose actionable flag has this value"),), tags=("keepers",)),
    route("/vaults/{keyOrAddress}", "vault", handlers.vault, "One vault with its integration manifest", ref("VaultDetail"), VAULTS_TTL,
          "The vault's live state and its integration manifest; include=abi adds the full JSON ABIs.",
          params=(KEY_OR_ADDRESS, Param("include", "enum", "abi: add the full JSON ABIs to the manifest", choices=("abi",))),
          errors=(NOT_FOUND_DOC, BAD_ADDRESS_DOC)),
    route("/vaults/{keyOrAddress}/history", "vault_history", users.vault_history, "A vault's time series for charts", ref("VaultHistory"), HISTORY_TTL,
          "Hour or UTC-day rows (vault_hourly / vault_daily) for the last `days` days ending at the vault's newest row, "
          "oldest first: TVL, share price, supply, amounts, harvested USD, APR, deposit and withdrawal counts; the running "
          "UTC day is partial. Rows come from the hourly history run; unknown USD values stay null.",
          params=(KEY_OR_ADDRESS,
                  Param("period", "enum", "Row size: hourly or daily", default="daily", choices=("hourly", "daily")),
                  Param("days", "integer", "How many days back from the newest row", default=30, minimum=1, maximum=365)),
          errors=(NOT_FOUND_DOC, BAD_ADDRESS_DOC)),
    route("/gauges", "gauges", handlers.gauges, "Every gauge with APR, mapped to its vault", array_of("Gauge"), GAUGES_TTL,
          "Every gauge of the latest published stats snapshot with its APR breakdown, mapped to the configured vault "
          "wrapping it (vault null when none); a vault's gauge is always listed, with isAlive read on chain and a null "
          "APR (and meta.degraded) when the snapshot has no row for it.",
          params=(Param("alive", "boolean", "Keep only gauges whose isAlive has this value"),)),
    route("/tokens", "tokens", handlers.tokens, "Tokens across the vaults", array_of("TokenRow"), TOKENS_TTL,
          "Every token held by a vault: symbol and decimals read on chain, the USD price of the latest published stats "
          "snapshot (null when unknown), logo (always null: no logo source is configured)."),
    route("/users/{address}/positions", "user_positions", users.user_positions, "A wallet's active positions and P&L", ref("Portfolio"), POSITIONS_TTL,
          "Every configured vault where the wallet's live balanceOf at meta.indexedBlock is positive: shares, its share of "
          "the vault's totals, value at the latest published prices, and P&L = valueUsd + withdrawnUsd - depositedUsd with "
          "each interaction valued at its own time (indexed deposits and withdrawals). P&L is given only when the indexed "
          "interactions reconcile with the live balance (pnlComplete); totals.usd and totalPnlUsd are null with "
          "usdComplete / pnlComplete false when any position's part is unknown. A wallet without positions answers an "
          "empty list with totals.usd 0 and totalPnlUsd 0 (known to be zero).",
          params=(USER_ADDRESS,), errors=(BAD_ADDRESS_DOC,), tags=("users",)),
    route("/users/{address}/vaults/{keyOrAddress}", "user_vault", users.user_vault, "A wallet's position in one vault", ref("UserVault"), POSITIONS_TTL,
          "The position (as in /users/{address}/positions) plus every indexed deposit and withdrawal, newest first. A "
          "wallet that never interacted answers zero shares and an empty history.",
          params=(USER_ADDRESS, KEY_OR_ADDRESS), errors=(NOT_FOUND_DOC, BAD_ADDRESS_DOC), tags=("users",)),
)

FAMILY = Family(
    name="vaults",
    prefix="/api/v1",
    title="vault data API",
    version=CONTRACT_VERSION,
    description=(
        "Pre-assembled vault data for chain 56: live on-chain vault state read through Multicall3 at one block per "
        "answer (meta.indexedBlock), prices and APRs from the latest published stats snapshot, and an integration "
        "manifest per vault for deposits, zaps and withdrawals. GET, HEAD and OPTIONS only, open CORS. Answers are memoized "
        "server-side for their s-maxage (vaults 15 s, health 10 s, gauges, tokens and history 60 s, user positions 10 s). "
        "History and user P&L come from the warehouse's indexed vault events and hour/day rows. Rate limit: best-effort "
        "token bucket per client address and worker, burst VAULT_API_RATE_BURST (default 60) then "
        "VAULT_API_RATE_PER_SECOND (default 20) per second; past it 429 `rate_limited` with Retry-After. "
        "502 `upstream_error` when the chain RPC fails entirely; a partial upstream answers 200 with meta.degraded "
        "true and the unknown values null, never 0."
    ),
    chain_id=STATS_CHAIN_ID,
    routes=ROUTES,
    schemas=components(schemas.SCHEMAS, user_schemas.SCHEMAS),
    envelope=VaultEnvelope(STATS_CHAIN_ID),
    rate_limited=True,
    guide=VAULT_GUIDE,
    tags={
        "keepers": "Vault health for keepers: what needs a rebalance or attention.",
        "system": "The protocol root and this API's health.",
        "users": "One wallet's vault positions.",
        "vaults": "Vaults with their integration manifests, history, gauges and tokens.",
    },
)
