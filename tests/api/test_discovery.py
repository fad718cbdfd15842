"""Discovery documents over HTTP: the OpenAPI contract, the RFC 9727 api-catalog, the agent skill
manifest (JSON and Markdown) and the reference page. Every expectation about the endpoint set is
computed from the live responses, so a route added to a route table keeps these passing."""
from __future__ import annotations

import re
from urllib.parse import urljoin

import pytest

DOCUMENTS = ["/api/stats/openapi.json", "/api/stats/docs", "/.well-known/api-catalog", "/skill.json", "/skill.md"]
CRON = "/api/cron/analytics-snapshot"


def _get(api, path: str, **kw):
    return api.client.get(api.url + path, **kw)


def openapi_paths(api) -> set[str]:
    return set(_get(api, "/api/stats/openapi.json").json()["paths"])


def skill_json_paths(api) -> set[str]:
    return {ep["path"] for ep in _get(api, "/skill.json").json()["analytics_api"]["endpoints"]}


def skill_md_paths(api) -> set[str]:
    text = _get(api, "/skill.md").text
    section = text.split("\n## analytics_api\n", 1)[1].split("\n## ", 1)[0]
    table = section.split("\n### ", 1)[0]
    return set(re.findall(r"^\| GET \| `([^`]+)` \|", table, flags=re.M))


def test_openapi_info_servers_license(fresh, openapi):
    from openapi_spec_validator import validate

    validate(openapi)
    assert openapi["openapi"] == "3.1.0"
    assert openapi["info"]["title"] == "analytics API" and openapi["info"]["version"] == "0.1.0"
    assert openapi["info"]["license"] == {"name": "MIT", "identifier": "MIT"}
    assert [s["url"] for s in openapi["servers"]] == ["/", "https://api.example.org"]


def test_openapi_skill_json_and_skill_md_list_the_same_endpoints(fresh):
    paths = openapi_paths(fresh)
    assert paths and all(p.startswith("/api/stats/") for p in paths)
    assert skill_json_paths(fresh) == paths
    assert skill_md_paths(fresh) == paths


def test_skill_json_parameters_and_errors_match_the_contract(fresh, openapi, contract):
    skill = _get(fresh, "/skill.json").json()
    assert skill["name"] and skill["description"] and skill["version"] == openapi["info"]["version"]
    for key in ("envelope", "errors", "caching", "polling"):
        assert skill["usage"][key]
    assert [s["url"] for s in skill["servers"]] == [s["url"] for s in openapi["servers"]]
    for ep in skill["analytics_api"]["endpoints"]:
        operation = openapi["paths"][ep["path"]]["get"]
        assert ep["method"] == "GET" and ep["summary"] == operation["summary"]
        documented = {p["name"]: p for p in (contract.deref(p) for p in operation["parameters"]) if p["in"] in ("query", "path")}
        assert [p["name"] for p in ep["parameters"]] == list(documented)
        for p in ep["parameters"]:
            schema = documented[p["name"]]["schema"]
            assert p["in"] == documented[p["name"]]["in"] and p["required"] == documented[p["name"]]["required"]
            for key in ("default", "minimum", "maximum"):
                assert p.get(key) == schema.get(key), (ep["path"], p["name"], key)
            if "enum" in schema:
                assert set(p["enum"]) == set(schema["enum"])
        for e in ep["errors"]:
            codes = contract.deref(operation["responses"][str(e["status"])])["content"]["application/json"]["schema"]
            assert e["code"] in codes["allOf"][1]["properties"]["error"]["properties"]["code"]["enum"]
        pointer = ep["responseSchema"].split("#", 1)[1]
        assert contract.deref({"$ref": "#" + pointer})["description"]


def test_api_catalog_is_an_rfc9727_linkset(fresh):
    r = _get(fresh, "/.well-known/api-catalog")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/linkset+json")
    assert 'profile="https://www.rfc-editor.org/info/rfc9727"' in r.headers["content-type"]
    assert r.headers["access-control-allow-origin"] == "*"
    assert '</.well-known/api-catalog>; rel="api-catalog"' in r.headers["link"]
    linkset = r.json()["linkset"]
    [context] = linkset
    assert context["anchor"] == "/api/stats"
    expected = {
        "service-desc": ("/api/stats/openapi.json", "application/openapi+json"),
        "service-doc": ("/api/stats/docs", "text/html"),
        "service-meta": ("/skill.json", "application/json"),
        "describedby": ("/skill.json", "application/json"),
    }
    for relation, (href, media_type) in expected.items():
        assert {"href": href, "type": media_type} in [{"href": t["href"], "type": t["type"]} for t in context[relation]]
    # every target, resolved against the catalog's own URL (RFC 9264 / RFC 3986 section 5), is served
    base = fresh.url + "/.well-known/api-catalog"
    for relation in expected:
        for target in context[relation]:
            served = fresh.client.get(urljoin(base, target["href"]))
            assert served.status_code == 200, target
            if target["type"] == "application/openapi+json":
                assert served.headers["content-type"].startswith("application/json")
            else:
                assert served.headers["content-type"].startswith(target["type"])


@pytest.mark.parametrize("path", DOCUMENTS)
def test_discovery_documents_get_head_options_etag_cors(fresh, path):
    r = _get(fresh, path)
    assert r.status_code == 200 and r.content
    assert r.headers["access-control-allow-origin"] == "*"
    assert r.headers["cache-control"].startswith("public, max-age=")
    assert r.headers["link"] == '</.well-known/api-catalog>; rel="api-catalog"'
    etag = r.headers["etag"]
    head = fresh.client.head(fresh.url + path)
    assert head.status_code == 200 and head.content == b""
    assert head.headers["content-type"] == r.headers["content-type"]
    assert head.headers["access-control-allow-origin"] == "*" and head.headers["etag"] == etag
    assert head.headers["content-length"] == r.headers["content-length"]  # of the body as sent (maybe encoded)
    cached = _get(fresh, path, headers={"If-None-Match": etag})
    assert cached.status_code == 304 and cached.content == b"" and cached.headers["access-control-allow-origin"] == "*"
    preflight = fresh.client.options(fresh.url + path, headers={"Origin": "https://x.example", "Access-Control-Request-Method": "GET"})
    assert preflight.status_code == 204 and preflight.headers["access-control-allow-origin"] == "*"


def test_docs_page_is_self_contained(fresh):
    r = _get(fresh, "/api/stats/docs")
    assert r.headers["content-type"].startswith("text/html")
    html = r.text
    assert 'data-openapi="/api/stats/openapi.json"' in html
    # nothing loaded from another origin: no external src/href, no @import or url() to the network
    assert not re.search(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//""", html)
    assert "@import" not in html and not re.search(r"url\(\s*['\"]?(?:https?:)?//", html)
    csp = r.headers["content-security-policy"]
    assert "default-src 'none'" in csp and "connect-src 'self'" in csp and "'unsafe-inline'" not in csp


def test_internal_cron_route_is_in_no_public_document(fresh):
    for path in DOCUMENTS:
        assert CRON not in _get(fresh, path).text, path
