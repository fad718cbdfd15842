"""/v1/bribes over the session's backfilled chains, against the devnet's bribe deposits: every
record of every chain (raw amount, decimal amount, USD at deposit time, gauge, pool, briber,
block, transaction) before each chain's indexedUntil; the filters select what they name; a
limit=7 traversal equals the unpaged answer; errors answer as the contract says (every response is
checked against /openapi.json)."""
from __future__ import annotations

import calendar
import time
from fractions import Fraction

import httpx
import pytest

from session_api import v1_server
from support.contract_check import CheckedClient

from ve_analytics.core.epochs import WEEK

REL = 1e-9


@pytest.fixture(scope="module")
def api(stack, tmp_path_factory):
    with v1_server(stack, tmp_path_factory.mktemp("v1-bribes")) as server, httpx.Client(timeout=60) as http:
        yield CheckedClient(server.url, http)


def unix(text: str) -> int:
    return calendar.timegm(time.strptime(text, "%Y-%m-%dT%H:%M:%SZ"))


def everything(api, query: str = "") -> tuple[list[dict], dict]:
    body = api.get(f"/v1/bribes?limit=500{query}").json()
    assert not body["pageInfo"]["hasNextPage"], "more records than one page: page through them"
    return body["data"]["rows"], body


def truth(stack, coverage: list[dict]) -> dict[tuple[int, str], dict]:
    """The model's deposits of every covered chain before its indexedUntil, by (chain, id)."""
    out = {}
    for c in coverage:
        until = unix(c["indexedUntil"])
        for b in stack.devnet.sim(c["chainId"]).gov.bribes:
            if b["timestamp"] < until:
                out[(c["chainId"], b["id"])] = b
    return out


def test_every_record_is_a_devnet_deposit(api, stack):
    rows, body = everything(api)
    coverage = body["data"]["coverage"]
    assert sorted(c["chainId"] for c in coverage) == body["meta"]["chainIds"]
    expected = truth(stack, coverage)
    got = {(r["chainId"], r["id"]): r for r in rows}
    assert len(got) == len(rows) and set(got) == set(expected) and len(rows) > 20
    assert {r["gaugeKind"] for r in rows} == {"pool", "system"} and any(r["amountUsd"] is None for r in rows)
    for key, b in expected.items():
        r = got[key]
        assert unix(r["epochStart"]) == b["epoch"] and unix(r["notifiedAt"]) == b["timestamp"]
        assert (r["gauge"], r["pool"], r["token"]["address"], r["briber"]) == (b["gauge"], b["pool"], b["token"], b["from"])
        assert r["gaugeKind"] == ("pool" if b["pool"] else "system")
        assert (r["blockNumber"], r["transactionHash"], r["foundation"]) == (b["blockNumber"], b["transactionHash"],
                                                                             b["isFoundation"])
        assert r["amountRaw"] == str(b["amount"])
        assert Fraction(r["amount"]) == Fraction(b["amount"], 10 ** r["token"]["decimals"])
        if b["amountUSD"] is None:
            assert r["amountUsd"] is None
        else:
            assert abs(float(r["amountUsd"]) - b["amountUSD"]) <= REL * b["amountUSD"]
    order = [(-unix(r["notifiedAt"]), r["chainId"], r["id"]) for r in rows]
    assert order == sorted(order)


def test_filters_select_what_they_name(api, stack):
    rows, _ = everything(api)
    sample = next(r for r in rows if not r["foundation"] and r["pool"])
    cid = sample["chainId"]
    cases = {
        f"&epoch={sample['epochStart']}": lambda r: r["epochStart"] == sample["epochStart"],
        f"&pool={cid}:{sample['pool']}": lambda r: (r["chainId"], r["pool"]) == (cid, sample["pool"]),
        f"&gauge={sample['gauge'].upper().replace('0X', '0x')}": lambda r: r["gauge"] == sample["gauge"],
        f"&token={sample['token']['address']}": lambda r: r["token"]["address"] == sample["token"]["address"],
        f"&briber={sample['briber']}": lambda r: r["briber"] == sample["briber"],
        f"&chainIds={cid}": lambda r: r["chainId"] == cid,
    }
    for query, wanted in cases.items():
        got, _ = everything(api, query)
        assert got == [r for r in rows if wanted(r)] and got, query


def test_a_traversal_is_the_unpaged_answer(api):
    whole, _ = everything(api)
    seen, cursor = [], None
    while True:
        body = api.get("/v1/bribes?limit=7" + (f"&cursor={cursor}" if cursor else "")).json()
        seen += body["data"]["rows"]
        cursor = body["pageInfo"]["nextCursor"]
        assert body["pageInfo"]["hasNextPage"] is (cursor is not None)
        if not cursor:
            break
    assert seen == whole


def test_errors_have_their_own_codes(api):
    rows, _ = everything(api)
    aligned = unix(rows[0]["epochStart"])
    cursor = api.get("/v1/bribes?limit=1").json()["pageInfo"]["nextCursor"]
    cases = {
        "/v1/bribes?epoch=" + time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(aligned + 3600)):
            (400, "epoch_not_aligned"),
        "/v1/bribes?epoch=yesterday": (400, "invalid_epoch"),
        "/v1/bribes?pool=0x12": (400, "invalid_pool"),
        "/v1/bribes?briber=56:0x" + "ab" * 20: (400, "invalid_briber"),
        "/v1/bribes?limit=501": (400, "invalid_limit"),
        "/v1/bribes?chainIds=999": (404, "chain_not_public"),
        f"/v1/bribes?limit=1&token=0x{'ab' * 20}&cursor={cursor}": (400, "invalid_cursor"),
    }
    for path, (status, code) in cases.items():
        r = api.get(path)
        assert (r.status_code, r.json()["error"]["code"]) == (status, code), (path, r.text)
    epoch = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(aligned + 3600))
    details = api.get(f"/v1/bribes?epoch={epoch}").json()["error"]["details"]
    assert unix(details["epochStart"]) == aligned and aligned % WEEK == 0


def test_etag_and_head(api):
    r = api.get("/v1/bribes?limit=5")
    again = api.get("/v1/bribes?limit=5", headers={"If-None-Match": r.headers["etag"]})
    assert again.status_code == 304
    head = api.http.head(api.url + "/v1/bribes?limit=5")
    assert head.status_code == 200 and head.headers["etag"] == r.headers["etag"] and not head.content
    assert r.headers["cache-control"].startswith("public") and "s-maxage=60" in r.headers["cache-control"]
