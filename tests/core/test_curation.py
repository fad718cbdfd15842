"""The curation source and its publication, as pure functions: validation that names every
problem, category rules, token lists, digests and the version rule."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from eth_utils import to_checksum_address

from ve_analytics.core.curation import CurationInvalid
from ve_analytics.core.curation_publication import decide, publication
from ve_analytics.core.curation_source import load_source, parse_source

REPO = Path(__file__).resolve().parents[2]
A, B, C, D, E, F = ("0x" + c * 40 for c in "abcdef")  # tokens (E and F uncurated)
P1, P2, P3, P4 = ("0x" + c * 40 for c in "1234")  # pools
SNAP = 1_795_132_800  # 2026-11-20T00:00:00Z


def source(**over) -> dict:
    raw = {
        "version": "1.0.0",
        "review": {"reviewedBy": "council", "reviewedAt": "2026-11-20T00:00:00Z", "reference": "PR 1"},
        "tags": [{"id": "stable", "name": "Stablecoin", "description": "Pegged to the US dollar"},
                 {"id": "core", "name": "Core", "description": "The protocol token"}],
        "categories": [
            {"id": "stable", "name": "Stable pairs", "description": "stable-swap, a stable token",
             "rule": {"poolTypes": ["v2-stable", "cl"], "tokenTags": ["stable"], "tokenTagMode": "all"}},
            {"id": "core-usd", "name": "Core and USD", "description": "the core token and a stable",
             "rule": {"tokenTags": ["core", "stable"], "tokenTagMode": "all"}, "defaultScope": "all"},
            {"id": "tagged", "name": "Tagged", "description": "a core or stable token",
             "rule": {"tokenTags": ["core", "stable"]}},
            {"id": "picks", "name": "Picks", "description": "explicit only", "rule": None},
        ],
        "chains": {"56": {
            "tokenList": {"name": "Test List", "version": "1.0.0"},
            "tokens": [{"address": A, "status": "active", "tags": ["stable"], "displayOrder": 2},
                       {"address": B, "status": "active", "tags": ["stable"], "displayOrder": 1},
                       {"address": C, "status": "active", "tags": ["core"]},
                       {"address": D, "status": "blocked", "tags": ["stable"], "displayOrder": 0}],
            "pools": [{"address": P1, "status": "active", "displayOrder": 1, "featured": True},
                      {"address": P2, "status": "hidden", "categories": ["picks"]}]}},
    }
    raw.update(over)
    return raw


def token(symbol: str) -> dict:
    return {"symbol": symbol, "name": f"{symbol} Token", "decimals": 18}


INDEXED = {56: {"snapshot_at": SNAP,
                "tokens": {A: token("USDA"), B: token("USDB"), C: token("CORE"), D: token("USDD"), E: token("EEE"),
                           F: token("FFF")},
                "pools": {P1: {"pool_type": "v2-stable", "token0": A, "token1": B},
                          P2: {"pool_type": "v2-volatile", "token0": A, "token1": C},
                          P3: {"pool_type": "v2-stable", "token0": A, "token1": E},
                          P4: {"pool_type": "cl", "token0": E, "token1": F}}}}


def problems(raw) -> list[str]:
    with pytest.raises(CurationInvalid) as info:
        parse_source(raw)
    return info.value.problems


def test_every_problem_is_listed_with_its_entry():
    raw = source()
    chain = raw["chains"]["56"]
    chain["tokens"][0]["tags"] = ["stable", "nope"]
    chain["tokens"][1]["status"] = "gone"
    chain["tokens"].append({"address": to_checksum_address(A), "tags": []})
    chain["pools"][1]["categories"] = ["x"]
    chain["tokenList"]["name"] = "Bad-name!"
    raw["tags"].append({"id": "stablecoins", "name": "Too long id", "description": "d"})
    del raw["review"]
    found = problems(raw)
    assert "chains.56.tokens[0]: unknown tag 'nope'" in found
    assert any(p.startswith("chains.56.tokens[1]: status 'gone' is not one of") for p in found)
    assert any(p.startswith("chains.56.tokens[4]: address") and "chains.56.tokens[0]" in p for p in found)  # duplicate
    assert "chains.56.pools[1]: unknown category 'x'" in found
    assert any(p.startswith("chains.56.tokenList: name 'Bad-name!'") for p in found)
    assert any(p.startswith("tags[2]: id 'stablecoins'") for p in found)
    assert any(p.startswith("review: missing") for p in found)
    assert len(found) == 7


@pytest.mark.parametrize("edit, expected", [
    (lambda r: r["tags"][0].update(name="Stable-coin"), "tags[0]: name 'Stable-coin'"),
    (lambda r: r["tags"][0].update(description="pegged (USD)"), "tags[0]: description"),
    (lambda r: r["categories"][0].update(id="Stable"), "categories[0]: id 'Stable'"),
    (lambda r: r["categories"][0]["rule"].update(poolTypes=["v3"]), "categories[0].rule: unknown pool type 'v3'"),
    (lambda r: r["categories"][1].update(rule={}), "categories[1].rule: matches every pool"),
    (lambda r: r["categories"][1].update(rule={"tokenTags": []}), "categories[1].rule: tokenTags is empty"),
    (lambda r: r["chains"]["56"]["tokens"][0].update(address="0xABC"), "chains.56.tokens[0]: address '0xABC'"),
    (lambda r: r["chains"]["56"]["tokens"][0].update(tags=[f"t{i}" for i in range(11)]), "chains.56.tokens[0]: unknown tag"),
    (lambda r: r["chains"]["56"]["pools"][0].update(displayOrder=-1), "chains.56.pools[0]: displayOrder"),
    (lambda r: r["chains"]["56"]["pools"][0].update(colour="red"), "chains.56.pools[0]: unknown field 'colour'"),
    (lambda r: r.update(version="1.0"), "version: version '1.0'"),
    (lambda r: r["review"].update(reviewedAt="yesterday"), "review: reviewedAt 'yesterday'"),
    (lambda r: r["review"].pop("reviewedBy"), "review: missing 'reviewedBy'"),
    (lambda r: r["chains"].update({"bsc": {}}), "chains.bsc: chain ids"),
])
def test_each_rule_names_its_entry(edit, expected):
    raw = source()
    edit(raw)
    assert any(p.startswith(expected) for p in problems(raw)), problems(raw)


def test_a_wrongly_checksummed_address_is_refused_and_a_good_one_lower_cased():
    good = "0x7bE6F408Ec5ed9136Bf01017dcB3d99847a57eE1"
    raw = source()
    raw["chains"]["56"]["tokens"][0]["address"] = good
    assert good.lower() in {t.address for t in parse_source(raw).chains[56].tokens}
    raw["chains"]["56"]["tokens"][0]["address"] = good[:3] + "B" + good[4:]  # breaks the EIP-55 checksum
    assert any("not a checksummed or lower-case" in p for p in problems(raw))


def test_more_than_ten_tags_on_a_token_is_a_problem():
    raw = source(tags=[{"id": f"t{i}", "name": f"T{i}", "description": "d"} for i in range(11)], categories=[])
    raw["chains"]["56"]["tokens"][0]["tags"] = [f"t{i}" for i in range(11)]
    raw["chains"]["56"]["pools"][1]["categories"] = []
    assert "chains.56.tokens[0]: 11 tags, at most 10" in problems(raw)


def _rows(pub, kind):
    return {r["address"]: r for r in pub.entities if r["kind"] == kind}


def test_rules_give_categories_over_every_indexed_pool():
    pub = publication(parse_source(source()), INDEXED)
    pools = _rows(pub, "pool")
    assert set(pools) == {P1, P2, P3, P4}  # every indexed pool, curated or not
    # the union of both tokens' tags is matched: 'all' needs every tag of the rule in it, 'any' one
    assert pools[P1]["categories"] == ["stable", "tagged"]  # v2-stable of two stables; no core token
    assert pools[P2]["categories"] == ["core-usd", "tagged", "picks"]  # volatile; the explicit one adds to the rules'
    assert pools[P3]["categories"] == ["stable", "tagged"]  # a stable and an uncurated token
    assert pools[P4]["categories"] == []  # two uncurated tokens: no tag to match
    # a category of explicit entries only keeps the rule's shape: no pool type matches it
    picks = next(c for c in pub.document["categories"] if c["id"] == "picks")
    assert picks["rule"] == {"poolTypes": [], "tokenTags": None, "tokenTagMode": "any"}
    assert next(c for c in pub.document["categories"] if c["id"] == "core-usd")["defaultScope"] == "all"
    assert (pools[P3]["curated"], pools[P3]["status"], pools[P3]["display_order"], pools[P3]["featured"]) == (
        False, "active", None, False)
    assert (pools[P2]["curated"], pools[P2]["status"], pools[P1]["featured"]) == (True, "hidden", True)
    assert all(r["tags"] == [] for r in pools.values())


def test_token_list_orders_active_tokens_and_leaves_the_others_out():
    pub = publication(parse_source(source()), INDEXED)
    tokens = _rows(pub, "token")
    assert set(tokens) == {A, B, C, D} and tokens[D]["status"] == "blocked"  # published, so it can be excluded
    listed = pub.document["tokenLists"]["56"]
    assert [t["symbol"] for t in listed["tokens"]] == ["USDB", "USDA", "CORE"]  # displayOrder, then unordered last
    assert listed["tokens"][0] == {"chainId": 56, "address": to_checksum_address(B), "symbol": "USDB", "name": "USDB Token",
                                   "decimals": 18, "tags": ["stable"]}
    assert pub.document["chains"]["56"] == {"snapshotAt": "2026-11-20T00:00:00Z", "tokens": 4, "pools": 2}


def test_not_indexed_addresses_and_unknown_chains_are_problems():
    raw = source()
    raw["chains"]["56"]["pools"].append({"address": "0x" + "9" * 40})
    raw["chains"]["56"]["tokens"][2]["symbol"] = "CROE"
    raw["chains"]["8453"] = {"tokens": [], "pools": []}
    raw["chains"]["1"] = {"tokens": [], "pools": []}
    with pytest.raises(CurationInvalid) as info:
        publication(parse_source(raw), INDEXED, book=[56, 8453])
    found = info.value.problems
    assert f"chains.56.pools[2]: pool {'0x' + '9' * 40} is not indexed on chain 56 (snapshot 2026-11-20T00:00:00Z)" in found
    assert any(p.startswith("chains.56.tokens[2]: symbol 'CROE'") for p in found)
    assert "chains.1: chain 1 is not in the chain book" in found
    assert any(p.startswith("chains.8453: chain 8453 has no published snapshot") for p in found)
    assert len(found) == 4


def test_digest_is_stable_whatever_the_key_order_or_address_case():
    one = publication(parse_source(source()), INDEXED)
    raw = source()
    shuffled = json.loads(json.dumps(raw, sort_keys=True))  # other key order
    shuffled["chains"]["56"]["tokens"].reverse()
    first = shuffled["chains"]["56"]["tokens"][0]
    first["address"] = to_checksum_address(first["address"])
    two = publication(parse_source(shuffled), INDEXED)
    assert (one.digest, one.source_digest) == (two.digest, two.source_digest)
    assert len(one.digest) == 64 and one.document["sourceDigest"] == one.source_digest
    changed = source()
    changed["chains"]["56"]["pools"][0]["featured"] = False
    assert parse_source(changed).source_digest != one.source_digest


def test_a_changed_curation_needs_a_new_version():
    pub = publication(parse_source(source()), INDEXED)
    latest = {"digest": pub.digest, "version": "1.0.0", "source_digest": pub.source_digest, "document": pub.document}
    assert decide(None, pub) == "publish" and decide(latest, pub) == "unchanged"
    raw = source()
    raw["chains"]["56"]["pools"][0]["displayOrder"] = 7
    changed = publication(parse_source(raw), INDEXED)
    with pytest.raises(CurationInvalid, match="curation changed but version 1.0.0 is already published: bump version"):
        decide(latest, changed)
    assert decide(latest, publication(parse_source({**raw, "version": "1.0.1"}), INDEXED)) == "publish"
    with pytest.raises(CurationInvalid, match="older than the published"):
        decide({**latest, "version": "1.1.0"}, publication(parse_source({**raw, "version": "1.0.1"}), INDEXED))
    # the same source over a newer snapshot is a new publication of the same version
    later = copy.deepcopy(INDEXED)
    later[56]["snapshot_at"] += 900
    assert decide(latest, publication(parse_source(source()), later)) == "publish"


def test_a_token_list_that_changed_needs_its_own_new_version():
    pub = publication(parse_source(source()), INDEXED)
    latest = {"digest": pub.digest, "version": "1.0.0", "source_digest": pub.source_digest, "document": pub.document}
    raw = source(version="1.1.0")
    raw["chains"]["56"]["tokens"][2]["status"] = "hidden"  # leaves the list
    with pytest.raises(CurationInvalid, match=r"chains.56.tokenList: the list changed but version 1.0.0"):
        decide(latest, publication(parse_source(raw), INDEXED))
    raw["chains"]["56"]["tokenList"]["version"] = "2.0.0"
    assert decide(latest, publication(parse_source(raw), INDEXED)) == "publish"


def test_the_repository_source_is_valid():
    src = load_source(REPO / "curation" / "curation.json")
    assert src.version and src.review["reviewedBy"] and set(src.chains) == {56, 4663, 8453, 1, 5042}
    statuses = {t.status for t in src.chains[56].tokens} | {p.status for p in src.chains[56].pools}
    assert statuses == {"active", "hidden", "deprecated", "blocked"}
