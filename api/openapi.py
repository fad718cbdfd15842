"""OpenAPI 3.1 contract of an API family, generated from its route table at startup.

Paths, parameters (with their accepted values and error codes), response envelopes, data
schemas, cache and ETag headers all come from the same `Route` declarations that drive
routing, so the served surface and the published contract cannot drift.
"""
from __future__ import annotations

from typing import Any

from .admission import OVERLOADED
from .compression import CODINGS, MIN_SIZE, VARY
from .envelope import ALLOWED_METHODS, MEMO_ETAG_HEADER, PREFLIGHT_MAX_AGE, cache_control
from .routes import INTERNAL_ERROR, Family, Route
from .schema import components, ref
from .coverage import CHAIN_NOT_PUBLIC
from .snapshots import SNAPSHOT_UNAVAILABLE, SOURCE_UNAVAILABLE
from .validation import UNKNOWN_PARAMETER, Param

OPENAPI_VERSION = "3.1.0"
LICENSE = {"name": "MIT", "identifier": "MIT"}
JSON = "application/json"

GENERIC_ERRORS = {
    404: ("not_found", "No route matches the path."),
    405: ("method_not_allowed", f"Only {ALLOWED_METHODS} are served."),
}


def _base_components(family: Family) -> dict[str, Any]:
    error_envelope = {
        "type": "object",
        "required": ["ok", "error", "meta"],
        "additionalProperties": False,
        "properties": {
            "ok": {"const": False},
            "error": {
                "type": "object",
                "required": ["code", "message"],
                "additionalProperties": False,
                "properties": {
                    "code": {"type": "string", "description": "stable machine-readable code"},
                    "message": {"type": "string", "description": "what went wrong and what is accepted"},
                    "details": {"description": "structured context for some codes (for example `unhealthy`)"},
                },
            },
            "meta": ref("ErrorMeta"),
        },
    }
    schemas = components(family.envelope.meta_components(family.chain_id, family.routes),
                         {"ErrorEnvelope": error_envelope}, family.schemas)
    snapshots = any(route.etagged for route in family.routes)  # ETag, If-None-Match and 304 only with them
    headers = {
        **({"ETag": family.envelope.etag_header()} if snapshots else {}),
        **({"LiveETag": MEMO_ETAG_HEADER} if any(route.live for route in family.routes) else {}),
        "Vary": {
            "description": "The answer depends on Accept-Encoding (its content coding).",
            "schema": {"const": VARY},
        },
        "ContentEncoding": {
            "description": f"The body's content coding, present when the client's Accept-Encoding asked for one and the "
                           f"body is at least {MIN_SIZE} bytes.",
            "required": False,
            "schema": {"enum": list(CODINGS)},
        },
        "CacheControl": {"description": "CDN and browser caching policy.", "schema": {"type": "string"}},
        "AccessControlAllowOrigin": {"description": "Always `*`.", "schema": {"const": "*"}},
        "RetryAfter": {"description": "Seconds to wait before retrying.", "schema": {"type": "integer"}},
    }
    responses = {} if not snapshots else {
        "NotModified": {
            "description": "The answer has not changed since the ETag sent in If-None-Match; no body.",
            "headers": {"ETag": {"$ref": "#/components/headers/ETag"}, "Cache-Control": {"$ref": "#/components/headers/CacheControl"},
                        "Vary": {"$ref": "#/components/headers/Vary"}},
        },
    }
    if "LiveETag" in headers:
        responses["LiveNotModified"] = {**responses["NotModified"], "headers": {
            **responses["NotModified"]["headers"], "ETag": {"$ref": "#/components/headers/LiveETag"}}}
    for code, text in GENERIC_ERRORS.values():
        responses[_pascal(code)] = _error_response(f"`{code}`: {text}", [code], {})
    parameters = {} if not snapshots else {
        "IfNoneMatch": {
            "name": "If-None-Match",
            "in": "header",
            "required": False,
            "description": "ETag(s) from an earlier response (weak comparison, comma list or `*`); a match answers 304.",
            "schema": {"type": "string"},
        }
    }
    return {"schemas": schemas, "headers": headers, "responses": responses, "parameters": parameters}


def _pascal(code: str) -> str:
    return "".join(part.capitalize() for part in code.split("_"))


