"""The agent skill manifest: /skill.json (`build_skill`), generated from the route tables like
the OpenAPI documents, with an `analytics_api` block listing every endpoint, and its Markdown
rendering /skill.md (`render_skill_md`). The usage text is each family's Guide (api/guide.py).
"""
from __future__ import annotations

import json
from typing import Any

from .catalog import API_CATALOG, SKILL_JSON, SKILL_MD, docs_path, openapi_path
from .guide import Guide
from .openapi import GENERIC_ERRORS, error_texts, operation_id
from .routes import Family, Route
from .validation import Param
from ..core.config import Settings

SKILL_NAME = "analytics-api"


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
    explained = error_texts(route, "no successful snapshot has been published yet; retry after Retry-After seconds")
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
        "operationId": operation_id(route),
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
        "request": "HTTP GET (HEAD for its headers alone, OPTIONS for CORS preflight); gzip, br or zstd on request (Accept-Encoding); query parameters as documented per endpoint; "
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
