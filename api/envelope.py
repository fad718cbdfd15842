"""The one place that builds response bodies, meta and the headers every response carries.

Success: ``{"ok": true, "data": ..., "meta": {...}}`` and nothing else at the top level.
Failure: ``{"ok": false, "error": {"code", "message"[, "details"]}, "meta": {chainId, generatedAt, source}}``.
Bodies are encoded once with orjson; the response cache stores the encoded bytes.
"""
from __future__ import annotations

from http import HTTPStatus
from typing import Any, Iterable

import orjson
from sanic.response import HTTPResponse

from .errors import ApiError
from .prepared import ApiResponse
from .schema import ISO_TIME
from .snapshots import Snapshot
from ..core.chains import STATS_CHAIN_ID
from ..core.epochs import iso
from ..core import clock

JSON = "application/json"
STALE_WHILE_REVALIDATE = 30
NO_STORE = "no-store"
ALLOWED_METHODS = "GET, HEAD, OPTIONS"
PREFLIGHT_MAX_AGE = 86400
RETRY_AFTER_SECONDS = 60

# Every response carries these, errors and 404s included; browsers may read the ETag.
CORS_HEADERS = {"access-control-allow-origin": "*", "access-control-expose-headers": "ETag, X-Curation-Version"}
CURATION_HEADER = "x-curation-version"  # the curation publication's version, on curation-backed answers


def cache_control(seconds: int) -> str:
    if seconds <= 0:
        return NO_STORE
    return f"public, max-age=0, s-maxage={seconds}, stale-while-revalidate={STALE_WHILE_REVALIDATE}"


def now_iso() -> str:
    return iso(clock.now())


def meta(generated_at: str, snapshot: Snapshot | None, cache_seconds: int, sources: Iterable[str] = ()) -> dict[str, Any]:
    """`sources` names the upstreams of a response that is not snapshot-backed (live reads)."""
    body: dict[str, Any] = {"chainId": STATS_CHAIN_ID, "generatedAt": generated_at}
    if snapshot is not None:
        body["snapshotAt"] = snapshot.at_iso
    body["source"] = list(snapshot.sources) if snapshot is not None else list(sources)
    body["cacheTtlSeconds"] = max(cache_seconds, 0)
    return body


def success_body(data: Any, meta_: dict[str, Any], page_info: dict[str, Any] | None = None) -> bytes:
    if page_info is not None:
        return orjson.dumps({"ok": True, "data": data, "meta": meta_, "pageInfo": page_info})
    return orjson.dumps({"ok": True, "data": data, "meta": meta_})


def failure_meta(sources: Iterable[str] = ()) -> dict[str, Any]:
    return {"chainId": STATS_CHAIN_ID, "generatedAt": now_iso(), "source": list(sources)}


def failure_body(code: str, message: str, *, details: Any = None, meta_: dict[str, Any]) -> bytes:
    error: dict[str, Any] = {"code": code, "message": message}
    if details is not None:
        error["details"] = details
    return orjson.dumps({"ok": False, "error": error, "meta": meta_})


MEMO_ETAG_HEADER = {  # the OpenAPI header object of a memoized (or live) answer's ETag (api/pipeline.memo_etag)
    "description": 'Weak validator of the memoized answer: W/"m-<digest>", a digest of its body but generatedAt, the '
                   "same for every content coding; an answer renewed with the same content keeps it. Send it back "
                   "in If-None-Match.",
    "schema": {"type": "string", "pattern": r'^W/"m-[0-9a-f]{24}"$'},
}


def success_headers(cache_seconds: int, basis: Any = None) -> dict[str, str]:
    """`basis`: what the answer rests on (a Snapshot, or a multichain Coverage), whose weak ETag
    it carries; None for routes that are not snapshot-backed."""
    headers = {**CORS_HEADERS, "cache-control": cache_control(cache_seconds)}
    if basis is not None:
        headers["etag"] = basis.etag
        curation = getattr(basis, "curation", None)
        if curation is not None:
            headers[CURATION_HEADER] = curation.version
    return headers


def json_response(body: bytes, status: int = 200, headers: dict[str, str] | None = None) -> HTTPResponse:
    return ApiResponse(body, status=status, headers=headers, content_type=JSON)


def not_modified(headers: dict[str, str]) -> HTTPResponse:
    return ApiResponse(None, status=304, headers=headers)


def error_response(err: ApiError, sources: Iterable[str] = (), meta_: dict[str, Any] | None = None) -> HTTPResponse:
    """`meta_` is the family's failure meta (Envelope.failure_meta); the default is /api/stats'."""
    headers = {**CORS_HEADERS, "cache-control": NO_STORE, **err.headers}
    if err.status == 503:
        headers.setdefault("retry-after", str(RETRY_AFTER_SECONDS))
    body = failure_body(err.code, err.message, details=err.details, meta_=meta_ if meta_ is not None else failure_meta(sources))
    return json_response(body, err.status, headers)


def preflight(request_headers: str | None, methods: str = ALLOWED_METHODS) -> HTTPResponse:
    """The CORS preflight answer: any origin, `methods`, the requested headers, no body. It
    varies with the requested headers it echoes, so a shared cache keeps one per list."""
    headers = {
        **CORS_HEADERS,
        "access-control-allow-methods": methods,
        "access-control-max-age": str(PREFLIGHT_MAX_AGE),
        "cache-control": f"public, max-age={PREFLIGHT_MAX_AGE}",
        "vary": "Access-Control-Request-Headers",
    }
    if request_headers:
        headers["access-control-allow-headers"] = request_headers
    return ApiResponse(None, status=204, headers=headers)


