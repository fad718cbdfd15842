"""Route tables and what a handler sees.

An API family (`Family`) is a prefix plus a table of `Route`s. The table is the single source
of routing, validation, caching, error codes and the OpenAPI contract (`api/openapi.py`), so
the served surface and the published one cannot drift; `api/pipeline.py` turns a family into a
Sanic blueprint whose every route runs the same request pipeline.

Handler contract: `async def handler(ctx: RequestContext) -> data`, where `data` is the
JSON-ready `data` member (anything orjson encodes, the `orjson.Fragment` of `ctx.json`
included). Raise `ApiError` for a deliberate non-200 answer; any other exception is a warehouse
failure: 500 `<error_prefix>_query_failed` with a generic message, logged once. A handler that
reads the warehouse says which query files it runs with `@runs(...)` (`Route.sql`): `ctx.rows`
and `ctx.json` run no other, the family refuses to start when one is missing, and `make bench`
times exactly these files as the route's raw SQL.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Awaitable, Callable

from sanic import Sanic

from .admission import OVERLOADED
from .coverage import CHAIN_NOT_PUBLIC, FEATURE_UNSUPPORTED, Coverage
from .curation import CURATION_UNAVAILABLE
from .envelope import ALLOWED_METHODS, STATS_ENVELOPE, Envelope
from .guide import STATS_GUIDE, Guide
from .snapshots import SNAPSHOT_UNAVAILABLE, SOURCE_UNAVAILABLE, Snapshot
from .sql import QueryBook
from .validation import UNKNOWN_PARAMETER, Param, snake

DEFAULT_CACHE_SECONDS = 60
INTERNAL_ERROR = "internal_error"
RPC_TIMEOUT_SECONDS = 10.0  # a route reading chain RPC live fails within seconds, not the reader's default 30

Handler = Callable[["RequestContext"], Awaitable[Any]]
ROUTE_NAME = "{name}"  # in @runs: the name of the route the handler serves (one handler, several routes)


def runs(*files: str) -> Callable[[Handler], Handler]:
    """Declares the query files (stems under warehouse_sql/queries/<family>/ or common/) the
    handler may run, in the order it runs them; "{name}" stands for the route's name."""

    def declare(handler: Handler) -> Handler:
        handler.sql = files  # type: ignore[attr-defined]
        return handler

    return declare


