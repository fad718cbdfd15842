"""The /v1 protocol routes' states over the crafted five-chain rows (multichain_seed.py: snapshot
runs without protocol rows): which chains they cover, and each error state with its own status and
code, as published in /openapi.json. Their numbers are checked against the devnet's truth in
tests/orchestration/test_v1_protocol.py."""
from __future__ import annotations

import pytest

ROUTES = ("/v1/protocol", "/v1/protocol/history", "/v1/protocol/daily", "/v1/protocol/trailing")


@pytest.mark.parametrize("path", ROUTES + ("/v1/protocol/volume",))
def test_protocol_routes_cover_the_chains_with_pools(v1, path):
    api, _, _ = v1
    r = api.get(path)
    assert r.status_code == 200, r.text
    assert r.json()["meta"]["chainIds"] == [1, 56, 4663, 5042]  # 8453 has no pool feature in this book
    assert r.headers["cache-control"] == "public, max-age=0, s-maxage=60, stale-while-revalidate=30"


@pytest.mark.parametrize("path", ROUTES)
def test_a_chain_without_pools_is_404_feature_unsupported(v1, path):
    api, _, _ = v1
    r = api.get(f"{path}?chainIds=56,8453")
    assert r.status_code == 404 and r.json()["error"]["code"] == "feature_unsupported"
    assert r.json()["error"]["details"] == {"feature": "pools"} and "chain 8453" in r.json()["error"]["message"]
    assert r.headers["cache-control"] == "no-store"


@pytest.mark.parametrize("path", ROUTES)
def test_a_selection_without_any_published_chain_is_503_chain_unavailable(v1, path):
    api, _, _ = v1
    r = api.get(f"{path}?chainIds=1")  # chain 1 has no snapshot run
    assert r.status_code == 503 and r.json()["error"]["code"] == "chain_unavailable"


def test_a_published_chain_without_protocol_rows_is_listed_and_missing_from_totals(v1):
    api, _, _ = v1
    body = api.get("/v1/protocol?chainIds=1,56").json()
    chains = {c["chainId"]: c for c in body["data"]["chains"]}
    assert chains[56]["snapshotAt"] is not None and chains[56]["tvlUsd"] is None and chains[56]["windows"] is None
    assert chains[1]["state"] == "unavailable" and chains[1]["snapshotAt"] is None
    totals = body["data"]["totals"]
    assert totals["tvlUsd"] is None and totals["chainIds"] == [] and totals["missingChainIds"] == [1, 56]
    assert totals["complete"] is False and body["meta"]["complete"] is False


def test_the_contract_documents_every_state_of_a_protocol_route(v1):
    api, _, _ = v1
    responses = api.contract.doc["paths"]["/v1/protocol"]["get"]["responses"]

    def codes(status: str) -> list[str]:
        return responses[status]["content"]["application/json"]["schema"]["allOf"][1]["properties"]["error"]["properties"]["code"]["enum"]

    assert codes("404") == ["chain_not_public", "feature_unsupported"]
    assert codes("503") == ["source_unavailable", "chain_unavailable", "overloaded"]
    assert "invalid_chain_ids" in codes("400") and "unknown_parameter" in codes("400")
    assert "304" in responses
