"""The request pipeline every route of every family runs, and the blueprint that serves a family:

    validate parameters (a query string validated before is not parsed again) -> the latest
    successful snapshot (snapshot routes; the worker's pointer), or on a multichain route the
    coverage of the chains it selects (api/coverage.py) -> If-None-Match: 304 ->
    per-snapshot cache hit, else (admitted by the worker's gate, api/admission.py, or 503
    `overloaded`) handler (one data query; in the worker's compute child, api/compute_process.py)
    -> envelope -> content coding
    (api/compression.py; a cached answer's header block is encoded once, api/prepared.py)

GET and HEAD run the same pipeline (a HEAD answer is the GET's without its body); OPTIONS is
the CORS preflight.
"""
from __future__ import annotations

import hashlib
import logging
import re
from dataclasses import dataclass
from typing import Any, Awaitable, Callable

import orjson
from sanic import Blueprint, Request, Sanic
from sanic.response import HTTPResponse

from . import coverage
from .admission import OVERLOADED
from .cache import Cache
from .compression import negotiated, variant_headers
from .compute_process import WORKER_BASIS, relayed_headers
from .envelope import (
    CURATION_HEADER,
    JSON,
    error_response,
    etag_matches,
    json_response,
    preflight,
    success_body,
    success_headers,
)
from .errors import ApiError
from .offload import off_loop
from .prepared import Answer, ApiResponse, PreparedResponse, encode_headers
from .routes import METHODS, Family, RequestContext, Route, warehouse_client
from .snapshots import Snapshot, SnapshotPointer
from .sql import QueryBook
from .validation import ParamParser
from ..core import clock

log = logging.getLogger("api")

Basis = Snapshot | coverage.Coverage  # what a snapshot route's answer rests on: its cache key and ETag
BASIS_HEADERS = ("etag", CURATION_HEADER)  # a forwarded answer rests on the worker's basis when these agree


@dataclass(frozen=True, slots=True)
class MemoValidator:
    """What a memoized answer's 304 rests on (a snapshot route's rests on its Basis)."""
    etag: str
    curation = None


_SERVED_AT = re.compile(rb'"generatedAt":"[^"]*"')  # when an answer was assembled: not part of what it says


def memo_etag(body: bytes) -> str:
    """A memoized answer's ETag: weak (every content coding of the body shares it), a digest of its
    bytes but its serving time, so a renewed answer that says the same keeps its ETag."""
    return f'W/"m-{hashlib.blake2b(_SERVED_AT.sub(b"", body), digest_size=12).hexdigest()}"'


class Relayed(Exception):
    """A forwarded computation answered other than 200: sent as the compute child wrote it."""

    def __init__(self, status: int, body: bytes, headers: dict[str, str]):
        super().__init__(status)
        self.status, self.body, self.headers = status, body, headers


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0][:300] if text else ''}"


def log_failure(request: Request, status: int, code: str, detail: str) -> None:
    target = request.path + (f"?{request.query_string}" if request.query_string else "")
    level = logging.ERROR if status >= 500 else logging.INFO
    log.log(level, "%s %s -> %d %s: %s", request.method, target[:500], status, code, detail)


def selected_chains(params: dict[str, Any], also: tuple[int, ...] = ()) -> tuple[int, ...]:
    """The chains a multichain route selects: its path's `chainId`, else its `chainIds` (empty: all),
    else those its `tokens` name (`<chainId>:<address>,...`, as validated); with the chains it rests
    on whatever the selection (`also`, Route.rests_on) when that is not all."""
    if "chainId" in params:
        chosen: tuple[int, ...] = (params["chainId"],)
    elif params.get("tokens"):
        chosen = tuple(sorted({int(item.split(":", 1)[0]) for item in params["tokens"].split(",")}))
    else:
        chosen = params.get("chainIds") or ()
    return tuple(sorted(set(chosen) | set(also))) if chosen and also else chosen


def _curation(pointer: SnapshotPointer) -> Any:
    return pointer.curation.current if pointer.curation is not None else None


def _sources(basis: Basis | None, route: Route) -> tuple[str, ...]:
    return basis.sources if isinstance(basis, Snapshot) else route.sources




