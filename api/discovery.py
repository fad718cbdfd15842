"""Discovery documents of the API families, built once at startup from the route tables and
served as static bytes (with a strong ETag, `Access-Control-Allow-Origin: *`, GET/HEAD/OPTIONS).

    <prefix>/openapi.json      OpenAPI 3.1 contract per family (api/openapi.py)
    <prefix>/docs              interactive reference: one self-contained HTML page (api/docs/),
                               no CDN, no external font; it fetches openapi.json and renders it
    /.well-known/api-catalog   RFC 9727 api-catalog, an RFC 9264 linkset (application/linkset+json)
    /skill.json, /skill.md     agent skill manifest; `analytics_api` lists every endpoint

Every document is generated from the same `Family`/`Route` objects that drive routing, so a
route added to a route table appears in all of them at the next start.

Links are root-relative (`/api/stats/openapi.json`): the same bytes are correct on every host
that serves the API (the API host, the website origin, a local stack), and RFC 9264 resolves a
relative reference against the URI of the linkset document itself (RFC 3986 section 5). The
production host is named once, as the second OpenAPI server and in the skill manifest.

The internal snapshot trigger (/api/cron/...) is deliberately absent from every public document.
"""
from __future__ import annotations

import base64
import hashlib
import json
from html import escape
from pathlib import Path
from typing import Any, Iterable

import orjson
from sanic import Blueprint, Request
from sanic.response import HTTPResponse

from ve_analytics.api.envelope import CORS_HEADERS, JSON, STALE_WHILE_REVALIDATE, etag_matches
from ve_analytics.api.guide import Guide
from ve_analytics.api.openapi import GENERIC_ERRORS, build_openapi
from ve_analytics.api.routes import INTERNAL_ERROR, Family, Route
from ve_analytics.api.snapshots import SNAPSHOT_UNAVAILABLE
from ve_analytics.api.validation import UNKNOWN_PARAMETER, Param
from ve_analytics.core.config import Settings

DOCUMENT_CACHE_SECONDS = 300
DOCS_DIR = Path(__file__).with_name("docs")
API_CATALOG = "/.well-known/api-catalog"
SKILL_JSON, SKILL_MD = "/skill.json", "/skill.md"
RFC9727_PROFILE = "https://www.rfc-editor.org/info/rfc9727"
LINKSET = f'application/linkset+json; profile="{RFC9727_PROFILE}"'
HTML = "text/html; charset=utf-8"
MARKDOWN = "text/markdown; charset=utf-8"
SKILL_NAME = "analytics-api"

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


# ------------------------------------------------------------------------------ links


def docs_path(family: Family) -> str:
    return f"{family.prefix}/docs"


def openapi_path(family: Family) -> str:
    return f"{family.prefix}/openapi.json"


def build_api_catalog(families: Iterable[Family]) -> dict[str, Any]:
    """RFC 9727 catalog: one linkset context per family (its base path as anchor)."""
    linkset = []
    for family in families:
        linkset.append(
            {
                "anchor": family.prefix,
                "service-desc": [{"href": openapi_path(family), "type": "application/openapi+json", "title": f"{family.title} {family.version} (OpenAPI 3.1)"}],
                "service-doc": [{"href": docs_path(family), "type": "text/html", "title": "interactive reference"}],
                "service-meta": [
                    {"href": SKILL_JSON, "type": JSON, "title": "agent skill manifest"},
                    {"href": SKILL_MD, "type": "text/markdown", "title": "agent skill manifest (Markdown)"},
                ],
                "describedby": [
                    {"href": SKILL_JSON, "type": JSON},
                    {"href": SKILL_MD, "type": "text/markdown"},
                ],
            }
        )
    return {"linkset": linkset}


# ------------------------------------------------------------------------------ skill manifest


def _param_entry(param: Param) -> dict[str, Any]:
    schema = param.json_schema()
    entry: dict[str, Any] = {
        "name": param.name,
        "in": param.location,
        "type": "boolean" if param.kind == "boolean" else schema["type"],
        "required": param.required,
    }
    if param.kind == "address":
        entry["format"] = "address"
    for key in ("default", "minimum", "maximum", "pattern"):
        if key in schema:
            entry[key] = schema[key]
    if param.kind == "enum":
        entry["enum"] = list(param.choices)
    elif param.kind == "boolean":
        entry["enum"] = ["true", "false", "1", "0"]
    entry["accepts"] = param.accepted()
    entry["errorCode"] = param.error_code
    if param.description:
        entry["description"] = param.description
    return entry