def _error_response(description: str, codes: list[str], details: dict[str, dict], status: int | None = None) -> dict[str, Any]:
    error: dict[str, Any] = {"properties": {"code": {"enum": codes}}}
    if details:
        error["properties"]["details"] = {"oneOf": list(details.values())} if len(details) > 1 else next(iter(details.values()))
        if set(details) == set(codes):
            error["required"] = ["details"]
    headers: dict[str, Any] = {
        "Access-Control-Allow-Origin": {"$ref": "#/components/headers/AccessControlAllowOrigin"},
        "Cache-Control": {"$ref": "#/components/headers/CacheControl"},
    }
    if status in (429, 503):
        headers["Retry-After"] = {"$ref": "#/components/headers/RetryAfter"}
    schema = {"allOf": [ref("ErrorEnvelope"), {"properties": {"error": error}}]}
    return {"description": description, "headers": headers, "content": {JSON: {"schema": schema}}}


def _parameter(param: Param) -> dict[str, Any]:
    description = param.description.rstrip(".") + ". " if param.description else ""
    description += f"Accepts {param.accepted()}; anything else is a 400 `{param.error_code}`."
    return {"name": param.name, "in": param.location, "required": param.required, "description": description, "schema": param.json_schema()}


PAGE_INFO = {
    "type": "object",
    "required": ["nextCursor", "hasNextPage"],
    "additionalProperties": False,
    "properties": {
        "nextCursor": {"type": ["string", "null"], "maxLength": 8192,
                       "description": "the cursor of the next page (null on the last page)"},
        "hasNextPage": {"type": "boolean"},
    },
    "description": "paginated collections: follow nextCursor, the other parameters unchanged, until hasNextPage is false",
}


def _operation(family: Family, route: Route) -> dict[str, Any]:
    meta_schema = ref(family.envelope.meta_name(route.cache_seconds, route.snapshot))
    success = route.data_schema if route.raw else {
        "type": "object",
        "required": ["ok", "data", "meta"],
        "additionalProperties": False,
        "properties": {"ok": {"const": True}, "data": route.data_schema, "meta": meta_schema},
    }
    if route.paginated:
        success["required"].append("pageInfo")
        success["properties"]["pageInfo"] = PAGE_INFO
    ok_headers: dict[str, Any] = {
        "Cache-Control": {
            "description": f"`{cache_control(route.cache_seconds)}`",
            "schema": {"const": cache_control(route.cache_seconds)},
        },
        "Access-Control-Allow-Origin": {"$ref": "#/components/headers/AccessControlAllowOrigin"},
    }
    if route.etagged:  # a live route's is its body's, as a memoized one's
        ok_headers["ETag"] = {"$ref": "#/components/headers/LiveETag" if route.live else "#/components/headers/ETag"}
    if route.curation:
        ok_headers["X-Curation-Version"] = {
            "description": "the semantic version of the reviewed curation publication the answer rests on",
            "schema": {"type": "string"}}
    ok_headers["Vary"] = {"$ref": "#/components/headers/Vary"}
    ok_headers["Content-Encoding"] = {"$ref": "#/components/headers/ContentEncoding"}
    responses: dict[str, Any] = {
        "200": {"description": "The body without an envelope." if route.raw else "Success envelope.", "headers": ok_headers,
                "content": {JSON: {"schema": success}}},
    }
    if route.etagged:
        responses["304"] = {"$ref": "#/components/responses/LiveNotModified" if route.live
                             else "#/components/responses/NotModified"}

    explained = error_texts(route)
    details: dict[int, dict[str, dict]] = {}
    for doc in route.errors:
        if doc.details_schema is not None:
            details.setdefault(doc.status, {})[doc.code] = doc.details_schema
    for status, codes in route.error_codes().items():
        text = "; ".join(f"`{code}`: {explained.get(code, code)}" for code in codes)
        responses[str(status)] = _error_response(text, codes, details.get(status, {}), status)

    operation: dict[str, Any] = {
        "operationId": operation_id(route),
        "summary": route.summary,
        "description": route.description,
        "tags": list(route.tags),
        "parameters": [_parameter(p) for p in route.params],
        "responses": responses,
        "x-cache-ttl-seconds": route.cache_seconds,
        "x-snapshot-backed": route.snapshot,
    }
    if route.etagged:
        operation["parameters"].append({"$ref": "#/components/parameters/IfNoneMatch"})
    return operation


def _head(get: dict[str, Any]) -> dict[str, Any]:
    """HEAD of a route: the GET's parameters, statuses and headers, no content."""
    responses = {
        status: response if "$ref" in response else {
            **{k: v for k, v in response.items() if k != "content"},
            "description": f"As GET, without the body: {response['description']}",
        }
        for status, response in get["responses"].items()
    }
    return {
        **get,
        "operationId": get["operationId"] + "Head",
        "summary": f"{get['summary']} (headers only)",
        "description": "The status and headers GET would answer, Content-Length included (the length of the body GET "
                       "would send, in its content coding), without the body.",
        "responses": responses,
    }