def _endpoint(family: Family, route: Route, queries: QueryBook, limiter: Any = None) -> Callable[..., Awaitable[HTTPResponse]]:
    parser = ParamParser(route.params)
    failed_code = route.query_failed_code
    failed_message = f"the {route.name.replace('_', ' ')} query failed; retry with backoff"
    chain_id = family.chain_id
    cache_seconds = route.cache_seconds
    static_headers = success_headers(cache_seconds, None)
    envelope = family.envelope
    # kept in the worker's byte-bounded store (api/cache.py): a repeated query string skips parsing,
    # a repeated 304 reuses its encoded headers
    validated = Cache(("validated", family.name, route.name))  # raw -> (parameters, their cache key)
    not_modified_of = Cache(("not_modified", family.name, route.name))  # ETag -> the 304's headers
    memo_key = (family.name, route.name) if (route.memoized or route.live) and cache_seconds > 0 else None
    # a forwarded answer rests on the worker's basis when these agree; a live one's ETag is its body's
    basis_headers = (CURATION_HEADER,) if route.live else BASIS_HEADERS

    def rests_on(app: Sanic) -> tuple[int, ...]:
        return route.rests_on(app.ctx.settings.chains) if route.rests_on else ()

    def parse(request: Request, path_args: dict[str, str]) -> tuple[dict[str, Any], tuple]:
        raw = (request.query_string, *path_args.values())
        found = validated.peek(raw)
        if found is None:
            params = parser.parse(request.query_string, path_args)  # an ApiError (400) is not kept
            found = validated.put(raw, (params, tuple(sorted(params.items()))))
        return found

    def not_modified(basis: Basis | MemoValidator) -> PreparedResponse:
        block = not_modified_of.memo(
            basis.etag, lambda: encode_headers(variant_headers(success_headers(cache_seconds, basis), None)))
        return PreparedResponse(b"", 304, block)

    def known(app: Sanic, params: dict[str, Any], current: bool = True) -> Basis | None:
        """`resolve` without awaiting, when the pointer already knows the answer (nearly always);
        `current=False`: from whatever the pointer last read (a compute child's, `child_basis`)."""
        pointer: SnapshotPointer = app.ctx.snapshots
        if not route.multichain:
            return pointer.latest.get(chain_id)
        if not (pointer.current() if current else pointer.refreshed_at is not None):
            return None
        return app.ctx.coverages.get(selected_chains(params, rests_on(app)), pointer.latest, pointer.version, clock.now(), route.feature,
                                     _curation(pointer), route.curation, pointer.valued if route.valuations else None)

    async def resolve(app: Sanic, params: dict[str, Any]) -> Basis:
        """The snapshot of the family's chain, or the coverage of the chains a multichain route
        selects (its `chainIds`, or the `chainId` of its path)."""
        pointer: SnapshotPointer = app.ctx.snapshots
        if not route.multichain:
            return await pointer.resolve(lambda: warehouse_client(app), chain_id)
        latest = await pointer.every_chain(lambda: warehouse_client(app))
        return app.ctx.coverages.get(selected_chains(params, rests_on(app)), latest, pointer.version, clock.now(), route.feature,
                                     _curation(pointer), route.curation, pointer.valued if route.valuations else None)

    async def child_basis(app: Sanic, params: dict[str, Any], workers: str | None) -> Basis:
        """A compute child's basis. Its pointer is not polled: it is read again when it was never
        read or when its basis is not its worker's (`workers`: the ETag of the worker's basis, sent
        with the request; a publication since the child last read), so a child costs the warehouse
        one read per publication, not one a second."""
        basis = known(app, params, current=False)
        if basis is None or (workers is not None and basis.etag != workers):
            await app.ctx.snapshots.catch_up(lambda: warehouse_client(app))
            basis = known(app, params, current=False)
        return basis or await resolve(app, params)

    async def endpoint(request: Request, **path_args: str) -> HTTPResponse:
        if request.method == "OPTIONS":
            return preflight(request.headers.get("access-control-request-headers"))
        app = request.app
        basis: Basis | None = None
        try:
            if limiter is not None:
                limiter.check(request)
            params, params_key = parse(request, path_args)
            if not app.ctx.keeps_answers:  # a compute child: its worker keeps the answer (api/compute_process.py)
                basis = await child_basis(app, params, request.headers.get(WORKER_BASIS)) if route.snapshot else None
                return await send(app, request, await compute(app, dict(params), basis, request.raw_url), None, None)
            if not route.snapshot:
                if not memo_key:
                    answer = await compute(app, dict(params), None, request.raw_url)
                    return json_response(answer.body, 200, static_headers)
                key = (*memo_key, params_key)
                answer = await app.ctx.memo.get(key, cache_seconds, lambda: compute(app, dict(params), None, request.raw_url))
                if etag_matches(request.headers.get("if-none-match"), answer.headers["etag"]):
                    return not_modified(MemoValidator(answer.headers["etag"]))
                return await send(app, request, answer, app.ctx.memo, key)
            basis = known(app, params) or await resolve(app, params)
            if memo_key:  # a live route (no other snapshot route has one): kept cache_seconds, validated by its body
                key = (*memo_key, params_key, basis.key)
                answer = await app.ctx.memo.get(key, cache_seconds, lambda: compute(app, dict(params), basis, request.raw_url))
                if etag_matches(request.headers.get("if-none-match"), answer.headers["etag"]):
                    return not_modified(MemoValidator(answer.headers["etag"]))
                return await send(app, request, answer, app.ctx.memo, key)
            if etag_matches(request.headers.get("if-none-match"), basis.etag):
                return not_modified(basis)
            key = (route.name, params_key, basis.key)
            answer = app.ctx.cache.peek(key)
            if answer is None:  # single-flight: one computation for the concurrent misses of a key
                if not app.ctx.cache.computing(key):
                    app.ctx.admission.refuse_if_full()
                answer = await app.ctx.cache.get(key, None, lambda: compute(app, dict(params), basis, request.raw_url))
            return await send(app, request, answer, app.ctx.cache, key)
        except Relayed as relayed:
            return ApiResponse(relayed.body, status=relayed.status, headers=relayed.headers)
        except ApiError as err:
            if err.code != OVERLOADED:  # the gate logs those as a count (api/admission.py)
                log_failure(request, err.status, err.code, err.message)
            return error_response(err, meta_=envelope.failure_meta(_sources(basis, route)))
        except Exception as exc:  # the warehouse (or a query against it) failed
            log_failure(request, 500, failed_code, _one_line(exc))
            failure = ApiError(500, failed_code, failed_message)
            return error_response(failure, meta_=envelope.failure_meta(_sources(basis, route)))

    async def compute(app: Sanic, params: dict[str, Any], basis: Basis | None, target: bytes) -> Answer:
        """The answer, computed by the worker's compute child when it has one, else here."""
        headers = {**success_headers(cache_seconds, basis), "content-type": JSON}
        async with app.ctx.admission.admit():  # 503 overloaded past the worker's queue (api/admission.py)
            forwarded = None if app.ctx.computer is None else await app.ctx.computer.answer(
                target.decode("latin-1"), None if basis is None else basis.etag)
            if forwarded is not None:
                status, body, child_headers = forwarded
                if status != 200:
                    raise Relayed(status, body, relayed_headers(child_headers))
                if basis is None or all(child_headers.get(name) == headers.get(name) for name in basis_headers):
                    return answer(body, headers)
                # else the child rested on another snapshot (one was published meanwhile): computed here
            return answer(await compute_here(app, params, basis), headers)

    def answer(body: bytes, headers: dict[str, str]) -> Answer:
        """A memoized answer's ETag is its body's."""
        return Answer(body, {**headers, "etag": memo_etag(body)} if memo_key else headers)

    async def compute_here(app: Sanic, params: dict[str, Any], basis: Basis | None) -> bytes:
        snapshot = basis if isinstance(basis, Snapshot) else None
        covered = basis if isinstance(basis, coverage.Coverage) else None
        ctx = RequestContext(app, route, params, snapshot, chain_id, queries, coverage=covered)
        data = await route.handler(ctx)
        # written off the event loop (api/offload.py): a large answer's JSON takes milliseconds
        if route.raw:
            return await off_loop(orjson.dumps, data)
        page_info = ctx.meta.pop("pageInfo", None)
        meta_ = envelope.success_meta(basis, cache_seconds, route.sources, ctx.meta)
        return await off_loop(success_body, data, meta_, page_info)

    endpoint.__name__ = route.name
    return endpoint


