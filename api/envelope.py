"""The one place that builds response bodies, meta and the headers every response carries.

Success: ``{"ok": true, "data": ..., "meta": {...}}`` and nothing else at the top level.
Failure: ``{"ok": false, "error": {"code", "message"[, "details"]}, "meta": {chainId, generatedAt, source}}``.
Bodies are encoded once with orjson; the response cache stores the encoded bytes.
"""
from __future__ import annotations

import time
from http import HTTPStatus
from typing import TYPE_CHECKING, Any, Iterable

import orjson
from sanic.response import HTTPResponse

from core.chains import STATS_CHAIN_ID
from core.epochs import iso

if TYPE_CHECKING:
    from api.snapshots import Snapshot

JSON = "application/json"
STALE_WHILE_REVALIDATE = 30
NO_STORE = "no-store"
ALLOWED_METHODS = "GET, OPTIONS"
PREFLIGHT_MAX_AGE = 86400
RETRY_AFTER_SECONDS = 60

# Every response carries these, errors and 404s included; browsers may read the ETag.
CORS_HEADERS = {"access-control-allow-origin": "*", "access-control-expose-headers": "ETag"}


class ApiError(Exception):
    """A failure with its HTTP status and envelope code; raised anywhere in a request."""

    def __init__(self, status: int, code: str, message: str, *, details: Any = None, headers: dict | None = None):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.details = details
        self.headers = headers or {}


def cache_control(seconds: int) -> str:
    if seconds <= 0:
        return NO_STORE
    return f"public, max-age=0, s-maxage={seconds}, stale-while-revalidate={STALE_WHILE_REVALIDATE}"


def now_iso() -> str:
    return iso(time.time())


def meta(generated_at: str, snapshot: Snapshot | None, cache_seconds: int, sources: Iterable[str] = ()) -> dict[str, Any]:
    """`sources` names the upstreams of a response that is not snapshot-backed (live reads)."""
    body: dict[str, Any] = {"chainId": STATS_CHAIN_ID, "generatedAt": generated_at}
    if snapshot is not None:
        body["snapshotAt"] = snapshot.at_iso
    body["source"] = list(snapshot.sources) if snapshot is not None else list(sources)
    body["cacheTtlSeconds"] = max(cache_seconds, 0)
    return body


def success_body(data: Any, meta_: dict[str, Any]) -> bytes:
    return orjson.dumps({"ok": True, "data": data, "meta": meta_})


def failure_body(code: str, message: str, *, details: Any = None, sources: Iterable[str] = ()) -> bytes:
    error: dict[str, Any] = {"code": code, "message": message}
    if details is not None:
        error["details"] = details
    failure_meta = {"chainId": STATS_CHAIN_ID, "generatedAt": now_iso(), "source": list(sources)}
    return orjson.dumps({"ok": False, "error": error, "meta": failure_meta})


def success_headers(cache_seconds: int, snapshot: Snapshot | None) -> dict[str, str]:
    headers = {**CORS_HEADERS, "cache-control": cache_control(cache_seconds)}
    if snapshot is not None:
        headers["etag"] = snapshot.etag
    return headers


def json_response(body: bytes, status: int = 200, headers: dict[str, str] | None = None) -> HTTPResponse:
    return HTTPResponse(body, status=status, headers=headers, content_type=JSON)


def not_modified(headers: dict[str, str]) -> HTTPResponse:
    return HTTPResponse(None, status=304, headers=headers)


def error_response(err: ApiError, sources: Iterable[str] = ()) -> HTTPResponse:
    headers = {**CORS_HEADERS, "cache-control": NO_STORE, **err.headers}
    if err.status == 503:
        headers.setdefault("retry-after", str(RETRY_AFTER_SECONDS))
    body = failure_body(err.code, err.message, details=err.details, sources=sources)
    return json_response(body, err.status, headers)


def preflight(request_headers: str | None) -> HTTPResponse:
    headers = {
        **CORS_HEADERS,
        "access-control-allow-methods": ALLOWED_METHODS,
        "access-control-max-age": str(PREFLIGHT_MAX_AGE),
        "cache-control": f"public, max-age={PREFLIGHT_MAX_AGE}",
    }
    if request_headers:
        headers["access-control-allow-headers"] = request_headers
    return HTTPResponse(None, status=204, headers=headers)


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
