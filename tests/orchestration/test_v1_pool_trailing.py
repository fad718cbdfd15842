"""/v1/pools/{chainId}/{poolAddress}/trailing over the session's backfilled chains: the 24h and
7d windows are the pool's /v1/pools row value for value; every window with its evidence available
equals the devnet's swaps of the pool in [from, toExclusive) (truth/flows), and one without it has
null amounts; errors answer as the contract says (every response is checked against
/openapi.json)."""
from __future__ import annotations

import calendar
import time

import httpx
import pytest

from orchestration_session import CHAINS
from session_api import v1_server
from support.contract_check import CheckedClient

REL = 1e-9


@pytest.fixture(scope="module")
def api(stack, tmp_path_factory):
    with v1_server(stack, tmp_path_factory.mktemp("v1-pool-trailing")) as server, httpx.Client(timeout=60) as http:
        yield CheckedClient(server.url, http)


def rows(api) -> list[dict]:
    body = api.get("/v1/pools?scope=all&curated=all&limit=500").json()
    assert body["pageInfo"]["hasNextPage"] is False
    return body["data"]["rows"]


def unix(text: str) -> int:
    return calendar.timegm(time.strptime(text, "%Y-%m-%dT%H:%M:%SZ"))


def test_the_24h_and_7d_windows_are_the_discovery_rows(api):
    every = rows(api)
    assert {r["chainId"] for r in every} == set(CHAINS)
    for row in every:
        r = api.get(f"/v1/pools/{row['chainId']}/{row['address']}/trailing?scope=all&windows=24h,7d")
        assert r.status_code == 200, r.text
        w24, w7 = r.json()["data"]["windows"]
        assert (w24["volumeUsd"], w24["feesUsd"], w7["volumeUsd"], w7["feesUsd"]) == (
            row["volume24hUsd"], row["fees24hUsd"], row["volume7dUsd"], row["fees7dUsd"]), row["address"]
        assert [{k: v for k, v in w.items() if k not in ("volumeUsd", "feesUsd")} for w in (w24, w7)] == row["flowWindows"]


def test_every_available_window_is_the_pools_swaps(api, stack):
    checked = 0
    for row in rows(api):
        cid = row["chainId"]
        body = api.get(f"/v1/pools/{cid}/{row['address']}/trailing?scope=all&windows=1h,6h,3d,30d").json()
        for w in body["data"]["windows"]:
            if w["evidence"] != "available":
                assert (w["volumeUsd"], w["feesUsd"]) == (None, None) and body["meta"]["complete"] is False
                continue
            truth = stack.truth("flows", cid, **{"from": unix(w["from"]), "to": unix(w["toExclusive"]),
                                                 "pool": row["address"]})
            for served, true in ((w["volumeUsd"], truth["volumeUsd"]), (w["feesUsd"], truth["feesUsd"])):
                assert abs(float(served) - true) <= REL * max(true, 1.0), (cid, row["address"], w["label"])
            checked += 1
    assert checked


def test_errors_have_their_own_codes(api):
    row = rows(api)[0]
    base = f"/v1/pools/{row['chainId']}/{row['address']}/trailing"
    cases = {
        f"{base}?windows=0h": (400, "invalid_windows"),
        f"{base}?windows=1h,2h,3h,4h,5h,6h,7h": (400, "invalid_windows"),
        f"/v1/pools/{row['chainId']}/0x{'ab' * 20}/trailing?scope=all": (404, "pool_not_found"),
        f"/v1/pools/999/{row['address']}/trailing": (404, "chain_not_public"),
        f"/v1/pools/{row['chainId']}/0x12/trailing": (400, "invalid_pool_address"),
    }
    for path, (status, code) in cases.items():
        r = api.get(path)
        assert (r.status_code, r.json()["error"]["code"]) == (status, code), (path, r.text)
    first = api.get(f"{base}?scope=all")
    assert first.headers["etag"] and api.get(f"{base}?scope=all",
                                              headers={"If-None-Match": first.headers["etag"]}).status_code == 304
