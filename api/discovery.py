"""Discovery documents of the API families, built once at startup and served as static bytes.

Now: `<prefix>/openapi.json` per family (OpenAPI 3.1, generated from the route table). The
interactive reference UI, the RFC 9727 api-catalog and the agent skill manifest are further
entries of `documents()`, built from the same Family objects.
"""
from __future__ import annotations

from typing import Iterable

import orjson
from sanic import Blueprint, Request
from sanic.response import HTTPResponse

from api.envelope import CORS_HEADERS, JSON, preflight
from api.openapi import build_openapi
from api.routes import Family
from core.config import Settings

DOCUMENT_CACHE_SECONDS = 300


def documents(families: Iterable[Family], settings: Settings) -> dict[str, tuple[bytes, str]]:
    """path -> (body, content type)"""
    out: dict[str, tuple[bytes, str]] = {}
    for family in families:
        out[f"{family.prefix}/openapi.json"] = (orjson.dumps(build_openapi(family, settings.production_host)), JSON)
    return out


def discovery_blueprint(families: Iterable[Family], settings: Settings) -> Blueprint:
    bp = Blueprint("discovery")
    for index, (path, (body, content_type)) in enumerate(documents(families, settings).items()):
        headers = {**CORS_HEADERS, "cache-control": f"public, max-age={DOCUMENT_CACHE_SECONDS}"}

        async def serve(request: Request, _body: bytes = body, _type: str = content_type, _headers: dict = headers) -> HTTPResponse:
            if request.method == "OPTIONS":
                return preflight(request.headers.get("access-control-request-headers"))
            return HTTPResponse(_body, status=200, headers=_headers, content_type=_type)

        bp.add_route(serve, path, methods=["GET", "OPTIONS"], name=f"document_{index}")
    return bp