class Envelope:
    """A family's choice of `meta`: this base class is the /api/stats envelope (snapshotAt, source,
    cacheTtlSeconds); a family with another meta subclasses it (api/vaults/envelope.py). The
    same object builds the meta of every answer and publishes its schemas in the OpenAPI
    document, so the served meta and the contract cannot drift."""

    def for_settings(self, settings: Any) -> "Envelope":
        """This envelope with what it takes from the configuration (the chain book); the app binds
        it once at start."""
        return self

    def success_meta(self, basis: Any, cache_seconds: int, sources: Iterable[str], extra: dict[str, Any]) -> dict[str, Any]:
        """`basis`: the Snapshot of a snapshot route (the Coverage of a multichain route), or None."""
        return meta(now_iso(), basis, cache_seconds, sources)

    def failure_meta(self, sources: Iterable[str] = ()) -> dict[str, Any]:
        return failure_meta(sources)

    def meta_schemas(self, chain_id: int) -> tuple[dict[str, Any], dict[str, Any]]:
        """(ApiMeta, ErrorMeta) JSON Schemas of the OpenAPI components."""
        api_meta = {
            "type": "object",
            "required": ["chainId", "generatedAt", "source", "cacheTtlSeconds"],
            "additionalProperties": False,
            "properties": {
                "chainId": {"const": chain_id},
                "generatedAt": {**ISO_TIME, "description": "when the response was generated (a cached response keeps its first)"},
                "snapshotAt": {**ISO_TIME, "description": "the latest successful snapshot the data was read from"},
                "source": {
                    "type": "array",
                    "items": {"type": "string"},
                    "description": "upstream readers behind the snapshot, e.g. subgraph, chain-rpc",
                },
                "cacheTtlSeconds": {
                    "type": "integer",
                    "minimum": 0,
                    "description": "serving cache lifetime; equals the s-maxage of Cache-Control",
                },
            },
        }
        error_meta = {
            "type": "object",
            "required": ["chainId", "generatedAt", "source"],
            "additionalProperties": False,
            "properties": {k: api_meta["properties"][k] for k in ("chainId", "generatedAt", "source")},
        }
        return api_meta, error_meta

    # what a snapshot route's meta requires beyond ApiMeta's
    snapshot_required: tuple[str, ...] = ("snapshotAt",)

    def meta_name(self, cache_seconds: int, snapshot: bool) -> str:
        """The component name of a route's `meta` (#/components/schemas/...)."""
        return f"{'Snapshot' if snapshot and self.snapshot_required else 'Api'}MetaTtl{max(cache_seconds, 0)}"

    def meta_components(self, chain_id: int, routes: Iterable[Any]) -> dict[str, dict[str, Any]]:
        """ErrorMeta, and the `meta` of each kind of route's 200 answer as a whole schema: ApiMeta
        with the route's TTL as a constant (and a snapshot route's extra required fields). Whole,
        not an allOf that narrows ApiMeta: generated clients (openapi-python-client) cannot merge
        a narrowed property and dropped every success response."""
        api_meta, error_meta = self.meta_schemas(chain_id)
        out = {"ErrorMeta": error_meta}
        for route in routes:
            if route.raw:
                continue
            ttl = max(route.cache_seconds, 0)
            extra = [name for name in self.snapshot_required if route.snapshot]
            out[self.meta_name(route.cache_seconds, route.snapshot)] = {
                **api_meta,
                "required": [*api_meta["required"], *extra],
                "properties": {**api_meta["properties"],
                               "cacheTtlSeconds": {**api_meta["properties"]["cacheTtlSeconds"], "const": ttl}},
            }
        return out

    def failure_text(self) -> str:
        return "`{ok: false, error: {code, message}, meta: {chainId, generatedAt, source}}`"

    def etag_header(self) -> dict[str, Any]:
        """The OpenAPI header object of the ETag of snapshot-backed answers."""
        return {
            "description": 'Weak validator of the snapshot served: W/"snap-<snapshotAt>", the same for every content '
                           "coding of it; send it back in If-None-Match.",
            "schema": {"type": "string", "pattern": r'^W/"snap-\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z"$'},
        }


STATS_ENVELOPE = Envelope()


def status_code_name(status: int) -> str:
    """`not_found`, `method_not_allowed`, ... for errors raised by the framework itself."""
    try:
        phrase = HTTPStatus(status).phrase
    except ValueError:
        return "internal_error" if status >= 500 else "bad_request"
    return "_".join(phrase.lower().replace("-", " ").split())


def etag_matches(if_none_match: str | None, etag: str) -> bool:
    """Weak comparison (RFC 9110 13.1.2): `*`, or any listed tag equal ignoring the W/ prefix."""
    if not if_none_match:
        return False
    if if_none_match == etag:  # what a client that got this ETag sends back
        return True
    opaque = etag[2:] if etag.startswith("W/") else etag
    for candidate in if_none_match.split(","):
        candidate = candidate.strip()
        if candidate == "*":
            return True
        if candidate.startswith("W/"):
            candidate = candidate[2:]
        if candidate == opaque:
            return True
    return False