class UndeclaredQuery(RuntimeError):
    """A handler ran a query file its @runs does not list: a defect of the handler, not of the request."""


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
    # with snapshot: the answer also rests on chain reads made when it is computed (a live contract
    # read): kept per parameters and basis for cache_seconds only, its ETag its body's (a memoized one's)
    live: bool = False
    # with snapshot: the answer rests on the coverage of the chains it selects (its chainIds, or the
    # chainId of its path; api/coverage.py) instead of the family chain's snapshot
    multichain: bool = False
    # multichain: the chain-book feature its data needs (chainIds default to the chains that have it;
    # a selected chain without it is 404 feature_unsupported)
    feature: str | None = None
    # multichain: the chains the answer rests on whatever the selection (given the chain book), e.g.
    # the chain whose rate values the others': they join a non-empty selection's coverage
    rests_on: Callable[[dict[int, Any]], tuple[int, ...]] | None = None
    # multichain: the answer rests on the reviewed curation publication too (api/curation.py)
    curation: bool = False
    # multichain: the answer rests on the chains' hourly price valuations too, which change between
    # snapshots (ADR 0011): when they last changed joins its cache key and ETag
    valuations: bool = False
    # the handler's data is the whole body, without the envelope (a wallet-compatible token list)
    raw: bool = False
    # a collection paged by cursor: the body has `pageInfo` (the handler sets ctx.meta["pageInfo"])
    paginated: bool = False

    @cached_property  # read on every query a request runs
    def sql(self) -> tuple[str, ...]:
        """The query files its handler runs (its @runs), in order; empty for one that reads no warehouse."""
        return tuple(f.replace(ROUTE_NAME, self.name) for f in getattr(self.handler, "sql", ()))

    @property
    def query_failed_code(self) -> str:
        return f"{self.error_prefix or self.name}_query_failed"

    @property
    def etagged(self) -> bool:
        """Its 200s carry an ETag, and a matching If-None-Match is a 304: the snapshot's (or the
        coverage's) on a snapshot route, the memoized answer's on a memoized one."""
        return self.snapshot or (self.memoized and self.cache_seconds > 0)

    def error_codes(self) -> dict[int, list[str]]:
        """Every error code this route can answer with, by HTTP status (documented in OpenAPI)."""
        codes: dict[int, list[str]] = {400: [p.error_code for p in self.params] + [UNKNOWN_PARAMETER]}
        codes[500] = [self.query_failed_code, INTERNAL_ERROR]
        if self.snapshot and self.multichain:
            codes.setdefault(404, []).append(CHAIN_NOT_PUBLIC)
            if self.feature:
                codes[404].append(FEATURE_UNSUPPORTED)
            codes.setdefault(503, []).append(SOURCE_UNAVAILABLE)
            if self.curation:
                codes[503].append(CURATION_UNAVAILABLE)
        elif self.snapshot:
            codes.setdefault(503, []).append(SNAPSHOT_UNAVAILABLE)
        for doc in self.errors:
            codes.setdefault(doc.status, []).append(doc.code)
        codes.setdefault(503, []).append(OVERLOADED)  # the worker's warehouse gate is full (api/admission.py)
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
    contract_path: str | None = None  # where its OpenAPI document is served; default <prefix>/openapi.json
    tags: dict[str, str] = field(default_factory=dict)  # each route tag's description, as the contract lists it

    def __post_init__(self) -> None:
        for what, values in (("path", [r.path for r in self.routes]), ("route name", [r.name for r in self.routes])):
            twice = sorted({v for v in values if values.count(v) > 1})
            if twice:  # a second declaration would silently shadow the first
                raise ValueError(f"family {self.name}: {what}s declared twice: {twice}")

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
    coverage: Coverage | None = None  # multichain routes: the chains the answer covers

    @property
    def settings(self) -> Any:
        return self.app.ctx.settings

    async def rows(self, name: str | None = None, **values: Any) -> list[dict[str, Any]]:
        """Run `<family>/<name>.sql` (default: the route's name). Bound values: chain_id,
        snapshot_at (snapshot routes), the validated parameters under snake_case names, and
        `values`; each file receives exactly the names it declares."""
        name = self._declared(name)
        client = await warehouse_client(self.app)
        return await self.queries.rows(client, name, self._bound(values))

    async def columns(self, name: str | None = None, **values: Any) -> dict[str, list[Any]]:
        """What `rows` returns, one list per column (api/sql.py)."""
        name = self._declared(name)
        client = await warehouse_client(self.app)
        return await self.queries.columns(client, name, self._bound(values))

    async def json(self, name: str | None = None, **values: Any) -> Any:
        """What `rows` returns, as the JSON array the warehouse writes (api/sql.py): for a route
        that serves the rows as they are."""
        name = self._declared(name)
        client = await warehouse_client(self.app)
        return await self.queries.json(client, name, self._bound(values))

    def _declared(self, name: str | None) -> str:
        name = name or self.route.name
        if name not in self.route.sql:
            raise UndeclaredQuery(f"{self.route.path} ran {name}.sql, which its handler's @runs{self.route.sql} does not list")
        return name

    def _bound(self, values: dict[str, Any]) -> dict[str, Any]:
        bound: dict[str, Any] = {"chain_id": self.chain_id}
        if self.snapshot is not None:
            bound["snapshot_at"] = self.snapshot.param
        for key, value in self.params.items():
            bound[snake(key)] = value
        bound.update(values)
        return bound

    def chain_reader(self, chain_id: int | None = None) -> Any:
        """The worker's reader of a chain's RPC (readers.chain; default: the family's chain),
        created on first use."""
        cid = self.chain_id if chain_id is None else chain_id
        readers = self.app.ctx.chain_readers
        if cid not in readers:
            from ..readers.chain import ChainReader  # web3 loads only once a route reads the chain

            readers[cid] = ChainReader.from_settings(self.settings, cid, timeout=RPC_TIMEOUT_SECONDS, retries=1)
        return readers[cid]


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
