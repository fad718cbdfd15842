"""Route tables and the request pipeline they drive.

An API family (`Family`) is a prefix plus a table of `Route`s. The table is the single source
of routing, validation, caching, error codes and the OpenAPI contract (`api/openapi.py`), so
the served surface and the published one cannot drift. `blueprint()` turns a family into a
Sanic blueprint whose every route runs the same pipeline:

    validate parameters (a query string validated before is not parsed again) -> the latest
    successful snapshot (snapshot routes; the worker's pointer) -> If-None-Match: 304 ->
    per-snapshot cache hit, else handler (one data query) -> envelope -> content coding
    (api/compression.py; a cached answer's header block is encoded once, api/prepared.py)

GET and HEAD run the same pipeline (a HEAD answer is the GET's without its body); OPTIONS is
the CORS preflight.

Handler contract: `async def handler(ctx: RequestContext) -> data`, where `data` is the
JSON-ready `data` member (anything orjson encodes, the `orjson.Fragment` of `ctx.json`
included). Raise `ApiError` for a deliberate non-200 answer; any other exception is a warehouse
failure: 500 `<error_prefix>_query_failed` with a generic message, logged once.
"""
from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable

from sanic import Blueprint, Request, Sanic
from sanic.response import HTTPResponse

from .compression import negotiated, variant_headers
from .envelope import (
    ALLOWED_METHODS,
    JSON,
    STATS_ENVELOPE,
    Envelope,
    error_response,
    etag_matches,
    json_response,
    preflight,
    success_body,
    success_headers,
)
from .errors import ApiError
from .guide import STATS_GUIDE, Guide
from .prepared import Answer, HeaderBlock, PreparedResponse, encode_headers
from .snapshots import SNAPSHOT_UNAVAILABLE, Snapshot, SnapshotPointer
from .sql import QueryBook
from .validation import UNKNOWN_PARAMETER, Param, ParamParser, snake

log = logging.getLogger("api")

DEFAULT_CACHE_SECONDS = 60
INTERNAL_ERROR = "internal_error"
RPC_TIMEOUT_SECONDS = 10.0  # a route reading chain RPC live fails within seconds, not the reader's default 30

Handler = Callable[["RequestContext"], Awaitable[Any]]
METHODS = [method.strip() for method in ALLOWED_METHODS.split(",")]


@dataclass(frozen=True)
class ErrorDoc:
    """A deliberate error answer a route documents beyond the ones every route has."""

    status: int
    code: str
    description: str
    details_schema: dict | None = None


@dataclass(frozen=True)
class Route:
    path: str  # below the family prefix, OpenAPI template syntax: "/protocol/history", "/pools/{poolId}"
    name: str  # handler name: operationId, SQL file stem, cache key, default error prefix
    handler: Handler
    summary: str
    data_schema: dict  # JSON Schema of the envelope's `data` (may $ref #/components/schemas/...)
    params: tuple[Param, ...] = ()
    cache_seconds: int = DEFAULT_CACHE_SECONDS  # s-maxage and meta.cacheTtlSeconds; 0 = no-store
    error_prefix: str | None = None  # <prefix>_query_failed; default: name
    snapshot: bool = True  # resolves the latest snapshot: meta.snapshotAt, ETag/304, cached per snapshot
    description: str = ""
    errors: tuple[ErrorDoc, ...] = ()
    tags: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()  # meta.source of a non-snapshot route (e.g. ("chain-rpc",) for /live/)
    memoized: bool = False  # a non-snapshot route's answer is kept per parameters for cache_seconds (per worker)

    @property
    def query_failed_code(self) -> str:
        return f"{self.error_prefix or self.name}_query_failed"

    def error_codes(self) -> dict[int, list[str]]:
        """Every error code this route can answer with, by HTTP status (documented in OpenAPI)."""
        codes: dict[int, list[str]] = {400: [p.error_code for p in self.params] + [UNKNOWN_PARAMETER]}
        codes[500] = [self.query_failed_code, INTERNAL_ERROR]
        if self.snapshot:
            codes.setdefault(503, []).append(SNAPSHOT_UNAVAILABLE)
        for doc in self.errors:
            codes.setdefault(doc.status, []).append(doc.code)
        return {status: list(dict.fromkeys(c)) for status, c in sorted(codes.items())}