def _error_entries(route: Route) -> list[dict[str, Any]]:
    explained = {
        UNKNOWN_PARAMETER: "a query parameter the route does not accept",
        route.query_failed_code: "the warehouse query failed; usually transient, retry with backoff",
        INTERNAL_ERROR: "an unexpected server error",
        SNAPSHOT_UNAVAILABLE: "no successful snapshot has been published yet; retry after Retry-After seconds",
    }
    explained.update({p.error_code: f"{p.name} must be {p.accepted()}" for p in route.params})
    explained.update({doc.code: doc.description for doc in route.errors})
    return [
        {"status": status, "code": code, "description": explained.get(code, code)}
        for status, codes in route.error_codes().items()
        for code in codes
    ]


def _endpoint(family: Family, route: Route) -> dict[str, Any]:
    path = family.full_path(route)
    pointer = path.replace("~", "~0").replace("/", "~1")
    return {
        "method": "GET",
        "path": path,
        "operationId": "".join(p if i == 0 else p.capitalize() for i, p in enumerate(route.name.split("_"))),
        "summary": route.summary,
        "description": route.description,
        "tags": list(route.tags),
        "parameters": [_param_entry(p) for p in route.params],
        "errors": _error_entries(route),
        "cacheTtlSeconds": route.cache_seconds,
        "snapshotBacked": route.snapshot,
        "responseSchema": f"{openapi_path(family)}#/paths/{pointer}/get/responses/200",
    }


def _usage(guide: Guide) -> dict[str, Any]:
    generic = [{"status": status, "code": code, "description": text} for status, (code, text) in GENERIC_ERRORS.items()]
    return {
        "request": "HTTP GET only (OPTIONS for CORS preflight); query parameters as documented per endpoint; "
        "an undocumented query parameter is a 400 `unknown_parameter`, a repeated one a 400 with its own code.",
        "envelope": dict(guide.envelope),
        "errors": {**guide.errors, "generic": generic},
        "caching": guide.caching,
        "polling": guide.polling,
        "cors": "every response carries Access-Control-Allow-Origin: *; browsers may call the API directly",
        "units": "USD values are JSON numbers; raw on-chain integers larger than 2^53 are decimal strings",
    }


def build_skill(families: list[Family], settings: Settings) -> dict[str, Any]:
    """The manifest's title, description and `usage` are the first family's; a later family with
    its own guide carries its `usage` in its `analytics_api.families` entry."""
    first = families[0]
    entries = []
    for f in families:
        entry = {"name": f.name, "basePath": f.prefix, "version": f.version, "openapi": openapi_path(f), "chainId": f.chain_id}
        if f.guide is not first.guide:
            entry.update(title=f.title, description=f.guide.description, usage=_usage(f.guide))
        entries.append(entry)
    return {
        "name": SKILL_NAME,
        "title": first.title,
        "version": first.version,
        "description": first.guide.description,
        "license": "MIT",
        "servers": [
            {"url": "/", "description": "the host that served this manifest"},
            {"url": settings.production_host, "description": "production"},
        ],
        "authentication": "none: every public route is anonymous; no API key",
        "discovery": {
            "apiCatalog": API_CATALOG,
            "openapi": [openapi_path(f) for f in families],
            "docs": [docs_path(f) for f in families],
            "skill": {"json": SKILL_JSON, "markdown": SKILL_MD},
        },
        "usage": _usage(first.guide),
        "analytics_api": {
            "families": entries,
            "endpoints": [_endpoint(f, route) for f in families for route in f.routes],
        },
    }


def _cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _param_md(p: dict[str, Any]) -> str:
    bits = [f"`{p['name']}` ({p['in']}, {p['type']}"]
    if "default" in p:
        bits.append(f", default {p['default']}")
    if "minimum" in p or "maximum" in p:
        bits.append(f", {p.get('minimum', '')}..{p.get('maximum', '')}")
    if "enum" in p:
        bits.append(", one of " + "/".join(map(str, p["enum"])))
    if "pattern" in p:
        bits.append(f", pattern `{p['pattern']}`")
    if p.get("format") == "address":
        bits.append(", 0x + 40 hex")
    bits.append(")")
    return "".join(bits)


def _usage_md(usage: dict[str, Any], heading: str) -> list[str]:
    return [
        f"{heading}Envelope",
        "",
        f"- Success: `{usage['envelope']['success']}`",
        f"- Failure: `{usage['envelope']['failure']}`",
        f"- Rule: {usage['envelope']['rule']}.",
        "",
        f"{heading}Errors",
        "",
        *(f"- {status}: {text}" for status, text in usage["errors"].items() if status != "generic"),
        "",
        f"{heading}Caching and ETag",
        "",
        usage["caching"],
        "",
        f"{heading}Polling",
        "",
        usage["polling"],
        "",
    ]


