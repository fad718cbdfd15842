"""/v1/pools and /v1/tokens over the session's four backfilled chains with the repository's
curation published, against an independent computation: the devnet's truth (each pool's flows
over the row's own windows, TVL and prices at the snapshot block) and the curation source read
as plain JSON. Full traversals with small pages equal the unpaged answer, also when a snapshot
is published mid-traversal; facets equal counts over the unpaged rows; every filter and sort
(NULL last both ways, the tie-breakers) equals the same selection done here; cursors that were
tampered with, belong to other filters, are older than a day or outlived their curation are
refused. Every response is checked against the served /openapi.json."""
from __future__ import annotations

import base64
import dataclasses
import json
from collections import Counter
from decimal import ROUND_DOWN, Context, Decimal

import httpx
import pytest

from discovery_truth import Curated, expected_order, parse
from orchestration_session import CHAINS, LAGGING
from session_api import client_after
from session_curation import session_source
from support.api_server import ApiServer
from support.contract_check import CheckedClient
from ve_analytics.core.epochs import QUARTER_HOUR, iso

REL = 1e-9
STALE_AFTER_MINUTES = 24 * 60  # the lagging chain is stale, the others fresh, whatever the hour


@pytest.fixture(scope="module")
def curated(stack, tmp_path_factory) -> Curated:
    from ve_analytics.orchestration.curation import materialize_curation

    source = session_source(tmp_path_factory.mktemp("curation"))
    materialize_curation(stack.settings, source)
    return Curated(json.loads(source.read_text()))


@pytest.fixture(scope="module")
def api(stack, curated, tmp_path_factory):
    settings = dataclasses.replace(stack.settings, stale_after_minutes=STALE_AFTER_MINUTES, api_workers=1)
    log = tmp_path_factory.mktemp("v1-discovery") / "api.log"
    with ApiServer(settings, families=("v1",), log_path=log) as server, httpx.Client(timeout=60) as http:
        yield CheckedClient(server.url, http)


@pytest.fixture(scope="module")
def cursor_secret(stack) -> bytes:
    """The secret the API signs with (its settings are the session's)."""
    return stack.settings.cursor_secrets[0].encode()


def everything(api, path: str, limit: int) -> tuple[list[dict], list[dict]]:
    """Every row of a traversal with pages of `limit`, and each page's meta.chains."""
    rows, metas, cursor = [], [], None
    while True:
        sep = "&" if "?" in path else "?"
        url = f"{path}{sep}limit={limit}" + (f"&cursor={cursor}" if cursor else "")
        r = api.get(url)
        assert r.status_code == 200, r.text
        body = r.json()
        rows += body["data"]["rows"]
        metas.append(body["meta"]["chains"])
        if not body["pageInfo"]["hasNextPage"]:
            assert body["pageInfo"]["nextCursor"] is None
            return rows, metas
        cursor = body["pageInfo"]["nextCursor"]
        assert len(cursor) <= 8192


def close(a: str | None, b: float) -> bool:
    return a is not None and abs(float(a) - b) <= REL * max(abs(b), 1e-9)


def test_default_pools_are_the_curated_active_ones_by_tvl_with_truthful_figures(api, stack, curated):
    body = api.get("/v1/pools?limit=500").json()
    rows = body["data"]["rows"]
    assert body["meta"]["chainIds"] == sorted(CHAINS) and body["meta"]["curation"]["version"] == curated.version
    assert {(r["chainId"], r["address"]) for r in rows} == curated.pools(stack, scope="curated", status="active")
    assert rows == expected_order(rows, "tvlUsd", descending=True)
    for row in rows:
        cid = row["chainId"]
        block = stack.scalar("SELECT block_number FROM snapshot_runs FINAL WHERE chain_id = {c:UInt32} AND status = "
                             "'success' ORDER BY snapshot_at DESC LIMIT 1", c=cid)
        truth = stack.truth("state", cid, block=block)["pools"][row["address"]]
        assert close(row["tvlUsd"], truth["tvlUsd"]), (row, truth)
        for window in row["flowWindows"]:
            label = {"24h": ("volume24hUsd", "fees24hUsd"), "7d": ("volume7dUsd", "fees7dUsd")}[window["label"]]
            flows = stack.truth("flows", cid, pool=row["address"], **{"from": parse(window["from"]),
                                                                      "to": parse(window["toExclusive"])})
            if window["evidence"] == "available":
                assert close(row[label[0]], flows["volumeUsd"]) and close(row[label[1]], flows["feesUsd"]), (row, flows)
            else:
                assert row[label[0]] is None and row[label[1]] is None
        if row["tvlUsd"] is not None and row["fees24hUsd"] is not None and Decimal(row["tvlUsd"]) > 0:
            assert close(row["feeApr"], float(row["fees24hUsd"]) * 365 / float(row["tvlUsd"]))
        assert row["curated"] and row["status"] == "active"
        assert row["tokenTags"] == sorted(set(row["token0"]["tags"]) | set(row["token1"]["tags"]))
        assert row["categories"] == curated.categories_of(row)
    states = {c["chainId"]: c["state"] for c in body["meta"]["chains"]}
    assert states[LAGGING] == "stale" and body["meta"]["complete"] is False