@dataclass(frozen=True)
class Family:
    name: str  # blueprint name and the query folder warehouse_sql/queries/<name>/
    prefix: str  # "/api/stats"
    title: str
    version: str
    description: str
    chain_id: int
    routes: tuple[Route, ...]
    schemas: dict[str, dict] = field(default_factory=dict)  # OpenAPI components.schemas
    envelope: Envelope = STATS_ENVELOPE  # what `meta` holds, served and published
    rate_limited: bool = False  # per-client token bucket (api/ratelimit.py) in front of every route
    guide: Guide = STATS_GUIDE  # the family's usage text in the discovery documents

    def full_path(self, route: Route) -> str:
        return self.prefix + route.path


@dataclass(slots=True)
class RequestContext:
    """What a handler sees: validated parameters, the resolved snapshot, the query runner and
    the chain reader."""

    app: Sanic
    route: Route
    params: dict[str, Any]
    snapshot: Snapshot | None
    chain_id: int
    queries: QueryBook
    meta: dict[str, Any] = field(default_factory=dict)  # handler-supplied meta members (Envelope.success_meta)

    @property
    def settings(self) -> Any:
        return self.app.ctx.settings

    async def rows(self, name: str | None = None, **values: Any) -> list[dict[str, Any]]:
        """Run `<family>/<name>.sql` (default: the route's name). Bound values: chain_id,
        snapshot_at (snapshot routes), the validated parameters under snake_case names, and
        `values`; each file receives exactly the names it declares."""
        client = await warehouse_client(self.app)
        return await self.queries.rows(client, name or self.route.name, self._bound(values))

    async def json(self, name: str | None = None, **values: Any) -> Any:
        """What `rows` returns, as the JSON array the warehouse writes (api/sql.py): for a route
        that serves the rows as they are."""
        client = await warehouse_client(self.app)
        return await self.queries.json(client, name or self.route.name, self._bound(values))

    def _bound(self, values: dict[str, Any]) -> dict[str, Any]:
        bound: dict[str, Any] = {"chain_id": self.chain_id}
        if self.snapshot is not None:
            bound["snapshot_at"] = self.snapshot.param
        for key, value in self.params.items():
            bound[snake(key)] = value
        bound.update(values)
        return bound

    def chain_reader(self) -> Any:
        """The worker's reader of this chain's RPC (readers.chain), created on first use."""
        readers = self.app.ctx.chain_readers
        if self.chain_id not in readers:
            from ..readers.chain import ChainReader  # web3 loads only once a route reads the chain

            readers[self.chain_id] = ChainReader.from_settings(self.settings, self.chain_id, timeout=RPC_TIMEOUT_SECONDS, retries=1)
        return readers[self.chain_id]


async def warehouse_client(app: Sanic) -> Any:
    """The app's async ClickHouse client, created at server start; if the warehouse was down
    then, the first request that needs it connects (one attempt at a time)."""
    client = app.ctx.client
    if client is not None:
        return client
    async with app.ctx.client_lock:
        if app.ctx.client is None:
            app.ctx.client = await app.ctx.connect()
    return app.ctx.client


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0][:300] if text else ''}"


def log_failure(request: Request, status: int, code: str, detail: str) -> None:
    target = request.path + (f"?{request.query_string}" if request.query_string else "")
    level = logging.ERROR if status >= 500 else logging.INFO
    log.log(level, "%s %s -> %d %s: %s", request.method, target[:500], status, code, detail)


# Raw query strings (with path arguments) a route has validated, per worker: a repeated request
# skips parsing. Cleared when full; clients repeat a handful of spellings.
VALIDATED_MAX_ENTRIES = 4096