def render_skill_md(skill: dict[str, Any]) -> str:
    usage = skill["usage"]
    servers = "\n".join(f"- `{s['url']}`: {s['description']}" for s in skill["servers"])
    disc = skill["discovery"]
    lines = [
        "---",
        f"name: {skill['name']}",
        f"description: {json.dumps(skill['description'])}",
        f"version: {skill['version']}",
        "---",
        "",
        f"# {skill['title']} {skill['version']}",
        "",
        skill["description"],
        "",
        "## How to call it",
        "",
        "Servers (paths below are relative to one of them):",
        "",
        servers,
        "",
        f"- Authentication: {skill['authentication']}.",
        f"- Requests: {usage['request']}",
        f"- CORS: {usage['cors']}.",
        f"- Units: {usage['units']}.",
        f"- Contract: {', '.join(f'`{p}`' for p in disc['openapi'])} (OpenAPI 3.1); "
        f"reference UI {', '.join(f'`{p}`' for p in disc['docs'])}; catalog `{disc['apiCatalog']}`; "
        f"this manifest as JSON `{disc['skill']['json']}`.",
        "",
        *_usage_md(usage, "## "),
        *(line for f in skill["analytics_api"]["families"] if "usage" in f
          for line in (f"## {f['title']} ({f['basePath']})", "", f["description"], "", *_usage_md(f["usage"], "### "))),
        "## analytics_api",
        "",
        "Every endpoint (generated from the route table, like the OpenAPI document):",
        "",
        "| method | path | summary | parameters | errors | cache |",
        "|---|---|---|---|---|---|",
    ]
    for ep in skill["analytics_api"]["endpoints"]:
        params = "; ".join(_param_md(p) for p in ep["parameters"]) or "none"
        errors = "; ".join(f"{e['status']} `{e['code']}`" for e in ep["errors"])
        cache = f"{ep['cacheTtlSeconds']} s" + (", ETag" if ep["snapshotBacked"] else ", no ETag")
        lines.append(f"| {ep['method']} | `{ep['path']}` | {_cell(ep['summary'])} | {_cell(params)} | {_cell(errors)} | {cache} |")
    lines += ["", "### Endpoint details", ""]
    for ep in skill["analytics_api"]["endpoints"]:
        lines += [f"#### {ep['method']} {ep['path']}", "", ep["summary"] + ".", ""]
        if ep["description"]:
            lines += [ep["description"], ""]
        for p in ep["parameters"]:
            lines.append(f"- {_param_md(p)}: {p['accepts']}; otherwise 400 `{p['errorCode']}`.")
        for e in ep["errors"]:
            lines.append(f"- {e['status']} `{e['code']}`: {e['description']}")
        lines += [f"- Response schema: `{ep['responseSchema']}`", ""]
    return "\n".join(lines)


# ------------------------------------------------------------------------------ docs page


def _csp_hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def build_docs_page(family: Family) -> tuple[bytes, dict[str, str]]:
    """The reference UI: api/docs/index.html with its CSS and JS inlined (one request, no CDN).
    A Content-Security-Policy allows exactly these inline blocks and same-origin fetches."""
    css = (DOCS_DIR / "docs.css").read_text()
    js = (DOCS_DIR / "docs.js").read_text()
    html = (DOCS_DIR / "index.html").read_text()
    replacements = {
        "{{title}}": escape(f"{family.title} {family.version}"),
        "{{openapi}}": escape(openapi_path(family)),
        "{{css}}": css,
        "{{js}}": js,
    }
    for key, value in replacements.items():
        html = html.replace(key, value)
    csp = (
        "default-src 'none'; "
        f"script-src {_csp_hash(js)}; style-src {_csp_hash(css)}; "
        "connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'self'"
    )
    return html.encode(), {"content-security-policy": csp, "x-content-type-options": "nosniff"}


# ------------------------------------------------------------------------------ serving


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


def _preflight(request: Request) -> HTTPResponse:
    headers = {
        **CORS_HEADERS,
        "access-control-allow-methods": ", ".join(METHODS),
        "access-control-max-age": "86400",
        "cache-control": "public, max-age=86400",
    }
    requested = request.headers.get("access-control-request-headers")
    if requested:
        headers["access-control-allow-headers"] = requested
    return HTTPResponse(None, status=204, headers=headers)


def discovery_blueprint(families: Iterable[Family], settings: Settings) -> Blueprint:
    bp = Blueprint("discovery")
    for index, (path, doc) in enumerate(documents(families, settings).items()):

        async def serve(request: Request, _doc: Document = doc) -> HTTPResponse:
            if request.method == "OPTIONS":
                return _preflight(request)
            if etag_matches(request.headers.get("if-none-match"), _doc.headers["etag"]):
                return HTTPResponse(None, status=304, headers=_doc.headers)
            if request.method == "HEAD":
                headers = {**_doc.headers, "content-length": str(len(_doc.body))}
                return HTTPResponse(None, status=200, headers=headers, content_type=_doc.content_type)
            return HTTPResponse(_doc.body, status=200, headers=_doc.headers, content_type=_doc.content_type)

        bp.add_route(serve, path, methods=METHODS, name=f"document_{index}")
    return bp


__all__ = ["documents", "discovery_blueprint", "build_skill", "render_skill_md", "build_api_catalog"]