def _preflight(route: Route) -> dict[str, Any]:
    """The CORS preflight every path answers (api.envelope.preflight)."""
    def header(description: str, schema: dict) -> dict:
        return {"description": description, "schema": schema}

    return {
        "operationId": f"{route.name}_preflight",
        "summary": "CORS preflight",
        "description": "Answers a browser's preflight: any origin, the methods this API allows, no body.",
        "tags": list(route.tags),
        # the preflight answers before any validation: its path segments may be anything
        "parameters": [{"name": p.name, "in": "path", "required": True, "schema": {"type": "string"},
                        "description": "Any value: a preflight is answered before validation."}
                       for p in route.params if p.location == "path"],
        "responses": {"204": {
            "description": "Preflight accepted (no body).",
            "headers": {
                "Access-Control-Allow-Origin": header("Always *.", {"type": "string", "const": "*"}),
                "Access-Control-Allow-Methods": header("The methods every route answers.",
                                                       {"type": "string", "const": ALLOWED_METHODS}),
                "Access-Control-Max-Age": header("Seconds a browser may reuse this answer.",
                                                 {"type": "integer", "const": PREFLIGHT_MAX_AGE}),
                "Vary": header("The answer echoes the requested headers in Access-Control-Allow-Headers.",
                               {"type": "string", "const": "Access-Control-Request-Headers"}),
            },
        }},
    }


def _path_item(family: Family, route: Route) -> dict[str, Any]:
    get = _operation(family, route)
    return {"get": get, "head": _head(get), "options": _preflight(route)}


def operation_id(route: Route) -> str:
    """The route's name in camelCase (`protocol_history` -> `protocolHistory`)."""
    head, *rest = route.name.split("_")
    return head + "".join(part.capitalize() for part in rest)


def error_texts(route: Route, snapshot_unavailable: str = "no successful snapshot has been published yet") -> dict[str, str]:
    """What each error code the route may answer means, in words (the contract's error responses
    and the skill manifest's `errors`)."""
    texts = {p.error_code: f"{p.name} must be {p.accepted()}" for p in route.params}
    texts[UNKNOWN_PARAMETER] = "a query parameter the route does not accept"
    texts[route.query_failed_code] = "the warehouse query failed; usually transient, retry with backoff"
    texts[INTERNAL_ERROR] = "an unexpected server error"
    texts[SNAPSHOT_UNAVAILABLE] = snapshot_unavailable
    texts[CHAIN_NOT_PUBLIC] = "a chain ID that is not a public chain of this API (GET /v1/chains lists them)"
    texts[SOURCE_UNAVAILABLE] = "the warehouse is unreachable and no published snapshot is known; retry with backoff"
    texts[OVERLOADED] = ("this worker already runs and queues as many uncached computations as it admits (cached "
                         "answers and 304s are unaffected); retry after Retry-After seconds")
    texts.update({doc.code: doc.description for doc in route.errors})
    return texts


def build_openapi(family: Family, production_host: str) -> dict[str, Any]:
    generic = "; ".join(f"`{code}` ({status})" for status, (code, _) in GENERIC_ERRORS.items())
    description = (
        f"{family.description}\n\n"
        f"Errors answer {family.envelope.failure_text()} with the HTTP status "
        f"of the failure {family.guide.openapi_errors}, and for any path: {generic}.\n\n"
        f"Every path answers HEAD with the status and headers of GET and no body. Bodies of {MIN_SIZE} bytes or more "
        f"are compressed ({', '.join(CODINGS)}) as the request's Accept-Encoding asks (q-values honoured); answers "
        f"carry `Vary: Accept-Encoding`."
    )
    tags = sorted({tag for route in family.routes for tag in route.tags})
    undescribed = [tag for tag in tags if not family.tags.get(tag)]
    if undescribed:
        raise ValueError(f"family {family.name}: tags without a description: {undescribed}")
    return {
        "openapi": OPENAPI_VERSION,
        "info": {"title": family.title, "version": family.version, "description": description, "license": LICENSE},
        "servers": [
            {"url": "/", "description": "this host"},
            {"url": production_host, "description": "production"},
        ],
        "security": [],  # public: no authentication
        "tags": [{"name": tag, "description": family.tags[tag]} for tag in tags],
        "paths": {family.full_path(route): _path_item(family, route) for route in family.routes},
        "components": _base_components(family),
    }
