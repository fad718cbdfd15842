"""HTTP behaviour: ETag and 304, CORS and preflight, Cache-Control, parameter errors, 404/405,
and byte-identical answers within one snapshot."""
from __future__ import annotations

import concurrent.futures

import pytest

from ve_analytics.core.epochs import iso

ROUTES_60 = ["/api/stats/protocol", "/api/stats/protocol/history", "/api/stats/protocol/daily"]


def test_etag_names_the_snapshot_and_a_match_is_304(fresh, fresh_data):
    r = fresh.get("/api/stats/protocol")
    etag = r.headers["etag"]
    assert etag == f'W/"snap-{iso(fresh_data.latest)}"' == f'W/"snap-{r.json()["meta"]["snapshotAt"]}"'
    for header in (etag, etag[2:], f'"nope", {etag}', "*"):
        r304 = fresh.get("/api/stats/protocol", headers={"If-None-Match": header})
        assert r304.status_code == 304 and r304.content == b""
        assert r304.headers["etag"] == etag
        assert r304.headers["access-control-allow-origin"] == "*"
        assert r304.headers["cache-control"] == r.headers["cache-control"]
    other = fresh.get("/api/stats/protocol", headers={"If-None-Match": 'W/"snap-2000-01-01T00:00:00Z"'})
    assert other.status_code == 200 and other.headers["etag"] == etag


@pytest.mark.parametrize("path", ROUTES_60 + ["/api/stats/config"])
def test_every_snapshot_route_sends_the_etag_and_honours_it(fresh, path):
    etag = fresh.get(path).headers["etag"]
    assert fresh.get(path, headers={"If-None-Match": etag}).status_code == 304


def test_cache_control_per_route(fresh):
    for path in ROUTES_60:
        r = fresh.get(path)
        assert r.headers["cache-control"] == "public, max-age=0, s-maxage=60, stale-while-revalidate=30"
        assert r.json()["meta"]["cacheTtlSeconds"] == 60
    r = fresh.get("/api/stats/config")
    assert r.headers["cache-control"] == "public, max-age=0, s-maxage=300, stale-while-revalidate=30"
    assert r.json()["meta"]["cacheTtlSeconds"] == 300
    r = fresh.get("/api/stats/health")
    assert r.headers["cache-control"] == "no-store" and r.json()["meta"]["cacheTtlSeconds"] == 0


def test_cors_everywhere_and_preflight(fresh):
    for path in ("/api/stats/protocol", "/api/stats/protocol?days=1", "/api/stats/missing", "/nothing"):
        assert fresh.get(path).headers["access-control-allow-origin"] == "*"
    r = fresh.request(
        "OPTIONS",
        "/api/stats/protocol/history",
        headers={
            "Origin": "https://example.com",
            "Access-Control-Request-Method": "GET",
            "Access-Control-Request-Headers": "if-none-match",
        },
    )
    assert r.status_code == 204 and r.content == b""
    assert r.headers["access-control-allow-origin"] == "*"
    assert r.headers["access-control-allow-methods"] == "GET, HEAD, OPTIONS"
    assert r.headers["access-control-allow-headers"] == "if-none-match"


@pytest.mark.parametrize("route", ["/api/stats/protocol/history", "/api/stats/protocol/daily"])
@pytest.mark.parametrize(
    "query, status, code",
    [
        ("days=0", 400, "invalid_days"),
        ("days=1", 200, None),
        ("days=365", 200, None),
        ("days=366", 400, "invalid_days"),
        ("days=abc", 400, "invalid_days"),
        ("days=", 400, "invalid_days"),
        ("days=-3", 400, "invalid_days"),
        ("days=2.5", 400, "invalid_days"),
        ("days=7&days=7", 400, "invalid_days"),
        ("days=7&limit=3", 400, "unknown_parameter"),
        ("Days=7", 400, "unknown_parameter"),
    ],
)
def test_days_validation(fresh, route, query, status, code):
    r = fresh.get(f"{route}?{query}")
    assert r.status_code == status, r.text
    if code:
        error = r.json()["error"]
        assert error["code"] == code
        if code == "invalid_days":
            assert "1 to 365" in error["message"]


def test_unknown_parameter_on_a_route_without_parameters(fresh):
    r = fresh.get("/api/stats/protocol?days=1")
    assert r.status_code == 400 and r.json()["error"]["code"] == "unknown_parameter"


def test_not_found_and_method_not_allowed(fresh):
    for path in ("/api/stats/nope", "/api/stats", "/", "/api/stats/protocol/history/extra"):
        r = fresh.get(path)
        assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    for method in ("POST", "PUT", "DELETE", "PATCH"):
        r = fresh.request(method, "/api/stats/protocol")
        assert r.status_code == 405 and r.json()["error"]["code"] == "method_not_allowed"
        assert r.headers["allow"] == "GET, HEAD, OPTIONS"


def test_identical_requests_get_identical_bytes(fresh):
    for path in ("/api/stats/protocol", "/api/stats/protocol/history?days=2", "/api/stats/config"):
        first = fresh.get(path)
        again = fresh.get(path)
        assert first.content == again.content  # generatedAt included: the first generation is kept
        assert first.headers["etag"] == again.headers["etag"]
    # the default and its explicit value are one normalized query
    assert fresh.get("/api/stats/protocol/daily").content == fresh.get("/api/stats/protocol/daily?days=30").content


def test_concurrent_first_requests_agree(fresh):
    path = "/api/stats/protocol/history?days=3"
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        bodies = list(pool.map(lambda _: fresh.get(path).content, range(16)))
    assert len(set(bodies)) == 1


def test_a_query_string_is_validated_until_it_is_valid_and_each_spelling_is_one_answer(fresh):
    # the worker remembers query strings it has validated (api/routes.py); an invalid one never is
    for _ in range(3):
        r = fresh.get("/api/stats/pools?limit=0&sort=tvl")
        assert r.status_code == 400 and r.json()["error"]["code"] == "invalid_limit"
    spellings = ["/api/stats/pools?sort=tvl&limit=3", "/api/stats/pools?limit=3&sort=tvl",
                 "/api/stats/pools?limit=3&sort=tvl"]
    bodies = {fresh.get(path).content for path in spellings}
    assert len(bodies) == 1 and len(fresh.get(spellings[0]).json()["data"]) == 3
    assert fresh.get("/api/stats/pools?sort=tvl&limit=3&sort=tvl").status_code == 400  # still parsed anew


def test_header_blocks_refuse_control_characters():
    from ve_analytics.api.prepared import encode_headers

    assert encode_headers({"etag": 'W/"snap-1"'}) == ((b"etag", b'W/"snap-1"'),)
    with pytest.raises(ValueError, match="control character"):
        encode_headers({"etag": "a\r\nset-cookie: x"})
