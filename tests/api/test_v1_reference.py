"""/v1 reference routes (/v1/chains, /v1/deployments, /v1/health, /v1/health/chains), the /v1
envelope, coverage ETags and chain errors, against crafted snapshot_runs and chain_coverage rows
of five chains (multichain_seed.py: 56 and 4663 fresh, 5042 and 8453 stale, 1 unavailable) in a
database of their own, served by the /v1 family alone. Chain 56's RPC is the test devnet's (it
answers); the others are unreachable. Every response is checked against /openapi.json."""
from __future__ import annotations

import re

import pytest

from multichain_seed import BOOK_CHAINS, LONG_ERROR, missing_history_truth, missing_truth
from v1_stack import CL_FACTORY, MULTICALL, STATES, VAULT_FACTORY, VOTER
from support import instant
from ve_analytics.core.epochs import HOUR, QUARTER_HOUR, iso


def expected_meta_chain(cid: int, latest: int) -> dict:
    newest = {56: latest, 4663: latest - QUARTER_HOUR, 5042: latest - 2 * HOUR, 8453: latest - 3 * HOUR}.get(cid)
    if newest is None:
        return {"chainId": cid, "state": "unavailable", "snapshotAt": None, "indexedAt": None, "availableAt": None}
    # multichain_seed.run: the block read is at the boundary, the success row 40 s later
    return {"chainId": cid, "state": STATES[cid], "snapshotAt": iso(newest), "indexedAt": iso(newest),
            "availableAt": iso(newest + 40)}


def test_chains_cover_every_public_chain_and_flag_the_stale_ones(v1):
    api, latest, t = v1
    before = after = instant.AT  # the API's clock is frozen there
    r = api.get("/v1/chains")
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["ok"] is True and set(body) == {"ok", "data", "meta"}
    meta = body["meta"]
    assert meta["chainIds"] == sorted(BOOK_CHAINS)
    assert meta["chains"] == [expected_meta_chain(cid, latest) for cid in sorted(BOOK_CHAINS)]
    assert meta["complete"] is False and meta["cacheTtlSeconds"] == 300
    assert r.headers["cache-control"] == "public, max-age=0, s-maxage=300, stale-while-revalidate=30"
    by_id = {c["chainId"]: c for c in body["data"]}
    for cid in BOOK_CHAINS:
        assert {k: by_id[cid][k] for k in ("chainId", "state", "snapshotAt", "indexedAt", "availableAt")} == expected_meta_chain(cid, latest)
        assert by_id[cid]["name"] == f"chain {cid}" and by_id[cid]["network"] == f"net{cid}"
    features = {c["chainId"]: {f["name"]: (f["supported"], f["status"]) for f in c["features"]} for c in body["data"]}
    assert features[56]["vaults"] == (False, "unsupported") and features[56]["clPools"] == (True, "fresh")
    assert features[1]["clPools"] == (False, "unsupported") and features[1]["pools"] == (True, "unavailable")
    assert features[8453]["gauges"] == (True, "stale")
    c56 = by_id[56]["coverage"]
    assert c56["firstMarketActivity"] == iso(t["m56"]) and c56["snapshots"] == {"from": iso(t["m56"] + 8 * 60), "to": iso(latest)}
    assert c56["subgraphLagSeconds"] == 60 and c56["chainHeadAt"] == iso(latest)
    assert by_id[5042]["coverage"]["subgraphLagSeconds"] == 2 * HOUR + 20 * 60
    assert by_id[1]["coverage"] == {"firstMarketActivity": None, "history": None, "snapshots": None, "missingSnapshots": None,
                                    "missingHistory": None, "subgraphIndexedAt": None, "chainHeadAt": None,
                                    "subgraphLagSeconds": None}
    assert by_id[1]["filling"] == []
    # chain 56 published two boundaries of its 30-day window: the rest is named, and filling
    assert c56["missingSnapshots"] in (missing_truth({latest - QUARTER_HOUR, latest}, t["m56"], 30, before),
                                       missing_truth({latest - QUARTER_HOUR, latest}, t["m56"], 30, after))
    assert c56["missingSnapshots"]["count"] > 0
    # and no hourly bucket is seeded: every hour since its first activity is missing
    assert c56["missingHistory"] in (missing_history_truth(set(), t["m56"], before), missing_history_truth(set(), t["m56"], after))
    assert by_id[56]["filling"] == ["snapshots", "history"]


