"""Content coding of response bodies (RFC 9110 8.4, 12.5.3): Accept-Encoding negotiation, the
encoders (br, zstd, gzip), encoded bodies kept in the worker's byte-bounded cache (a cached
answer is encoded once per coding and keeps its variants), the strong ETag of an encoded
variant, `Encodings.respond` for cached answers (their header block encoded once per coding,
api/prepared.py) and `negotiated()`, the wrapper that applies all of it to a route's other
responses.

- A body is encoded when it is at least `MIN_SIZE` bytes and the client accepts a coding; the
  client's q-values decide, the server's order (`CODINGS`) breaks ties. `identity` is chosen when
  the client rates it above every coding; when the client refuses identity too and accepts no
  coding, the body is sent unencoded (the RFC allows it; no 406).
- Every response a route may encode carries `Vary: Accept-Encoding`, its 304s and HEADs too.
- A HEAD answer gets the headers of the GET it mirrors: the endpoint builds the same response,
  this module encodes it the same way, and Sanic sends the headers (Content-Length of the body
  GET would send) without the body.
- Weak ETags (`W/"snap-..."`) are shared by every coding of one snapshot; a strong ETag gets the
  coding as a suffix inside the quotes (`"abc"` -> `"abc-gzip"`, RFC 9110 8.8.3), and
  `etag_matches_any` accepts the tag of any coding of the same representation.
"""
from __future__ import annotations

import re
import zlib
from typing import Any, Awaitable, Callable

import brotli
from sanic import Request
from sanic.compat import Header
from sanic.response import HTTPResponse

from .cache import Cache, Store
from .envelope import NO_STORE
from .offload import off_loop
from .prepared import Answer, PreparedResponse, encode_headers

try:  # the standard library from Python 3.14 (PEP 784), its backport before
    from compression import zstd
except ImportError:  # pragma: no cover - depends on the interpreter
    from backports import zstd

MIN_SIZE = 1024  # below this, the coding's headers and CPU cost more than the bytes saved
# A body this large is encoded off the event loop (api/offload.py): br, zstd and zlib release the
# GIL, so the loop keeps serving cached answers meanwhile (a 4 MB body takes br 65 ms).
OFF_LOOP_BYTES = 64 * 1024
VARY = "Accept-Encoding"

# Server preference among codings the client rates equally: br and zstd make JSON smaller than
# gzip. Levels suit bodies encoded once per snapshot and then served from the memo.
CODINGS: dict[str, Callable[[bytes], bytes]] = {
    "br": lambda body: brotli.compress(body, quality=5),
    "zstd": lambda body: zstd.compress(body, level=3),
    "gzip": lambda body: zlib.compress(body, 6, wbits=31),  # wbits=31: the gzip container, mtime 0
}
ALIASES = {"x-gzip": "gzip"}  # RFC 9110 8.4.1.3
_QVALUE = re.compile(r"(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)")

Negotiated = tuple[str | None, bool]  # (coding or None for identity, identity refused)


def parse_accept_encoding(header: str) -> Negotiated:
    """The coding to send for an Accept-Encoding value, and whether the client refused identity."""
    weights: dict[str, float] = {}
    for member in header.split(","):
        name, _, params = member.partition(";")
        name = name.strip().lower()
        if not name:
            continue
        weight = 1.0
        for param in params.split(";"):
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                value = value.strip()
                if not _QVALUE.fullmatch(value):
                    break  # a malformed weight: the member says nothing
                weight = float(value)
        else:
            name = ALIASES.get(name, name)
            weights[name] = max(weight, weights.get(name, 0.0))
    star = weights.get("*")
    best, best_q = None, 0.0
    for coding in CODINGS:
        q = weights.get(coding, star)
        if q is not None and q > best_q:  # strictly greater: ties keep the server's order
            best, best_q = coding, q
    identity_q = weights.get("identity", star)
    if best is not None and identity_q is not None and identity_q > best_q:
        best = None
    return best, identity_q == 0.0


def etag_variant(etag: str, coding: str | None) -> str:
    """The ETag of `coding`'s variant: weak tags are shared, strong ones get a suffix."""
    if coding is None or etag.startswith("W/"):
        return etag
    return f'{etag[:-1]}-{coding}"'


def variant_headers(headers: dict[str, str], coding: str | None) -> dict[str, str]:
    """The headers of a response's `coding` variant: Vary always, Content-Encoding and the
    variant's ETag when encoded."""
    out = {**headers, "vary": VARY}
    if coding is not None:
        out["content-encoding"] = coding
        if "etag" in out:
            out["etag"] = etag_variant(out["etag"], coding)
    return out


def etag_matches_any(if_none_match: str | None, etag: str) -> bool:
    """Weak comparison (RFC 9110 13.1.2) against `etag` or the tag of any coding of it."""
    if not if_none_match:
        return False
    opaque = etag[2:] if etag.startswith("W/") else etag
    variants = {opaque, *(etag_variant(opaque, coding) for coding in CODINGS)}
    for candidate in if_none_match.split(","):
        candidate = candidate.strip()
        if candidate == "*" or (candidate[2:] if candidate.startswith("W/") else candidate) in variants:
            return True
    return False


