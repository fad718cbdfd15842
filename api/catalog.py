"""Where the discovery documents live, and the RFC 9727 api-catalog that links them.

Links are root-relative (`/api/stats/openapi.json`): the same bytes are correct on every host
that serves the API (the API host, the website origin, a local stack), and RFC 9264 resolves a
relative reference against the URI of the linkset document itself (RFC 3986 section 5).
"""
from __future__ import annotations

from typing import Any, Iterable

from .envelope import JSON
from .routes import Family

API_CATALOG = "/.well-known/api-catalog"
SKILL_JSON, SKILL_MD = "/skill.json", "/skill.md"
RFC9727_PROFILE = "https://www.rfc-editor.org/info/rfc9727"
LINKSET = f'application/linkset+json; profile="{RFC9727_PROFILE}"'


def docs_path(family: Family) -> str:
    return f"{family.prefix}/docs"


def openapi_path(family: Family) -> str:
    return family.contract_path or f"{family.prefix}/openapi.json"


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