async def send(app: Sanic, request: Request, answer: Answer, kept_in: Cache | None, key: Any) -> HTTPResponse:
    """`answer` as negotiated; a large body still to be encoded is encoded off the event loop."""
    response = app.ctx.encodings.respond(request, answer, kept_in, key)
    return response if response is not None else await app.ctx.encodings.respond_off_loop(request, answer, kept_in, key)


_TEMPLATE = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def sanic_path(template: str) -> str:
    """OpenAPI `{name}` path template -> Sanic `<name:str>`; validation happens in the pipeline
    so a malformed path parameter is a 400 with its own code, not a 404."""
    return _TEMPLATE.sub(r"<\1:str>", template)


def blueprint(family: Family, queries: QueryBook, limiter: Any = None) -> Blueprint:
    """`limiter`: an object with `check(request)` raising ApiError 429 (api/ratelimit.py) or None."""
    missing = [f"{route.path}: {name}.sql" for route in family.routes for name in route.sql if name not in queries.queries]
    if missing:  # a handler's @runs names a file the family's query book lacks
        raise ValueError(f"family {family.name}: no such query file: {', '.join(missing)}")
    bp = Blueprint(family.name, url_prefix=family.prefix)
    for route in family.routes:
        # HEAD runs the GET pipeline; Sanic sends the headers (Content-Length of the body) without it
        endpoint = negotiated(_endpoint(family, route, queries, limiter))
        bp.add_route(endpoint, sanic_path(route.path), methods=METHODS, name=route.name)
    return bp