def test_a_selection_of_fresh_chains_is_complete_and_has_its_own_etag(v1):
    api, latest, _ = v1
    fresh = api.get("/v1/chains?chainIds=4663,56")
    assert fresh.status_code == 200
    meta = fresh.json()["meta"]
    assert meta["chainIds"] == [56, 4663] and meta["complete"] is True
    assert [c["chainId"] for c in fresh.json()["data"]] == [56, 4663]
    # one normalized query: order and repetition do not matter, the bytes are the first answer's
    again = api.get("/v1/chains?chainIds=56,4663,56")
    assert again.content == fresh.content and again.headers["etag"] == fresh.headers["etag"]
    etag = fresh.headers["etag"]
    assert etag.startswith('W/"cov-')
    assert etag != api.get("/v1/chains").headers["etag"] != api.get("/v1/chains?chainIds=56").headers["etag"]
    r304 = api.get("/v1/chains?chainIds=56,4663", headers={"If-None-Match": etag})
    assert r304.status_code == 304 and r304.content == b"" and r304.headers["etag"] == etag
    other = api.get("/v1/deployments?chainIds=56,4663", headers={"If-None-Match": etag})
    assert other.status_code == 304  # the same coverage is the same published state
    stale = api.get("/v1/chains?chainIds=8453")
    assert stale.json()["meta"]["complete"] is False and stale.json()["meta"]["chains"][0]["state"] == "stale"


@pytest.mark.parametrize("query, status, code", [
    ("chainIds=56,999", 404, "chain_not_public"),
    ("chainIds=2147483647", 404, "chain_not_public"),
    ("chainIds=abc", 400, "invalid_chain_ids"),
    ("chainIds=0", 400, "invalid_chain_ids"),
    ("chainIds=2147483648", 400, "invalid_chain_ids"),
    ("chainIds=56,", 400, "invalid_chain_ids"),
    ("chainIds=all,56", 400, "invalid_chain_ids"),
    ("chainId=56", 400, "unknown_parameter"),
])
def test_chain_selection_errors(v1, query, status, code):
    api, _, _ = v1
    for path in ("/v1/chains", "/v1/deployments"):
        r = api.get(f"{path}?{query}")
        assert r.status_code == status, r.text
        body = r.json()
        assert body["ok"] is False and body["error"]["code"] == code and set(body["meta"]) == {"generatedAt"}
        assert r.headers["cache-control"] == "no-store" and r.headers["access-control-allow-origin"] == "*"
    if code == "chain_not_public":
        assert "1, 56, 4663, 5042, 8453" in body["error"]["message"]


def test_deployments_say_what_is_indexed(v1):
    api, _, _ = v1
    r = api.get("/v1/deployments?chainIds=1,56")
    assert r.status_code == 200
    by_id = {d["chainId"]: d for d in r.json()["data"]}
    assert by_id[56]["indexed"] is True and by_id[1]["indexed"] is False
    assert by_id[56]["contracts"] == [
        {"name": "clFactory", "address": CL_FACTORY, "feature": "clPools", "indexed": True},
        {"name": "multicall3", "address": MULTICALL, "feature": None, "indexed": True},
        {"name": "vaultFactory", "address": VAULT_FACTORY, "feature": "vaults", "indexed": False},
        {"name": "voter", "address": VOTER, "feature": "gauges", "indexed": True},
    ]
    # chain 1 is not indexed at all (the book adds the well-known multicall3 where none is given)
    assert [(c["name"], c["feature"], c["indexed"]) for c in by_id[1]["contracts"]] == [
        ("clFactory", "clPools", False), ("multicall3", None, False)]


def test_health_is_degraded_while_some_chains_are_stale(v1):
    api, latest, _ = v1
    r = api.get("/v1/health")
    assert r.status_code == 200, r.text
    data, meta = r.json()["data"], r.json()["meta"]
    assert data["status"] == "degraded" and data["freshChainIds"] == [56, 4663]
    assert data["staleChainIds"] == [5042, 8453] and data["unavailableChainIds"] == [1]
    assert meta["chains"] == [expected_meta_chain(cid, latest) for cid in sorted(BOOK_CHAINS)] and meta["complete"] is False
    assert r.headers["cache-control"] == "no-store" and "etag" not in r.headers


def test_health_per_chain_reports_stale_chains_and_rpc_reachability(v1):
    api, latest, _ = v1
    before = after = instant.AT  # the API's clock is frozen there
    r = api.get("/v1/health/chains")
    assert r.status_code == 200, r.text
    by_id = {c["chainId"]: c for c in r.json()["data"]}
    assert {cid: c["state"] for cid, c in by_id.items()} == STATES
    assert by_id[56]["healthy"] is True and by_id[8453]["healthy"] is False and by_id[8453]["reason"] == "stale"
    assert by_id[5042]["reason"] == "subgraph_lagging"
    assert before - latest <= by_id[56]["ageSeconds"] <= after - latest
    assert by_id[8453]["lastRun"]["status"] == "failed" and by_id[8453]["lastRun"]["error"] == LONG_ERROR[:300]
    rpc56 = by_id[56]["rpc"]
    assert rpc56["reachable"] is True and rpc56["blockNumber"] > 0 and rpc56["error"] is None
    assert all(not by_id[cid]["rpc"]["reachable"] and by_id[cid]["rpc"]["blockNumber"] is None for cid in (1, 4663, 5042, 8453))