@pytest.mark.parametrize("query", [
    "scope=all", "scope=all&sort=displayOrder&direction=asc", "scope=all&sort=displayOrder&direction=desc",
    "scope=all&sort=volume24h", "scope=all&sort=fees7d&direction=asc", "scope=all&sort=emissionsApr",
    "scope=all&sort=emissionsApr&direction=asc&aprProfile=minimum", "scope=all&sort=feeApr&direction=asc",
])
def test_a_traversal_in_small_pages_equals_the_unpaged_answer_in_the_promised_order(api, query):
    whole = api.get(f"/v1/pools?{query}&limit=500").json()["data"]["rows"]
    paged, _ = everything(api, f"/v1/pools?{query}", limit=3)
    assert paged == whole and len(whole) > 6
    sort = dict(p.split("=") for p in query.split("&")).get("sort", "tvl")
    field = {"tvl": "tvlUsd", "volume24h": "volume24hUsd", "fees7d": "fees7dUsd", "emissionsApr": "emissionsApr",
             "feeApr": "feeApr", "displayOrder": "displayOrder"}[sort]
    descending = "direction=asc" not in query
    assert whole == expected_order(whole, field, descending)
    assert any(r[field] is None for r in whole) == (whole[-1][field] is None)  # NULL last, both directions


@pytest.mark.parametrize("query", ["", "curated=all&sort=symbol", "curated=all&sort=price&direction=desc",
                                   "curated=all&sort=poolCount&direction=desc", "status=hidden"])
def test_token_traversals_equal_the_unpaged_answer(api, query):
    whole = api.get(f"/v1/tokens?{query}&limit=500").json()["data"]["rows"]
    paged, _ = everything(api, f"/v1/tokens?{query}" if query else "/v1/tokens", limit=2)
    assert paged == whole


def test_default_tokens_are_the_curated_active_ones_in_display_order_with_truthful_figures(api, stack, curated):
    rows = api.get("/v1/tokens?limit=500").json()["data"]["rows"]
    assert {(r["chainId"], r["address"]) for r in rows} == curated.tokens(status="active")
    assert rows == expected_order(rows, "displayOrder", descending=False)
    for row in rows:
        cid = row["chainId"]
        block = stack.scalar("SELECT block_number FROM snapshot_runs FINAL WHERE chain_id = {c:UInt32} AND status = "
                             "'success' ORDER BY snapshot_at DESC LIMIT 1", c=cid)
        state = stack.truth("state", cid, block=block)
        assert close(row["priceUsd"], state["tokens"][row["address"]]["priceUsd"])
        assert row["tags"] == curated.token(cid, row["address"])["tags"]


def test_facets_count_every_matching_row_before_paging(api):
    for path, names in (("/v1/pools?scope=all", ("chainIds", "poolTypes", "statuses")),
                        ("/v1/tokens?curated=all", ("chainIds", "statuses"))):
        whole = api.get(f"{path}&limit=500").json()["data"]["rows"]
        first = api.get(f"{path}&limit=2&includeFacets=true").json()["data"]
        assert len(first["rows"]) == 2
        key = {"chainIds": "chainId", "poolTypes": "poolType", "statuses": "status"}
        for name in names:
            counted = Counter(r[key[name]] for r in whole)
            assert {f["value"]: f["count"] for f in first["facets"][name]} == dict(counted), name
    whole = api.get("/v1/pools?scope=all&limit=500").json()["data"]["rows"]
    facets = api.get("/v1/pools?scope=all&includeFacets=true").json()["data"]["facets"]
    assert {f["value"]: f["count"] for f in facets["categories"]} == dict(Counter(c for r in whole for c in r["categories"]))
    assert {f["value"]: f["count"] for f in facets["tokenTags"]} == dict(Counter(t for r in whole for t in r["tokenTags"]))


def pool_rows(api, query: str) -> list[dict]:
    r = api.get(f"/v1/pools?scope=all&limit=500&{query}")
    assert r.status_code == 200, r.text
    return r.json()["data"]["rows"]


