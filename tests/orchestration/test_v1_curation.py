"""The /v1 curation routes over the repository's curation published on the session's chains: the
metadata and categories equal the source, the token lists are valid against the token-list JSON
schema wallets load (npm @uniswap/token-lists, fetched by `make schemas`) and hold each chain's
active curated tokens with the indexed symbol, name and decimals; ETag, X-Curation-Version and 304;
404 for a chain without a list or not public. Every response is checked against /openapi.json."""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import httpx
import pytest
from jsonschema import Draft7Validator, FormatChecker

from orchestration_session import CHAINS
from session_curation import session_source
from support.api_server import ApiServer
from support.contract_check import CheckedClient

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "curation" / "curation.json"
TOKENLIST_SCHEMA = ROOT / ".cache" / "tokenlist-1.0.0-beta.35.schema.json"


@pytest.fixture(scope="module")
def source(stack, tmp_path_factory) -> dict:
    from ve_analytics.orchestration.curation import materialize_curation

    path = session_source(tmp_path_factory.mktemp("curation"))
    materialize_curation(stack.settings, path)
    return json.loads(path.read_text())


@pytest.fixture(scope="module")
def api(stack, source, tmp_path_factory):
    settings = dataclasses.replace(stack.settings, api_workers=1)
    log = tmp_path_factory.mktemp("v1-curation") / "api.log"
    with ApiServer(settings, families=("v1",), log_path=log) as server, httpx.Client(timeout=60) as http:
        yield CheckedClient(server.url, http)


@pytest.fixture(scope="module")
def wallet_schema() -> Draft7Validator:
    assert TOKENLIST_SCHEMA.exists(), "run `make schemas` (make test does) to fetch the token-list JSON schema"
    return Draft7Validator(json.loads(TOKENLIST_SCHEMA.read_text()), format_checker=FormatChecker())


def listed_chains(source: dict) -> list[int]:
    return sorted(int(c) for c, entry in source["chains"].items() if int(c) in CHAINS and entry.get("tokenList"))


def test_curation_metadata_is_the_reviewed_source(api, source):
    r = api.get("/v1/curation")
    data = r.json()["data"]
    assert data["version"] == source["version"] == r.headers["x-curation-version"]
    assert data["review"]["reviewedBy"] == source["review"]["reviewedBy"]
    assert [t["id"] for t in data["tags"]] == [t["id"] for t in source["tags"]]
    assert set(data["statuses"]) == {"active", "hidden", "deprecated", "blocked"}
    assert [t["chainId"] for t in data["tokenLists"]] == listed_chains(source)
    assert r.json()["meta"]["curation"] == {"version": data["version"], "digest": data["digest"],
                                            "publishedAt": data["publishedAt"]}


def test_categories_are_the_sources_rules_with_their_default_scope(api, source):
    data = api.get("/v1/categories").json()["data"]
    assert [c["id"] for c in data["categories"]] == [c["id"] for c in source["categories"]]
    for served, given in zip(data["categories"], source["categories"]):
        assert served["defaultScope"] == given["defaultScope"]
        rule = given.get("rule")
        if rule is None:  # explicit entries only: a rule that matches no pool type
            assert served["rule"]["poolTypes"] == [] and not served["rule"]["tokenTags"]
            continue
        assert served["rule"]["poolTypes"] == rule.get("poolTypes") and served["rule"]["tokenTags"] == rule.get("tokenTags")
        assert served["rule"]["tokenTagMode"] == rule.get("tokenTagMode", "any")


def test_each_chains_token_list_is_wallet_valid_and_lists_its_active_curated_tokens(api, stack, source, wallet_schema):
    for cid in listed_chains(source):
        r = api.get(f"/v1/token-lists/{cid}")
        assert r.status_code == 200 and r.headers["x-curation-version"] == source["version"]
        body = r.json()
        errors = [e.message for e in wallet_schema.iter_errors(body)]
        assert not errors, errors[:5]
        entry = source["chains"][str(cid)]
        active = {t["address"].lower() for t in entry["tokens"] if t.get("status", "active") == "active"}
        assert {t["address"].lower() for t in body["tokens"]} == active and all(t["chainId"] == cid for t in body["tokens"])
        assert body["name"] == entry["tokenList"]["name"]
        assert "{major}.{minor}.{patch}".format(**body["version"]) == entry["tokenList"]["version"]
        for token in body["tokens"]:  # symbol, name and decimals as indexed
            symbol, name, decimals = stack.query(
                "SELECT symbol, name, decimals FROM token_snap15m WHERE chain_id = {c:UInt32} AND token_address = {a:String} "
                "ORDER BY snapshot_at DESC LIMIT 1", c=cid, a=token["address"].lower())[0]
            assert (token["symbol"], token["name"], token["decimals"]) == (symbol, name, decimals)


def test_the_token_list_of_several_chains_is_one_wallet_valid_list(api, source, wallet_schema):
    chains = listed_chains(source)
    body = api.get("/v1/token-lists").json()
    listed = body["data"]
    assert not list(wallet_schema.iter_errors(listed))
    assert sorted({t["chainId"] for t in listed["tokens"]}) == chains
    assert body["meta"]["chainIds"] == sorted(CHAINS)


def test_curation_answers_carry_an_etag_and_answer_304(api):
    for path in ("/v1/curation", "/v1/categories", "/v1/token-lists", f"/v1/token-lists/{CHAINS[0]}"):
        r = api.get(path)
        etag = r.headers["etag"]
        again = api.get(path, headers={"If-None-Match": etag})
        assert again.status_code == 304 and again.headers["etag"] == etag and again.headers["x-curation-version"]


def test_a_chain_without_a_list_is_404_and_a_chain_that_is_not_public_too(api, source):
    without = [c for c in CHAINS if c not in listed_chains(source)]
    if without:
        r = api.get(f"/v1/token-lists/{without[0]}")
        assert r.status_code == 404 and r.json()["error"]["code"] == "token_list_not_found"
    r = api.get("/v1/token-lists/8453")  # not in this session's chain book
    assert r.status_code == 404 and r.json()["error"]["code"] == "chain_not_public"
    r = api.get("/v1/token-lists/0")
    assert r.status_code == 400 and r.json()["error"]["code"] == "invalid_chain_id"
