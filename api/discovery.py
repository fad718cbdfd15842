"""Discovery documents of the API families, built once at startup from the route tables and
served as static bytes (with a strong ETag, `Access-Control-Allow-Origin: *`, GET/HEAD/OPTIONS).

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
from .envelope import CORS_HEADERS, JSON, STALE_WHILE_REVALIDATE, etag_matches, not_modified, preflight
from .openapi import build_openapi
from .routes import Family
from .skill import build_skill, render_skill_md
from ..core.config import Settings

DOCUMENT_CACHE_SECONDS = 300
HTML = "text/html; charset=utf-8"
MARKDOWN = "text/markdown; charset=utf-8"

METHODS = ["GET", "HEAD", "OPTIONS"]


class Document:
    """One served document: encoded body, content type, extra headers, strong ETag."""

    def __init__(self, body: bytes, content_type: str, headers: dict[str, str] | None = None):
        self.body = body
        self.content_type = content_type
        digest = hashlib.sha256(body).hexdigest()[:32]
        self.headers = {
            **CORS_HEADERS,
            "cache-control": f"public, max-age={DOCUMENT_CACHE_SECONDS}, stale-while-revalidate={STALE_WHILE_REVALIDATE}",
            "etag": f'"{digest}"',
            **(headers or {}),
        }


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
            if etag_matches(request.headers.get("if-none-match"), _doc.headers["etag"]):
                return not_modified(_doc.headers)
            if request.method == "HEAD":
                headers = {**_doc.headers, "content-length": str(len(_doc.body))}
                return HTTPResponse(None, status=200, headers=headers, content_type=_doc.content_type)
            return HTTPResponse(_doc.body, status=200, headers=_doc.headers, content_type=_doc.content_type)

        bp.add_route(serve, path, methods=METHODS, name=f"document_{index}")
    return bp
