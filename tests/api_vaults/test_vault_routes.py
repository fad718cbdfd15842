"""/api/v1 routes against the devnet truth at the block the API read (meta.indexedBlock)."""
from __future__ import annotations

import pytest
from eth_utils import is_checksum_address

from vault_suite import PAUSED_VAULT, UNPRICED_GAUGE_VAULT, UNWRAPPED_GAUGE


def test_meta_envelope_and_counts(api, devnet, seeded):
    r = api.get("/meta")
    assert r.status_code == 200
    body = r.json()
    meta = body["meta"]
    assert meta["chainId"] == 56 and meta["network"] == "bsc" and meta["apiVersion"] == "v1"
    assert meta["degraded"] is False and isinstance(meta["indexedBlock"], int)
    assert set(meta["conventions"]) >= {"rawIntegers", "scaledNumbers", "addresses", "nullWhenDegraded"}
    truth = devnet.truth(meta["indexedBlock"])
    data = body["data"]
    assert data["vaultCounts"] == {"total": 4, "cl": 3, "v2": 1}
    assert data["globalPause"] is truth["globalPause"]
    for name in ("vaultFactory", "zapper", "positionManager"):
        assert is_checksum_address(data["contracts"][name])
    decimals = {v["key"]: (v["token0"]["decimals"], v["token1"]["decimals"]) for v in api.get("/vaults").json()["data"]}
    expected = sum(
        int(v["amount0"]) / 10 ** decimals[v["key"]][0] * seeded.prices[v["token0"].lower()]
        + int(v["amount1"]) / 10 ** decimals[v["key"]][1] * seeded.prices[v["token1"].lower()]
        for v in truth["vaults"]
    )
    assert data["totalTvlUsd"] == pytest.approx(expected, rel=1e-9)
    assert r.headers["cache-control"] == "public, max-age=0, s-maxage=15, stale-while-revalidate=30"
    assert r.headers["access-control-allow-origin"] == "*"


def test_vaults_match_truth(api, devnet, seeded):
    r = api.get("/vaults")
    body = r.json()
    truth = {v["key"]: v for v in devnet.truth(body["meta"]["indexedBlock"])["vaults"]}
    assert [v["key"] for v in body["data"]] == list(truth)
    for v in body["data"]:
        t = truth[v["key"]]
        assert is_checksum_address(v["address"]) and v["address"].lower() == t["address"].lower()
        assert v["totalSupplyRaw"] == t["totalSupply"]
        assert v["amount0Raw"] == t["amount0"] and v["amount1Raw"] == t["amount1"]
        for field in ("isCalm", "strategyPaused", "globalPause", "depositsAvailable", "slippageBps", "needsRebalance", "lastHarvest"):
            assert v[field] == t[field], field
        assert v["pool"].lower() == t["pool"].lower() and v["strategy"].lower() == t["strategy"].lower()
        expected_tvl = (int(t["amount0"]) / 10 ** v["token0"]["decimals"] * seeded.prices[t["token0"].lower()]
                        + int(t["amount1"]) / 10 ** v["token1"]["decimals"] * seeded.prices[t["token1"].lower()])
        assert v["tvlUsd"] == pytest.approx(expected_tvl, rel=1e-12)
        assert v["sharePriceUsd"] == pytest.approx(expected_tvl / (int(t["totalSupply"]) / 1e18), rel=1e-12)
        if v["kind"] == "cl":
            assert (v["cl"]["tick"], v["cl"]["tickLower"], v["cl"]["tickUpper"]) == (t["tick"], t["tickLower"], t["tickUpper"])
            assert v["cl"]["lastRebalance"] == t["lastRebalance"]
        else:
            assert v["cl"] is None
        assert "integration" not in v
    assert truth[PAUSED_VAULT]["strategyPaused"] is True  # the clock starts in its pause window


