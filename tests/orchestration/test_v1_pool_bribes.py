"""/v1/pools/{chainId}/{poolAddress}/bribes over the session's backfilled chains, against the
devnet's bribe deposits (truth/bribes): per pool and epoch, the notified amounts per token and
their USD values at deposit time; every epoch from the snapshot's back to the pool's first, an
unfunded one with no tokens; pages of one epoch concatenate to the unpaged answer; errors answer
as the contract says (every response is checked against /openapi.json)."""
from __future__ import annotations

import calendar
import time

import httpx
import pytest

from session_api import v1_server
from support.contract_check import CheckedClient

from ve_analytics.core.epochs import WEEK, epoch_start

REL = 1e-9


@pytest.fixture(scope="module")
def api(stack, tmp_path_factory):
    with v1_server(stack, tmp_path_factory.mktemp("v1-pool-bribes")) as server, httpx.Client(timeout=60) as http:
        yield CheckedClient(server.url, http)


def unix(text: str) -> int:
    return calendar.timegm(time.strptime(text, "%Y-%m-%dT%H:%M:%SZ"))


def test_every_epoch_is_the_devnets_deposits(api, stack):
    """Each indexed epoch, partial ones included, against the model's deposits of the pool in the
    epoch before its indexedUntil: per token the exact raw sum, the deposits and the USD."""
    body = api.get("/v1/pools?scope=all&curated=all&limit=500").json()
    funded = 0
    for row in body["data"]["rows"]:
        cid = row["chainId"]
        r = api.get(f"/v1/pools/{cid}/{row['address']}/bribes?scope=all&limit=260")
        assert r.status_code == 200, r.text
        data = r.json()["data"]
        snapshot = unix(data["snapshotAt"])
        starts = [unix(e["epochStart"]) for e in data["epochs"]]
        assert starts == list(range(epoch_start(snapshot), unix(data["firstEpoch"]) - 1, -WEEK))
        sim = stack.devnet.sim(cid)
        for epoch in data["epochs"]:
            start = unix(epoch["epochStart"])
            if epoch["gap"]:
                assert epoch["tokens"] is None and epoch["indexedUntil"] is None
                continue
            until = unix(epoch["indexedUntil"])
            assert epoch["partial"] is (until < start + WEEK) and until <= snapshot
            expected: dict[str, list] = {}
            for b in sim.gov.bribes:
                if b["pool"] == row["address"] and b["epoch"] == start and b["timestamp"] < until:
                    expected.setdefault(b["token"], []).append(b)
            got = {t["token"]: t for t in epoch["tokens"]}
            assert set(got) == set(expected), (cid, row["address"], start)
            for token, deposits in expected.items():
                assert got[token]["amountRaw"] == str(sum(b["amount"] for b in deposits))
                assert got[token]["deposits"] == len(deposits)
                if any(b["amountUSD"] is None for b in deposits):  # the devnet's token without a price
                    assert got[token]["amountUsd"] is None, (cid, token, got[token])
                    continue
                usd = sum(b["amountUSD"] for b in deposits)
                assert abs(float(got[token]["amountUsd"]) - usd) <= REL * usd
            funded += bool(expected)
    assert funded


def test_pages_of_one_epoch_are_the_unpaged_answer(api):
    """The pool of chain 56 with the most epochs, one epoch a page."""
    rows = api.get("/v1/pools?scope=all&limit=500&chainIds=56").json()["data"]["rows"]
    answers = {r["address"]: api.get(f"/v1/pools/56/{r['address']}/bribes?scope=all&limit=260").json()["data"]["epochs"]
               for r in rows}
    address = max(answers, key=lambda a: len(answers[a]))
    base, whole = f"/v1/pools/56/{address}/bribes?scope=all", answers[address]
    seen, cursor, pages = [], None, 0
    while True:
        body = api.get(f"{base}&limit=1" + (f"&cursor={cursor}" if cursor else "")).json()
        seen += body["data"]["epochs"]
        pages += 1
        cursor = body["pageInfo"]["nextCursor"]
        if not cursor:
            break
    assert seen == whole and pages == len(whole)


def test_errors_have_their_own_codes(api):
    row = api.get("/v1/pools?limit=1&chainIds=56").json()["data"]["rows"][0]
    cases = {
        f"/v1/pools/56/{row['address']}/bribes?limit=0": (400, "invalid_limit"),
        f"/v1/pools/56/{row['address']}/bribes?limit=261": (400, "invalid_limit"),
        f"/v1/pools/56/{row['address']}/bribes?cursor=abc": (400, "invalid_cursor"),
        f"/v1/pools/56/0x{'ab' * 20}/bribes?scope=all": (404, "pool_not_found"),
        f"/v1/pools/999/{row['address']}/bribes": (404, "chain_not_public"),
    }
    for path, (status, code) in cases.items():
        r = api.get(path)
        assert (r.status_code, r.json()["error"]["code"]) == (status, code), (path, r.text)
