"""Serving rules of /api/v1: partial upstream (a vault fault), RPC down, rate limiting."""
from __future__ import annotations

import re

import httpx
import pytest

from vault_suite import Api
from support.chains import with_endpoints
from ve_analytics.cli.processes import free_port

FAULTY = "cl-core-wbnb"


def test_vault_fault_gives_nulls_and_degraded(start_api, contract, http, devnet):
    address = {v["key"]: v["address"] for v in devnet.truth()["vaults"]}[FAULTY]
    devnet.fault("error", vault=address)
    try:
        api = Api(start_api(), contract, http)  # a fresh server: nothing memoized from before the fault
        r = api.get("/vaults")
        assert r.status_code == 200
        body = r.json()
        assert body["meta"]["degraded"] is True
        by_key = {v["key"]: v for v in body["data"]}
        faulty = by_key[FAULTY]
        for field in ("totalSupplyRaw", "amount0Raw", "amount1Raw", "amount0", "tvlUsd", "sharePriceUsd", "isCalm", "depositsAvailable"):
            assert faulty[field] is None, field
        assert faulty["complete"] is False and faulty["cl"]["tick"] is None
        assert all(v["complete"] and v["totalSupplyRaw"] is not None for k, v in by_key.items() if k != FAULTY)
        meta = api.get("/meta").json()
        assert meta["meta"]["degraded"] is True and meta["data"]["totalTvlUsd"] is None
        detail = api.get(f"/vaults/{address.lower()}").json()
        assert detail["meta"]["degraded"] is True
        assert detail["data"]["integration"]["state"]["isCalm"] is None
        assert detail["data"]["integration"]["state"]["depositsAvailable"] is None
        assert api.get("/vaults/cl-wbnb-usdt").json()["meta"]["degraded"] is False
        # list routes: degraded from the records they return (or may be missing), like /vaults/{k}
        assert api.get("/vaults", params={"kind": "v2"}).json()["meta"]["degraded"] is False
        assert api.get("/vaults", params={"kind": "cl"}).json()["meta"]["degraded"] is True
        health = api.get("/vaults/health").json()
        assert health["meta"]["degraded"] is True and FAULTY in [h["key"] for h in health["data"]]
        for value in ("true", "false"):  # the faulty vault's actionable is unknown: it may belong to either list
            assert api.get("/vaults/health", params={"actionable": value}).json()["meta"]["degraded"] is True
        assert api.get("/tokens").json()["meta"]["degraded"] is True  # the faulty vault's tokens are unknown
        assert api.get("/health").json()["data"]["sources"]["onchain"]["status"] == "degraded"
    finally:
        devnet.fault("ok")


def test_list_routes_not_degraded_without_faults(api):
    for path in ("/vaults", "/vaults/health", "/tokens"):
        assert api.get(path).json()["meta"]["degraded"] is False, path
    for value in ("true", "false"):
        assert api.get("/vaults/health", params={"actionable": value}).json()["meta"]["degraded"] is False


def test_rpc_down_is_502(start_api, contract, http, settings):
    dead = with_endpoints(settings, rpc_url=f"http://127.0.0.1:{free_port()}/rpc")
    api = Api(start_api(chains=dead), contract, http)
    r = api.get("/vaults")
    assert r.status_code == 502
    body = r.json()
    assert body["ok"] is False and body["error"]["code"] == "upstream_error" and body["meta"]["indexedBlock"] is None
    health = api.get("/health")
    assert health.status_code == 200 and health.json()["data"]["sources"]["onchain"]["status"] == "down"


def test_rate_limit(start_api, contract, http):
    api = Api(start_api(vault_api_rate_per_second=0.05, vault_api_rate_burst=3), contract, http)
    statuses = [api.get("/vaults/health").status_code for _ in range(3)]
    assert statuses == [200, 200, 200]
    r = api.get("/vaults/health")
    assert r.status_code == 429
    assert r.json()["error"]["code"] == "rate_limited"
    assert 1 <= int(r.headers["retry-after"]) <= 20
    # a preflight is not counted and still answers
    assert api.request("OPTIONS", "/vaults").status_code == 204


def said(r: httpx.Response) -> bytes:
    """An answer's body but its serving time (what its ETag is a digest of)."""
    return re.sub(rb'"generatedAt":"[^"]*"', b"", r.content)


def one_period(api, path: str) -> tuple[httpx.Response, httpx.Response, list[httpx.Response], httpx.Response]:
    """An identity GET, a gzip GET, a conditional GET and HEAD with the first ETag, and a GET with
    another ETag, all within one memoization period (the memo renews itself every 10 to 60 s: a
    sequence that straddled a renewal, seen as two ETags, is run again)."""
    for _ in range(3):
        identity = api.get(path, headers={"Accept-Encoding": "identity"})
        etag = identity.headers["etag"]
        coded = api.get(path, headers={"Accept-Encoding": "gzip"})
        conditional = [api.request(method, path, headers={"If-None-Match": etag}) for method in ("GET", "HEAD")]
        other = api.get(path, headers={"If-None-Match": 'W/"m-' + "0" * 24 + '"'})
        if {r.headers["etag"] for r in (identity, coded, *conditional, other)} == {etag}:
            break
    return identity, coded, conditional, other


@pytest.mark.parametrize("path", ["/vaults", "/vaults/cl-wbnb-usdt", "/meta", "/health"])
def test_a_memoized_answer_has_an_etag_and_a_matching_if_none_match_is_a_304(api, path):
    identity, coded, conditional, other = one_period(api, path)
    etag = identity.headers["etag"]
    assert identity.status_code == 200 and re.fullmatch(r'W/"m-[0-9a-f]{24}"', etag)
    assert coded.headers["etag"] == etag and said(coded) == said(identity)  # one answer, every coding
    for r in conditional:
        assert r.status_code == 304 and r.content == b""
        assert r.headers["etag"] == etag and r.headers["vary"] == "Accept-Encoding"
        assert r.headers["cache-control"] == identity.headers["cache-control"]
    assert other.status_code == 200 and said(other) == said(identity)