def test_vault_kind_and_include(api):
    cl = api.get("/vaults", params={"kind": "cl"}).json()["data"]
    assert {v["kind"] for v in cl} == {"cl"} and len(cl) == 3
    v2 = api.get("/vaults", params={"kind": "v2", "include": "integration"}).json()["data"]
    assert len(v2) == 1 and "abi" not in v2[0]["integration"] and v2[0]["integration"]["kind"] == "v2"
    with_abi = api.get("/vaults", params={"include": "integration,abi"}).json()["data"]
    assert all("abi" in v["integration"] for v in with_abi)


@pytest.mark.parametrize(
    "path, params, code",
    [
        ("/vaults", {"kind": "v3"}, "invalid_kind"),
        ("/vaults", {"include": "integration,logo"}, "invalid_include"),
        ("/vaults", {"include": ""}, "invalid_include"),
        ("/vaults", {"page": "1"}, "unknown_parameter"),
        ("/vaults/health", {"actionable": "yes"}, "invalid_actionable"),
        ("/gauges", {"alive": "maybe"}, "invalid_alive"),
        ("/vaults/0x1234", {}, "invalid_address"),
        ("/vaults/cl-wbnb-usdt", {"include": "integration"}, "invalid_include"),
        ("/vaults/bad%20key", {}, "invalid_key_or_address"),
    ],
)
def test_bad_parameters(api, path, params, code):
    r = api.get(path, params=params)
    assert r.status_code == 400
    body = r.json()
    assert body["ok"] is False and body["error"]["code"] == code
    assert r.headers["cache-control"] == "no-store"


def test_vault_by_key_and_address(api):
    by_key = api.get("/vaults/cl-wbnb-usdt").json()
    address = by_key["data"]["address"]
    for variant in (address, address.lower(), "0x" + address[2:].upper()):
        r = api.get(f"/vaults/{variant}")
        assert r.status_code == 200 and r.json()["data"]["key"] == "cl-wbnb-usdt"
    assert "integration" in by_key["data"] and "abi" not in by_key["data"]["integration"]
    r = api.get("/vaults/no-such-vault")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    r = api.get("/vaults/0x" + "12" * 20)
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"


def test_vaults_health(api, devnet):
    body = api.get("/vaults/health").json()
    truth = {v["key"]: v for v in devnet.truth(body["meta"]["indexedBlock"])["vaults"]}
    assert [h["key"] for h in body["data"]] == [k for k, v in truth.items() if v["kind"] == "cl"]
    for h in body["data"]:
        t = truth[h["key"]]
        assert (h["tick"], h["tickLower"], h["tickUpper"]) == (t["tick"], t["tickLower"], t["tickUpper"])
        assert h["ticksToLower"] == t["tick"] - t["tickLower"] and h["ticksToUpper"] == t["tickUpper"] - t["tick"]
        assert h["needsRebalance"] == t["needsRebalance"] and h["isCalm"] == t["isCalm"]
        assert h["actionable"] == (t["needsRebalance"] and t["isCalm"] and not t["strategyPaused"] and not t["globalPause"])
    for value, expected in (("true", True), ("1", True), ("false", False), ("0", False)):
        rows = api.get("/vaults/health", params={"actionable": value}).json()["data"]
        assert all(row["actionable"] is expected for row in rows)
        assert len(rows) == sum(h["actionable"] is expected for h in body["data"])


