"""The /v1 curation and discovery routes' states: 503 `curation_unavailable` before any curation is
published (a database of its own), the crafted publication of the /v1 test stack (curation_seed.py)
served with its version; and every malformed parameter
of /v1/pools and /v1/tokens is its own 400 before anything is read, as /openapi.json says. Their
numbers are checked against the devnet's truth in tests/orchestration/test_v1_discovery.py."""
from __future__ import annotations

import pytest

from api_settings import settings_for
from multichain_seed import write_book
from support import instant
from support.api_server import ApiServer
from support.contract_check import CheckedClient
from ve_analytics.core.chains import load_book
from ve_analytics.warehouse.migrate import migrate

CURATION_ROUTES = ("/v1/pools", "/v1/tokens", "/v1/curation", "/v1/categories", "/v1/token-lists", "/v1/token-lists/56")


@pytest.fixture(scope="module")
def uncurated(warehouse, http, tmp_path_factory):
    """/v1 over a database that has no curation publication (nor any snapshot)."""
    folder = tmp_path_factory.mktemp("v1-uncurated")
    settings = settings_for(warehouse.url, "api_v1_uncurated", folder, load_book(write_book(folder), {}))
    migrate(settings)
    with ApiServer(settings, log_path=folder / "api.log", families=("v1",), env=instant.frozen_env()) as server:
        yield CheckedClient(server.url, http)


@pytest.mark.parametrize("path", CURATION_ROUTES)
def test_without_a_reviewed_curation_publication_the_routes_are_503(uncurated, path):
    r = uncurated.get(path)
    assert r.status_code == 503 and r.json()["error"]["code"] == "curation_unavailable", r.text
    assert r.headers["cache-control"] == "no-store"


def test_the_crafted_publication_is_served_with_its_version(v1):
    api, _, _ = v1
    r = api.get("/v1/curation")
    assert r.status_code == 200 and r.headers["x-curation-version"] == "1.0.0"
    assert [t["chainId"] for t in r.json()["data"]["tokenLists"]] == [56]
    wallet = api.get("/v1/token-lists/56").json()
    assert [t["symbol"] for t in wallet["tokens"]] == ["USDC", "USDT"]  # the hidden token is not listed
    r = api.get("/v1/token-lists/4663")
    assert r.status_code == 404 and r.json()["error"]["code"] == "token_list_not_found"
    pools = api.get("/v1/pools?chainIds=56,4663")  # no pool rows at the crafted snapshots: an empty page
    assert pools.status_code == 200 and pools.json()["data"]["rows"] == [] and pools.json()["pageInfo"]["hasNextPage"] is False


@pytest.mark.parametrize("path, code", [
    ("/v1/pools?limit=0", "invalid_limit"),
    ("/v1/pools?limit=501", "invalid_limit"),
    ("/v1/pools?q=" + "x" * 101, "invalid_q"),
    ("/v1/pools?cursor=" + "A" * 8193, "invalid_cursor"),
    ("/v1/pools?minTvlUsd=1e5", "invalid_min_tvl_usd"),
    ("/v1/pools?maxTvlUsd=" + "9" * 61, "invalid_max_tvl_usd"),
    ("/v1/pools?minFeeApr=0." + "1" * 31, "invalid_min_fee_apr"),
    ("/v1/pools?poolTypes=v3", "invalid_pool_types"),
    ("/v1/pools?token=56:0x12", "invalid_token"),
    ("/v1/pools?token=2147483648:0x" + "ab" * 20, "invalid_token"),
    ("/v1/pools?sort=symbol", "invalid_sort"),
    ("/v1/pools?scope=mine", "invalid_scope"),
    ("/v1/pools?featured=yes", "invalid_featured"),
    ("/v1/pools?aprProfile=wide", "invalid_apr_profile"),
    ("/v1/pools?categoryMode=some", "invalid_category_mode"),
    ("/v1/tokens?sort=tvlUsd", "invalid_sort"),
    ("/v1/tokens?curated=maybe", "invalid_curated"),
    ("/v1/tokens?tags=a%20b", "invalid_tags"),
    ("/v1/tokens?includeFacets=1", "invalid_include_facets"),
    ("/v1/tokens?chainIds=0", "invalid_chain_ids"),
    ("/v1/token-lists/0", "invalid_chain_id"),
])
def test_a_malformed_parameter_is_its_own_400(v1, path, code):
    api, _, _ = v1
    r = api.get(path)
    assert r.status_code == 400 and r.json()["error"]["code"] == code, r.text


def test_a_chain_that_is_not_public_is_404(v1):
    api, _, _ = v1
    for path in ("/v1/pools?chainIds=10", "/v1/tokens?chainIds=10", "/v1/token-lists/10"):
        r = api.get(path)
        assert r.status_code == 404 and r.json()["error"]["code"] == "chain_not_public", r.text


def test_the_contract_documents_the_discovery_states(v1):
    api, _, _ = v1
    responses = api.contract.doc["paths"]["/v1/pools"]["get"]["responses"]

    def codes(status: str) -> list[str]:
        return responses[status]["content"]["application/json"]["schema"]["allOf"][1]["properties"]["error"]["properties"]["code"]["enum"]

    assert "cursor_expired" in codes("400") and "invalid_cursor" in codes("400")
    assert codes("503") == ["source_unavailable", "curation_unavailable", "chain_unavailable", "overloaded"]
    assert codes("404") == ["chain_not_public", "feature_unsupported"]
    ok = responses["200"]
    assert "X-Curation-Version" in ok["headers"] and "pageInfo" in ok["content"]["application/json"]["schema"]["required"]
    raw = api.contract.doc["paths"]["/v1/token-lists/{chainId}"]["get"]["responses"]["200"]["content"]["application/json"]
    assert raw["schema"] == {"$ref": "#/components/schemas/V1TokenList"}