class Encodings:
    """Per worker: negotiation results per Accept-Encoding value, and encoded bodies, all kept in
    the worker's byte-bounded store (api/cache.py). A cached answer keeps its encoded variants
    (and their header blocks) itself, so they count with it and go when it goes; an uncached
    response that may be sent again keeps its encoding by (body, coding): a repeated body is the
    very same bytes object or an equal one, whose hash Python keeps, so a hit costs a lookup."""

    def __init__(self, store: Store | None = None):
        self._negotiated = Cache("negotiated", store)
        self._encoded = Cache("encoded", store)

    def negotiate(self, header: str) -> Negotiated:
        return self._negotiated.memo(header, lambda: parse_accept_encoding(header))

    def coding_for(self, accept_encoding: str | None, size: int) -> str | None:
        """The coding a body of `size` bytes is sent in, None for identity."""
        if accept_encoding is None:
            return None
        coding, identity_refused = self.negotiate(accept_encoding)
        if size < MIN_SIZE and not identity_refused:
            return None
        return coding

    def encode(self, body: bytes, coding: str, keep: bool) -> bytes:
        """`body` in `coding`; `keep`: the response may be sent again, so remember the result
        (counted with the body it is keyed by)."""
        key = (body, coding)
        encoded = self._encoded.peek(key)
        if encoded is None:
            encoded = CODINGS[coding](body)
            if keep:
                self._encoded.put(key, encoded)
        return encoded

    def apply(self, request: Request, response: HTTPResponse) -> HTTPResponse:
        """Encode `response` in place as negotiated for `request` and add Vary."""
        body = response.body
        coding = self.coding_for(request.headers.get("accept-encoding"), len(body)) if body else None  # not a 304, 204
        if coding is not None:
            # a no-store answer (health) is built anew for each request: nothing to remember
            response.body = self.encode(body, coding, keep=response.headers.get("cache-control") != NO_STORE)
        response.headers = Header(variant_headers(dict(response.headers), coding))
        return response

    def respond(self, request: Request, answer: Answer, kept_in: Cache | None = None, key: Any = None,
                status: int = 200) -> PreparedResponse | None:
        """`answer` as negotiated for `request`. Its header block and encoded body for that
        coding are made once and kept with it while `kept_in` keeps it under `key`; a variant
        that would take it past the cache's per-entry limit is sent but not kept. None when that
        body is still to be encoded and large: then await `respond_off_loop` instead."""
        coding = self.coding_for(request.headers.get("accept-encoding"), len(answer.body))
        if coding is not None and coding not in answer.variants and len(answer.body) >= OFF_LOOP_BYTES:
            return None
        return self._respond(answer, coding, None, kept_in, key, status)

    async def respond_off_loop(self, request: Request, answer: Answer, kept_in: Cache | None = None, key: Any = None,
                               status: int = 200) -> PreparedResponse:
        """`respond`, the body encoded in a thread meanwhile."""
        coding = self.coding_for(request.headers.get("accept-encoding"), len(answer.body))
        encoded = None
        if coding is not None and coding not in answer.variants:
            encoded = await off_loop(CODINGS[coding], answer.body)
        return self._respond(answer, coding, encoded, kept_in, key, status)

    def _respond(self, answer: Answer, coding: str | None, encoded: bytes | None, kept_in: Cache | None, key: Any,
                 status: int) -> PreparedResponse:
        block = answer.blocks.get(coding)
        grown = block is None
        if grown:
            block = answer.blocks[coding] = encode_headers(variant_headers(answer.headers, coding))
        body = answer.body if coding is None else answer.variants.get(coding)
        if body is None:
            body = answer.variants[coding] = encoded if encoded is not None else CODINGS[coding](answer.body)
            grown = True
        if grown and kept_in is not None and not kept_in.resize(key, answer):
            answer.variants.pop(coding, None)  # kept identity only (or no longer kept at all)
            kept_in.resize(key, answer)
        return PreparedResponse(body, status, block)


def negotiated(endpoint: Callable[..., Awaitable[HTTPResponse]]) -> Callable[..., Awaitable[HTTPResponse]]:
    """`endpoint` with its answers encoded (app.ctx.encodings); CORS preflights left as they are.
    A wrapper, not response middleware: Sanic dispatches two signals around every middleware
    call, which a cached answer cannot afford."""

    async def encoded(request: Request, **path_args: Any) -> HTTPResponse:
        response = await endpoint(request, **path_args)
        if request.method == "OPTIONS" or isinstance(response, PreparedResponse):  # negotiated already
            return response
        return request.app.ctx.encodings.apply(request, response)

    encoded.__name__ = endpoint.__name__
    return encoded