def test_gauges(api, devnet, seeded):
    body = api.get("/gauges").json()
    truth = {v["key"]: v for v in devnet.truth(body["meta"]["indexedBlock"])["vaults"]}
    assert body["meta"]["degraded"] is True  # one vault's gauge has no APR row in the published snapshot
    gauges = {g["address"].lower(): g for g in body["data"]}
    vault_gauges = {v["gauge"].lower(): k for k, v in truth.items() if v["gauge"]}
    assert set(gauges) == set(seeded.aprs) | set(vault_gauges)  # every gauge, wrapped or not
    for address, g in gauges.items():
        assert is_checksum_address(g["address"])
        if address not in vault_gauges:
            assert g["vault"] is None and g["isAlive"] is False and g["apr"]["total"] == seeded.aprs[address]
            continue
        assert g["vault"]["key"] == vault_gauges[address]
        if g["vault"]["key"] == UNPRICED_GAUGE_VAULT:
            assert g["apr"] is None and g["aprSnapshotAt"] is None
        else:
            assert g["apr"]["total"] == pytest.approx(seeded.aprs[address])
    assert UNWRAPPED_GAUGE in gauges
    alive = api.get("/gauges", params={"alive": "true"}).json()["data"]
    assert alive and all(g["isAlive"] is True for g in alive)
    assert UNWRAPPED_GAUGE not in {g["address"].lower() for g in alive}
    assert api.get("/gauges").headers["cache-control"].startswith("public, max-age=0, s-maxage=60,")


def test_tokens(api, devnet, seeded):
    body = api.get("/tokens").json()
    assert body["meta"]["degraded"] is False
    truth = devnet.truth(body["meta"]["indexedBlock"])["vaults"]
    assert {t["address"].lower() for t in body["data"]} == {v[k].lower() for v in truth for k in ("token0", "token1")}
    for t in body["data"]:
        assert is_checksum_address(t["address"]) and t["logo"] is None
        assert t["priceUsd"] == seeded.prices[t["address"].lower()]
        assert isinstance(t["decimals"], int) and t["symbol"]


def test_health(api):
    body = api.get("/health").json()
    data = body["data"]
    assert data["sources"]["onchain"]["status"] == "ok"
    assert data["sources"]["stats"]["status"] == "ok"
    assert data["sources"]["subgraph"]["status"] in ("ok", "degraded")
    assert set(data["statuses"]) == {"ok", "degraded", "down"}
    assert body["meta"]["indexedBlock"] == data["sources"]["onchain"]["block"]
    assert api.get("/health").headers["cache-control"].startswith("public, max-age=0, s-maxage=10,")


def test_preflight_and_unknown_path(api):
    r = api.request("OPTIONS", "/vaults", headers={"Origin": "https://x.example", "Access-Control-Request-Method": "GET"})
    assert r.status_code == 204
    assert r.headers["access-control-allow-origin"] == "*"
    assert "GET" in r.headers["access-control-allow-methods"]
    r = api.get("/no-such-route")
    assert r.status_code == 404 and r.json()["meta"]["apiVersion"] == "v1"


def test_served_discovery_documents_describe_the_vault_family(api):
    skill = api.client.get(api.server.url + "/skill.json").json()
    assert "indexedBlock" in skill["usage"]["envelope"]["success"] and "502" in skill["usage"]["errors"]
    paths = {ep["path"] for ep in skill["analytics_api"]["endpoints"]}
    assert paths == set(api.client.get(api.server.url + "/api/v1/openapi.json").json()["paths"])
    assert {"/api/v1/vaults/{keyOrAddress}/history", "/api/v1/users/{address}/positions"} <= paths
    text = api.client.get(api.server.url + "/skill.md").text
    assert "snapshot_unavailable" not in text and "upstream_error" in text


def test_served_contract_is_a_valid_openapi_3_1_document(api):
    from openapi_spec_validator import validate  # test dependency: openapi-spec-validator

    doc = api.client.get(api.server.url + "/api/v1/openapi.json").json()
    validate(doc)
    assert doc["openapi"].startswith("3.1") and doc["info"]["license"]["name"] == "MIT"
    spec_paths = {"/meta", "/health", "/vaults", "/vaults/{keyOrAddress}", "/vaults/{keyOrAddress}/history",
                  "/vaults/health", "/gauges", "/tokens", "/users/{address}/positions",
                  "/users/{address}/vaults/{keyOrAddress}"}
    assert set(doc["paths"]) == {"/api/v1" + p for p in spec_paths}
    for item in doc["paths"].values():
        assert set(item) >= {"get", "options"}  # GET, and OPTIONS for preflight
