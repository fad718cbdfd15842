"""The published contract: the OpenAPI document itself, and one success envelope and one error
shape enforced across every route of the route table."""
from __future__ import annotations

import pytest

from ve_analytics.api.envelope import cache_control
from ve_analytics.api.stats.routes import FAMILY

PATHS = [FAMILY.full_path(route) for route in FAMILY.routes]
SNAPSHOT_PATHS = [FAMILY.full_path(route) for route in FAMILY.routes if route.snapshot]
# a valid value for each path parameter, so every templated route can be called
PATH_EXAMPLES = {"address": "0x" + "1" * 40, "pair": "usdt-wbnb", "poolId": "0x" + "a" * 40,
                 "gaugeAddress": "0x" + "1a" * 20, "epochStart": "0"}  # gaugeAddress: a gauge of governance_seed


def concrete(template: str) -> str:
    for name, value in PATH_EXAMPLES.items():
        template = template.replace("{" + name + "}", value)
    return template


def test_openapi_document_is_valid_3_1(openapi):
    from openapi_spec_validator import validate  # test dependency: openapi-spec-validator

    validate(openapi)
    assert openapi["openapi"].startswith("3.1")
    assert openapi["info"]["title"] == "analytics API"
    assert openapi["info"]["version"] == "0.1.0"
    assert openapi["info"]["license"]["name"] == "MIT"
    assert [s["url"] for s in openapi["servers"]] == ["/", "https://api.example.org"]


def test_route_table_and_contract_are_the_same_surface(openapi):
    assert sorted(openapi["paths"]) == sorted(PATHS)
    for route in FAMILY.routes:
        operation = openapi["paths"][FAMILY.full_path(route)]["get"]
        assert [p["name"] for p in operation["parameters"] if "name" in p] == [p.name for p in route.params]
        codes_400 = operation["responses"]["400"]["content"]["application/json"]["schema"]["allOf"][1]
        assert codes_400["properties"]["error"]["properties"]["code"]["enum"] == route.error_codes()[400]
        assert route.query_failed_code in operation["responses"]["500"]["description"]


def test_openapi_json_is_served_with_cors(fresh):
    r = fresh.client.get(fresh.url + "/api/stats/openapi.json")
    assert r.status_code == 200 and r.headers["access-control-allow-origin"] == "*"
    assert r.headers["content-type"].startswith("application/json")


@pytest.mark.parametrize("path", PATHS)
def test_success_envelope_on_every_route(fresh, path):
    r = fresh.get(concrete(path))  # validated against the contract by the Api helper
    assert r.status_code == 200
    body = r.json()
    assert set(body) == {"ok", "data", "meta"} and body["ok"] is True
    meta = body["meta"]
    assert meta["chainId"] == 56
    assert meta["generatedAt"].endswith("Z")
    assert r.headers["access-control-allow-origin"] == "*"
    if path in SNAPSHOT_PATHS:
        assert meta["source"] == ["subgraph", "chain-rpc"]
        assert r.headers["etag"] == f'W/"snap-{meta["snapshotAt"]}"'
        assert f"s-maxage={meta['cacheTtlSeconds']}," in r.headers["cache-control"]
    else:
        route = next(r for r in FAMILY.routes if FAMILY.full_path(r) == path)
        assert "snapshotAt" not in meta and "etag" not in r.headers
        assert meta["source"] == list(route.sources)
        assert meta["cacheTtlSeconds"] == route.cache_seconds and r.headers["cache-control"] == cache_control(route.cache_seconds)


def _assert_error_shape(r, status: int, code: str) -> dict:
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"ok", "error", "meta"} and body["ok"] is False
    assert body["error"]["code"] == code and body["error"]["message"]
    assert set(body["meta"]) == {"chainId", "generatedAt", "source"} and body["meta"]["chainId"] == 56
    assert "Traceback" not in r.text
    assert r.headers["access-control-allow-origin"] == "*"
    assert r.headers["cache-control"] == "no-store"
    return body


@pytest.mark.parametrize("path", PATHS)
def test_error_shape_on_every_route(fresh, empty, unreachable, contract, path):
    route = next(r for r in FAMILY.routes if FAMILY.full_path(r) == path)
    path = concrete(path)
    _assert_error_shape(fresh.get(path + "?bogus=1"), 400, "unknown_parameter")
    _assert_error_shape(fresh.request("POST", path), 405, "method_not_allowed")
    if not contract.path_item(path + "/nope"):  # else it is another route's path parameter
        _assert_error_shape(fresh.get(path + "/nope"), 404, "not_found")
    if route.snapshot:
        _assert_error_shape(empty.get(path), 503, "snapshot_unavailable")
        _assert_error_shape(unreachable.get(path), 500, route.query_failed_code)
    elif route.name == "health":
        _assert_error_shape(empty.get(path), 503, "unhealthy")
        _assert_error_shape(unreachable.get(path), 503, "unhealthy")


def test_the_contract_check_rejects_what_it_should(contract, fresh):
    """The response validator used by every test is not vacuous."""
    schema = contract.response_doc("GET", "/api/stats/protocol", 200)["content"]["application/json"]["schema"]
    good = fresh.get("/api/stats/protocol").json()
    contract.validate(schema, good)
    for bad in (
        {**good, "extra": 1},
        {**good, "ok": False},
        {**good, "data": {**good["data"], "tvlUsd": "1"}},
        {**good, "data": {k: v for k, v in good["data"].items() if k != "flowWindows"}},
        {**good, "meta": {**good["meta"], "cacheTtlSeconds": 300}},
        {**good, "meta": {k: v for k, v in good["meta"].items() if k != "snapshotAt"}},
    ):
        with pytest.raises(AssertionError):
            contract.validate(schema, bad)