def test_every_pool_filter_selects_what_the_same_filter_selects_here(api):
    every = pool_rows(api, "")
    known_tvl = [r for r in every if r["tvlUsd"] is not None]
    pivot = sorted(known_tvl, key=lambda r: Decimal(r["tvlUsd"]))[len(known_tvl) // 2]
    # a filter has at most 30 fraction digits: the pivot's TVL cut there, and one unit above
    wide = Context(prec=100)  # the default 28 digits would round
    low = Decimal(pivot["tvlUsd"]).quantize(Decimal("1e-30"), ROUND_DOWN, context=wide)
    high = wide.add(low, Decimal("1e-30"))
    assert low <= Decimal(pivot["tvlUsd"]) < high
    cases = {
        f"minTvlUsd={low:f}": lambda r: r["tvlUsd"] is not None and Decimal(r["tvlUsd"]) >= low,
        f"maxTvlUsd={high:f}": lambda r: r["tvlUsd"] is not None and Decimal(r["tvlUsd"]) <= high,
        f"maxTvlUsd={low:f}": lambda r: r["tvlUsd"] is not None and Decimal(r["tvlUsd"]) <= low,
        "poolTypes=cl": lambda r: r["poolType"] == "cl",
        "poolTypes=v2-stable,v2-volatile": lambda r: r["poolType"] != "cl",
        "incentivized=true": lambda r: r["incentivized"],
        "liveGauge=false": lambda r: not r["liveGauge"],
        "dynamicFee=true": lambda r: r["dynamicFee"],
        "customFee=true": lambda r: r["customFee"],
        "curated=false": lambda r: not r["curated"],
        "featured=true": lambda r: r["featured"],
        "minFeeApr=0.05": lambda r: r["feeApr"] is not None and Decimal(r["feeApr"]) >= Decimal("0.05"),
        "minEmissionsApr=0.1": lambda r: r["emissionsApr"] is not None and Decimal(r["emissionsApr"]) >= Decimal("0.1"),
        "q=wbnb": lambda r: "wbnb" in f"{r['token0']['symbol']}/{r['token1']['symbol']}".lower()
                            or "wbnb" in (r["token0"]["name"] or "").lower() + (r["token1"]["name"] or "").lower(),
        f"token={pivot['token0']['address'].upper().replace('0X', '0x')}":
            lambda r: pivot["token0"]["address"] in (r["token0"]["address"], r["token1"]["address"]),
        f"token={pivot['chainId']}:{pivot['token0']['address']}":
            lambda r: r["chainId"] == pivot["chainId"] and pivot["token0"]["address"] in (r["token0"]["address"], r["token1"]["address"]),
    }
    for query, keep in cases.items():
        assert pool_rows(api, query) == [r for r in every if keep(r)], query
    # the exact boundary, one unit of the 30th fraction digit wide
    assert pivot in pool_rows(api, f"minTvlUsd={low:f}") and pivot in pool_rows(api, f"maxTvlUsd={high:f}")
    assert pivot not in pool_rows(api, f"minTvlUsd={high:f}")
    assert (pivot in pool_rows(api, f"maxTvlUsd={low:f}")) == (Decimal(pivot["tvlUsd"]) == low)
    assert pool_rows(api, "minTvlUsd=" + "9" * 60) == [] and pool_rows(api, "maxTvlUsd=0." + "0" * 29 + "1") == []


def test_category_and_tag_filters_with_any_and_all(api, curated):
    every = pool_rows(api, "")
    categories = sorted({c for r in every for c in r["categories"]})
    tags = sorted({t for r in every for t in r["tokenTags"]})
    assert len(categories) >= 2 and len(tags) >= 2
    pair, tag_pair = ",".join(categories[:2]), ",".join(tags[:2])
    assert pool_rows(api, f"categories={pair}") == [r for r in every if set(categories[:2]) & set(r["categories"])]
    assert pool_rows(api, f"categories={pair}&categoryMode=all") == [r for r in every if set(categories[:2]) <= set(r["categories"])]
    assert pool_rows(api, f"tokenTags={tag_pair}") == [r for r in every if set(tags[:2]) & set(r["tokenTags"])]
    assert pool_rows(api, f"tokenTags={tag_pair}&tokenTagMode=all") == [r for r in every if set(tags[:2]) <= set(r["tokenTags"])]
    tokens = api.get("/v1/tokens?curated=all&limit=500").json()["data"]["rows"]
    assert api.get(f"/v1/tokens?curated=all&limit=500&tags={tags[0]}").json()["data"]["rows"] == \
        [t for t in tokens if tags[0] in t["tags"]]
    unknown = api.get(f"/v1/pools?scope=all&categories=no-such-category,{categories[0]}")  # selects nothing, said so
    assert unknown.json()["data"]["unknownNames"] == {"categories": ["no-such-category"]}
    assert unknown.json()["data"]["rows"] == pool_rows(api, f"categories={categories[0]}")[:50]


@pytest.mark.parametrize("q", ["%", "_", "'", "\"", "\\", "W%B", "%25"])
def test_q_is_a_literal_match_wildcards_and_quotes_included(api, q):
    r = api.get("/v1/pools", params={"scope": "all", "q": q, "limit": 500})
    assert r.status_code == 200 and r.json()["data"]["rows"] == []  # no symbol, name or address holds them
    r = api.get("/v1/tokens", params={"curated": "all", "q": q})
    assert r.status_code == 200 and r.json()["data"]["rows"] == []


def test_featured_is_a_presentation_filter_that_keeps_the_financial_order(api):
    every = pool_rows(api, "")
    featured = pool_rows(api, "featured=true")
    assert featured and featured == [r for r in every if r["featured"]]


def test_a_cursor_that_was_tampered_with_or_belongs_to_other_filters_is_400_invalid_cursor(api):
    cursor = api.get("/v1/pools?scope=all&limit=2").json()["pageInfo"]["nextCursor"]
    flipped = cursor[:-3] + ("A" if cursor[-3] != "A" else "B") + cursor[-2:]
    for url in (f"/v1/pools?scope=all&limit=2&cursor={flipped}", f"/v1/pools?scope=all&sort=fees7d&cursor={cursor}",
                f"/v1/tokens?cursor={cursor}", "/v1/pools?cursor=not-a-cursor"):
        r = api.get(url)
        assert r.status_code == 400 and r.json()["error"]["code"] == "invalid_cursor", (url, r.text)
    # the page size may change between pages
    assert api.get(f"/v1/pools?scope=all&limit=5&cursor={cursor}").status_code == 200


def test_a_cursor_older_than_a_day_is_400_cursor_expired(api, cursor_secret):
    from ve_analytics.api.cursors import CursorCodec

    cursor = api.get("/v1/pools?scope=all&limit=2").json()["pageInfo"]["nextCursor"]
    body = cursor.split(".")[1]
    payload = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    issued = payload.pop("iat")
    for age, code in ((86400, "cursor_expired"), (86400 - 60, None)):
        signed = CursorCodec((cursor_secret,), clock=lambda: issued - age).encode(payload)
        r = api.get(f"/v1/pools?scope=all&limit=2&cursor={signed}")
        assert (r.status_code, r.json().get("error", {}).get("code")) == ((400, code) if code else (200, None)), r.text


def test_a_snapshot_published_mid_traversal_does_not_mix_into_it(api, stack, tmp_path):
    """Publishes a new snapshot of chain 56 between two pages; an API serving it continues."""
    from ve_analytics.orchestration.backfill import run_snapshot

    path = "/v1/pools?scope=all&chainIds=56,1"
    whole = api.get(f"{path}&limit=500").json()
    first = api.get(f"{path}&limit=3").json()
    previous = stack.latest_success(56)
    target = previous + QUARTER_HOUR
    if stack.devnet_now() < target + 60:
        stack.advance_clock(target + 60 - stack.devnet_now())
    run_snapshot(stack.settings, target, chain_id=56)
    with client_after(stack, tmp_path) as after:
        fresh = after.get(f"{path}&limit=500").json()
        assert next(c for c in fresh["meta"]["chains"] if c["chainId"] == 56)["snapshotAt"] == iso(target)
        rows, metas = first["data"]["rows"], [first["meta"]["chains"]]
        cursor = first["pageInfo"]["nextCursor"]
        while cursor:
            body = after.get(f"{path}&limit=3&cursor={cursor}").json()
            rows += body["data"]["rows"]
            metas.append(body["meta"]["chains"])
            cursor = body["pageInfo"]["nextCursor"]
    assert rows == whole["data"]["rows"] and all(m == whole["meta"]["chains"] for m in metas)
    assert fresh["meta"]["chains"] != whole["meta"]["chains"]


def test_a_new_curation_publication_expires_running_traversals(api, stack, tmp_path):
    """Runs last in this module: it publishes a new curation version."""
    import time

    from ve_analytics.orchestration.curation import materialize_curation

    response = api.get("/v1/pools?scope=all&limit=2")
    first, etag = response.json(), response.headers["etag"]
    version = first["meta"]["curation"]["version"]

    def bump(raw: dict) -> None:
        raw["version"] = "1.0.99"
        raw["tags"][0]["description"] += " revised"

    materialize_curation(stack.settings, session_source(tmp_path, bump))
    deadline = time.monotonic() + 10
    while api.get("/v1/curation").json()["data"]["version"] == version and time.monotonic() < deadline:
        time.sleep(0.25)
    r = api.get(f"/v1/pools?scope=all&limit=2&cursor={first['pageInfo']['nextCursor']}")
    assert r.status_code == 400 and r.json()["error"]["code"] == "cursor_expired", r.text
    again = api.get("/v1/pools?scope=all&limit=2")
    assert again.headers["x-curation-version"] == "1.0.99" and again.headers["etag"] != etag
