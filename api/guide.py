"""How to use an API family, in words: the text of the discovery documents (skill manifest
usage, the OpenAPI description's error paragraph) that differs between families. Each Family
carries its Guide, so a family's documents describe its own envelope, errors and caching."""
from __future__ import annotations

from dataclasses import dataclass

POLL_SECONDS = 60


@dataclass(frozen=True)
class Guide:
    description: str  # what the API is for (skill manifest)
    envelope: dict[str, str]  # success, failure, rule
    errors: dict[str, str]  # HTTP status -> what to do
    caching: str
    polling: str
    openapi_errors: str  # the OpenAPI description's error paragraph, after "Errors answer <failure> with the HTTP status"


STATS_GUIDE = Guide(
    description=(
        "Read-only JSON statistics of a vote-escrow (ve(3,3)) DEX on chain 56: protocol TVL, volume, fees, "
        "pools, gauges, tokens, epochs, bribes, vote escrow and service health, served from 15-minute "
        "snapshots. Use it to answer questions about the protocol's current state and recent history."
    ),
    envelope={
        "success": '{"ok": true, "data": <endpoint-specific>, "meta": {"chainId": 56, "generatedAt", "snapshotAt", "source", "cacheTtlSeconds"}}',
        "failure": '{"ok": false, "error": {"code", "message"[, "details"]}, "meta": {"chainId", "generatedAt", "source"}}',
        "rule": "branch on `ok`; the HTTP status mirrors it (200 on success, 4xx/5xx on failure); `error.code` is stable, `error.message` is for humans",
    },
    errors={
        "400": "malformed or out-of-range parameter: fix the request, do not retry as is",
        "404": "no such route (`not_found`)",
        "405": "method not allowed (`method_not_allowed`)",
        "500": "`<route>_query_failed` or `internal_error`: transient, retry with exponential backoff",
        "503": "`snapshot_unavailable` (no snapshot yet) or `unhealthy` (/health): retry after the Retry-After header",
    },
    caching=(
        "Snapshot-backed routes carry a weak ETag W/\"snap-<snapshotAt>\" and "
        "`Cache-Control: public, max-age=0, s-maxage=<cacheTtlSeconds>, stale-while-revalidate=30`; send the ETag back "
        "in If-None-Match and a 304 (no body) means nothing changed. Errors are `no-store`."
    ),
    polling=(
        f"A new snapshot lands every 15 minutes. Poll no faster than every {POLL_SECONDS} s and detect new data "
        "through `meta.snapshotAt` or the ETag; two callers see identical numbers until the next snapshot."
    ),
    openapi_errors=(
        "and `Cache-Control: no-store`: 400 for a malformed or out-of-range query (one code per "
        "parameter, `unknown_parameter` for any other name, a repeated parameter is refused with its own code), "
        "500 `<route>_query_failed` when the warehouse query fails, 503 `snapshot_unavailable` before the first "
        "successful snapshot"
    ),
)

VAULT_GUIDE = Guide(
    description=(
        "Read-only JSON vault data of a vote-escrow DEX on chain 56: every vault's live on-chain state, an integration "
        "manifest for deposits, zaps and withdrawals, keeper health, gauges, tokens, vault history for charts and a "
        "wallet's positions with P&L. Use it to show vaults, build deposit and withdraw transactions, and answer "
        "questions about a wallet's vault positions."
    ),
    envelope={
        "success": '{"ok": true, "data": <endpoint-specific>, "meta": {"chainId": 56, "network", "apiVersion": "v1", "generatedAt", "indexedBlock", "degraded", "conventions"}}',
        "failure": '{"ok": false, "error": {"code", "message"}, "meta": {... as on success, "indexedBlock": null, "degraded": true}}',
        "rule": "branch on `ok`; the HTTP status mirrors it; when `meta.degraded` is true an upstream answered partly and null values mean unknown, never zero",
    },
    errors={
        "400": "malformed parameter or address (`invalid_<parameter>`, `invalid_address`, `unknown_parameter`): fix the request",
        "404": "no such vault (`not_found`) or route",
        "405": "method not allowed (`method_not_allowed`)",
        "429": "`rate_limited`: retry after the Retry-After header",
        "500": "`<route>_query_failed` or `internal_error`: retry with exponential backoff",
        "502": "`upstream_error`: the chain RPC did not answer; retry with backoff (a partial answer is a 200 with meta.degraded)",
    },
    caching=(
        "Every route sets `Cache-Control: public, max-age=0, s-maxage=<memoization seconds>, stale-while-revalidate=30` "
        "and is memoized server-side for the same time (vaults 15 s, health and user positions 10 s, gauges, tokens and "
        "history 60 s); there is no ETag. Errors are `no-store`."
    ),
    polling=(
        "On-chain values are read at one block per answer (`meta.indexedBlock`); poll no faster than the route's "
        "s-maxage. History and P&L come from the warehouse's indexed vault events and hour/day rows, refreshed by the "
        "hourly history run."
    ),
    openapi_errors=(
        "and `Cache-Control: no-store`: 400 for a malformed query or path (one code per parameter, "
        "`unknown_parameter` for any other name, a repeated parameter is refused with its own code), 404 `not_found` "
        "for an unknown vault, 429 `rate_limited`, 500 `<route>_query_failed` when a warehouse query fails, 502 "
        "`upstream_error` when the chain RPC does not answer"
    ),
)