def test_the_contract_is_the_v1_family_own(v1):
    api, _, _ = v1
    doc = api.contract.doc
    assert doc["openapi"] == "3.1.0"
    assert set(doc["paths"]) == {"/v1/chains", "/v1/deployments", "/v1/health", "/v1/health/chains", "/v1/protocol",
                                 "/v1/protocol/history", "/v1/protocol/daily", "/v1/protocol/trailing", "/v1/protocol/volume",
                                 "/v1/curation", "/v1/categories", "/v1/token-lists", "/v1/token-lists/{chainId}",
                                 "/v1/tokens", "/v1/pools", "/v1/pools/{chainId}/{poolAddress}",
                                 "/v1/pools/{chainId}/{poolAddress}/ticks", "/v1/pools/{chainId}/{poolAddress}/trailing",
                                 "/v1/pools/{chainId}/{poolAddress}/bribes", "/v1/pools/{chainId}/{poolAddress}/history",
                                 "/v1/pools/{chainId}/{poolAddress}/daily",
                                 "/v1/tokens/{chainId}/{tokenAddress}",
                                 "/v1/tokens/{chainId}/{tokenAddress}/prices", "/v1/tokens/{chainId}/{tokenAddress}/trailing",
                                 "/v1/tokens/{chainId}/{tokenAddress}/price-changes", "/v1/prices",
                                 "/v1/tokens/{chainId}/{tokenAddress}/price-history", "/v1/gauges",
                                 "/v1/gauges/{chainId}/{gaugeAddress}", "/v1/gauges/{chainId}/{gaugeAddress}/history",
                                 "/v1/gauges/{chainId}/{gaugeAddress}/rewards", "/v1/gauges/{chainId}/{gaugeAddress}/bribes",
                                 "/v1/bribes", "/v1/epochs", "/v1/epochs/{chainId}/{epochStart}",
                                 "/v1/markets/bribes", "/v1/votes", "/v1/bridge", "/v1/bridge/{guid}",
                                 "/v1/auto-manage/vaults/{chainId}/{vault}/rebalances",
                                 "/v1/auto-manage/vaults/{chainId}/{vault}/activity",
                                 "/v1/auto-manage/vaults", "/v1/auto-manage/vaults/{chainId}/{vault}",
                                 "/v1/auto-manage/vaults/{chainId}/{vault}/history",
                                 "/v1/xcore", "/v1/xcore/rate-history", "/v1/xcore/epochs",
                                 "/v1/accounts/{address}/xcore", "/v1/accounts/{address}/voting-positions",
                                 "/v1/accounts/{address}/votes", "/v1/accounts/{address}/activity",
                                 "/v1/accounts/{address}/rewards", "/v1/accounts/{address}/liquidity-positions",
                                 "/v1/accounts/{address}/portfolio"}
    schemas = set(doc["components"]["schemas"])
    assert {"V1Chain", "V1Deployment", "V1Health", "V1ChainHealth", "V1Protocol", "V1ProtocolPeriods"} <= schemas
    assert not {"ProtocolSnapshot", "HistoryPoint", "Vault"} & schemas  # no /api/stats or /api/v1 schema
    chains = doc["paths"]["/v1/chains"]["get"]
    assert "404" in chains["responses"] and "304" in chains["responses"]
    codes_404 = chains["responses"]["404"]["content"]["application/json"]["schema"]["allOf"][1]["properties"]["error"]["properties"]["code"]["enum"]
    assert codes_404 == ["chain_not_public"]


def test_discovery_names_the_v1_contract(v1):
    api, _, _ = v1
    catalog = api.http.get(api.url + "/.well-known/api-catalog")
    assert catalog.status_code == 200
    entry = {e["anchor"]: e for e in catalog.json()["linkset"]}["/v1"]
    assert [link["href"] for link in entry["service-desc"]] == ["/openapi.json"]
    docs = api.http.get(api.url + "/v1/docs")
    assert docs.status_code == 200 and docs.headers["content-type"].startswith("text/html")
    assert b"/openapi.json" in docs.content


def test_an_unknown_path_names_the_contract_that_is_served(v1):
    api, _, _ = v1
    for path in ("/v1/nope", "/nope"):
        r = api.get(path)
        assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
        assert re.findall(r"/[\w/.-]*openapi\.json", r.json()["error"]["message"]) == ["/openapi.json"]
    assert api.http.get(api.url + "/openapi.json").status_code == 200
