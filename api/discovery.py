"""Discovery documents of the API families, built once at startup from the route tables and
served as static bytes (with a strong ETag, `Access-Control-Allow-Origin: *`, GET/HEAD/OPTIONS),
compressed when the client asks (api/compression.py; each coding its own strong ETag).

    <prefix>/openapi.json      OpenAPI 3.1 contract per family (api/openapi.py)
    <prefix>/docs              interactive reference: one self-contained HTML page (api/docs_page.py)
    /.well-known/api-catalog   RFC 9727 api-catalog, an RFC 9264 linkset (api/catalog.py)
    /skill.json, /skill.md     agent skill manifest; `analytics_api` lists every endpoint (api/skill.py)

Every document is generated from the same `Family`/`Route` objects that drive routing, so a
route added to a route table appears in all of them at the next start. Links are root-relative
(api/catalog.py); the production host is named once, as the second OpenAPI server and in the
skill manifest.

The internal snapshot trigger (/api/cron/...) is deliberately absent from every public document.
"""
from __future__ import annotations

import hashlib
from typing import Iterable

import orjson
from sanic import Blueprint, Request
from sanic.response import HTTPResponse

from .catalog import API_CATALOG, LINKSET, SKILL_JSON, SKILL_MD, build_api_catalog, docs_path, openapi_path
from .docs_page import build_docs_page
from .compression import CODINGS, VARY, etag_matches_any, etag_variant
from .envelope import CORS_HEADERS, JSON, STALE_WHILE_REVALIDATE, not_modified, preflight
from .openapi import build_openapi
from .prepared import ApiResponse
from .routes import Family
from .skill import build_skill, render_skill_md
from ..core.config import Settings

DOCUMENT_CACHE_SECONDS = 300
HTML = "text/html; charset=utf-8"
MARKDOWN = "text/markdown; charset=utf-8"

METHODS = ["GET", "HEAD", "OPTIONS"]


class Document:
    """One served document: encoded body, content type, extra headers, strong ETag, and its
    content-coded variants (each encoded on first request, then kept: the document is static)."""

    def __init__(self, body: bytes, content_type: str, headers: dict[str, str] | None = None):
        self.body = body
        self.content_type = content_type
        digest = hashlib.sha256(body).hexdigest()[:32]
        self.etag = f'"{digest}"'
        self.headers = {
            **CORS_HEADERS,
            "cache-control": f"public, max-age={DOCUMENT_CACHE_SECONDS}, stale-while-revalidate={STALE_WHILE_REVALIDATE}",
            "etag": self.etag,
            "vary": VARY,
            **(headers or {}),
        }
        self._variants: dict[str | None, tuple[bytes, dict[str, str], dict[str, str]]] = {None: (body, self.headers, self.headers)}

    def variant(self, coding: str | None) -> tuple[bytes, dict[str, str], dict[str, str]]:
        """(body, headers of the 200, headers of a 304) in `coding` (None: identity); a coded
        variant has its own strong ETag, and its 304 names it without a Content-Encoding."""
        found = self._variants.get(coding)
        if found is None:
            headers = {**self.headers, "etag": etag_variant(self.etag, coding)}
            found = (CODINGS[coding](self.body), {**headers, "content-encoding": coding}, headers)
            self._variants[coding] = found
        return found


def documents(families: Iterable[Family], settings: Settings) -> dict[str, Document]:
    """path -> Document"""
    families = list(families)
    out: dict[str, Document] = {}
    link = {"link": f'<{API_CATALOG}>; rel="api-catalog"'}  # RFC 9727: the catalog is discoverable from every document
    for family in families:
        out[openapi_path(family)] = Document(orjson.dumps(build_openapi(family, settings.production_host)), JSON, link)
        page, headers = build_docs_page(family)
        out[docs_path(family)] = Document(page, HTML, {**headers, **link})
    if families:
        out[API_CATALOG] = Document(orjson.dumps(build_api_catalog(families)), LINKSET, link)
        skill = build_skill(families, settings)
        out[SKILL_JSON] = Document(orjson.dumps(skill), JSON, link)
        out[SKILL_MD] = Document(render_skill_md(skill).encode(), MARKDOWN, link)
    return out


def discovery_blueprint(families: Iterable[Family], settings: Settings) -> Blueprint:
    bp = Blueprint("discovery")
    for index, (path, doc) in enumerate(documents(families, settings).items()):

        async def serve(request: Request, _doc: Document = doc) -> HTTPResponse:
            if request.method == "OPTIONS":
                return preflight(request.headers.get("access-control-request-headers"), ", ".join(METHODS))
            coding = request.app.ctx.encodings.coding_for(request.headers.get("accept-encoding"), len(_doc.body))
            body, headers, not_modified_headers = _doc.variant(coding)
            if etag_matches_any(request.headers.get("if-none-match"), _doc.etag):
                return not_modified(not_modified_headers)
            # HEAD: Sanic sends these headers and the Content-Length of `body`, without the body
            return ApiResponse(body, status=200, headers=headers, content_type=_doc.content_type)

        bp.add_route(serve, path, methods=METHODS, name=f"document_{index}")
    return bp