def _endpoint(family: Family, route: Route, queries: QueryBook, limiter: Any = None) -> Callable[..., Awaitable[HTTPResponse]]:
    parser = ParamParser(route.params)
    failed_code = route.query_failed_code
    failed_message = f"the {route.name.replace('_', ' ')} query failed; retry with backoff"
    chain_id = family.chain_id
    cache_seconds = route.cache_seconds
    static_headers = success_headers(cache_seconds, None)
    envelope = family.envelope
    validated: dict[tuple, tuple[dict[str, Any], tuple]] = {}  # raw -> (parameters, their cache key)
    not_modified_of: dict[str, HeaderBlock] = {}  # snapshotAt -> the 304's headers (one entry)
    memo_key = (family.name, route.name) if route.memoized and cache_seconds > 0 else None

    def parse(request: Request, path_args: dict[str, str]) -> tuple[dict[str, Any], tuple]:
        raw = (request.query_string, *path_args.values())
        found = validated.get(raw)
        if found is None:
            params = parser.parse(request.query_string, path_args)
            if len(validated) >= VALIDATED_MAX_ENTRIES:
                validated.clear()
            found = validated[raw] = (params, tuple(sorted(params.items())))
        return found

    def not_modified(snapshot: Snapshot) -> PreparedResponse:
        block = not_modified_of.get(snapshot.at_iso)
        if block is None:
            not_modified_of.clear()
            block = not_modified_of[snapshot.at_iso] = encode_headers(variant_headers(success_headers(cache_seconds, snapshot), None))
        return PreparedResponse(b"", 304, block)

    async def endpoint(request: Request, **path_args: str) -> HTTPResponse:
        if request.method == "OPTIONS":
            return preflight(request.headers.get("access-control-request-headers"))
        app = request.app
        snapshot: Snapshot | None = None
        try:
            if limiter is not None:
                limiter.check(request)
            params, params_key = parse(request, path_args)
            if not route.snapshot:
                if not memo_key:
                    answer = await compute(app, dict(params), None)
                    return json_response(answer.body, 200, static_headers)
                answer = await app.ctx.memo.get((*memo_key, params_key), cache_seconds, lambda: compute(app, dict(params), None))
                return app.ctx.encodings.respond(request, answer)
            pointer: SnapshotPointer = app.ctx.snapshots
            snapshot = await pointer.resolve(lambda: warehouse_client(app), chain_id)
            if etag_matches(request.headers.get("if-none-match"), snapshot.etag):
                return not_modified(snapshot)
            key = (route.name, params_key, snapshot.at_iso)
            answer = app.ctx.cache.get(key)
            if answer is None:
                answer = await app.ctx.cache.fill(key, lambda: compute(app, dict(params), snapshot))
            return app.ctx.encodings.respond(request, answer)
        except ApiError as err:
            log_failure(request, err.status, err.code, err.message)
            return error_response(err, meta_=envelope.failure_meta(snapshot.sources if snapshot else route.sources))
        except Exception as exc:  # the warehouse (or a query against it) failed
            log_failure(request, 500, failed_code, _one_line(exc))
            failure = ApiError(500, failed_code, failed_message)
            return error_response(failure, meta_=envelope.failure_meta(snapshot.sources if snapshot else route.sources))

    async def compute(app: Sanic, params: dict[str, Any], snapshot: Snapshot | None) -> Answer:
        ctx = RequestContext(app, route, params, snapshot, chain_id, queries)
        data = await route.handler(ctx)
        body = success_body(data, envelope.success_meta(snapshot, cache_seconds, route.sources, ctx.meta))
        return Answer(body, {**success_headers(cache_seconds, snapshot), "content-type": JSON})

    endpoint.__name__ = route.name
    return endpoint


_TEMPLATE = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def sanic_path(template: str) -> str:
    """OpenAPI `{name}` path template -> Sanic `<name:str>`; validation happens in the pipeline
    so a malformed path parameter is a 400 with its own code, not a 404."""
    return _TEMPLATE.sub(r"<\1:str>", template)


def blueprint(family: Family, queries: QueryBook, limiter: Any = None) -> Blueprint:
    """`limiter`: an object with `check(request)` raising ApiError 429 (api/ratelimit.py) or None."""
    bp = Blueprint(family.name, url_prefix=family.prefix)
    for route in family.routes:
        # HEAD runs the GET pipeline; Sanic sends the headers (Content-Length of the body) without it
        endpoint = negotiated(_endpoint(family, route, queries, limiter))
        bp.add_route(endpoint, sanic_path(route.path), methods=METHODS, name=route.name)
    return bp
