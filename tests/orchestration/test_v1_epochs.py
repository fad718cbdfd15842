"""/v1/epochs and /v1/epochs/{chainId}/{epochStart} over the session's backfilled chains, against
the devnet's governance truth (devnet/truth_governance.py) at the block each epoch was read at:
every epoch of every chain from its snapshot's back to its deployment's, the sums over its gauges
(counts, votes, emissions, emitted, bribes, fees) and each gauge's figures; a traversal equals the
unpaged answer; errors as the contract says."""
from __future__ import annotations

import calendar
import math
import time

import httpx
import pytest

from devnet import truth_governance
from session_api import v1_server
from support.contract_check import CheckedClient

from ve_analytics.core.epochs import WEEK, epoch_start

REL = 1e-9


@pytest.fixture(scope="module")
def api(stack, tmp_path_factory):
    with v1_server(stack, tmp_path_factory.mktemp("v1-epochs")) as server, httpx.Client(timeout=60) as http:
        yield CheckedClient(server.url, http)


@pytest.fixture(scope="module")
def listed(api):
    body = api.get("/v1/epochs?limit=500").json()
    assert not body["pageInfo"]["hasNextPage"]
    return body


def unix(text: str) -> int:
    return calendar.timegm(time.strptime(text, "%Y-%m-%dT%H:%M:%SZ"))


def iso(t: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


def truth_of(stack, e: dict) -> dict:
    sim = stack.devnet.sim(e["chainId"])
    return truth_governance.gauge_epochs_through(sim, unix(e["epochStart"]), unix(e["readAt"]))["gauges"]


def test_every_epoch_of_every_chain_sums_its_gauges(api, listed, stack):
    rows = listed["data"]["rows"]
    assert [(-unix(e["epochStart"]), e["chainId"]) for e in rows] == sorted((-unix(e["epochStart"]), e["chainId"])
                                                                            for e in rows)
    deployed = {c["chainId"]: c["deployedAt"] for c in api.get("/v1/chains").json()["data"]}
    read = 0
    for chain in listed["meta"]["chains"]:
        cid = chain["chainId"]
        starts = [unix(e["epochStart"]) for e in rows if e["chainId"] == cid]
        assert starts == list(range(epoch_start(unix(chain["snapshotAt"])), epoch_start(unix(deployed[cid])) - 1,
                                    -WEEK))
        for e in (e for e in rows if e["chainId"] == cid and not e["gap"]):
            gauges = truth_of(stack, e).values()
            assert e["gauges"] == {"total": len(gauges), "alive": sum(g["alive"] for g in gauges),
                                   "voted": sum(int(g["epochVoteRows"]) > 0 for g in gauges),
                                   "emitting": sum(int(g["emissionsRaw"]) > 0 for g in gauges)}
            assert e["votesRaw"] == str(sum(int(g["epochVoteRows"]) for g in gauges))
            assert e["emissionsRaw"] == str(sum(int(g["emissionsRaw"]) for g in gauges))
            assert e["emittedRaw"] == str(sum(int(g["emittedRaw"]) for g in gauges))
            assert e["bribeCount"] == sum(g["bribeCount"] for g in gauges)
            usd = [g["bribesUsd"] for g in gauges]
            if None in usd:
                assert e["bribesUsd"] is None and e["unpricedBribeCount"] > 0
            else:
                assert abs(float(e["bribesUsd"]) - math.fsum(usd)) <= REL * max(math.fsum(usd), 1.0)
            fees = math.fsum(g["feesUsd"] for g in gauges)
            assert abs(float(e["feesUsd"]) - fees) <= REL * max(fees, 1.0)
            assert e["partial"] is (unix(e["epochEnd"]) > unix(e["readAt"]) + 1 or unix(e["epochEnd"]) > unix(
                chain["snapshotAt"]))
            read += 1
    assert read


def test_an_epochs_detail_is_its_row_with_every_gauge(api, listed, stack):
    for e in [next(e for e in listed["data"]["rows"] if e["chainId"] == c["chainId"] and not e["gap"])
              for c in listed["meta"]["chains"]]:
        detail = api.get(f"/v1/epochs/{e['chainId']}/{e['epochStart']}").json()["data"]
        assert {k: v for k, v in detail.items() if k != "gaugeEpochs"} == e
        truth = truth_of(stack, e)
        assert {g["address"]: g["votesRaw"] for g in detail["gaugeEpochs"]} == {
            a: g["epochVoteRows"] for a, g in truth.items()}
        for g in detail["gaugeEpochs"]:
            t = truth[g["address"]]
            assert (g["kind"], g["target"], g["alive"], g["emissionsRaw"], g["ratePerSecondRaw"], g["emittedRaw"],
                    g["epochStartWeightRaw"]) == (t["kind"], t["target"], t["alive"], t["emissionsRaw"],
                                                  t["rewardRate"], t["emittedRaw"], t["votesAtStart"])
            assert (g["pool"], g["symbols"] is None) == (t["pool"], t["pool"] is None)
        votes = [int(g["votesRaw"]) for g in detail["gaugeEpochs"]]
        assert votes == sorted(votes, reverse=True)


def test_a_traversal_is_the_unpaged_answer(api, listed):
    seen, cursor = [], None
    while True:
        body = api.get("/v1/epochs?limit=4" + (f"&cursor={cursor}" if cursor else "")).json()
        seen += body["data"]["rows"]
        cursor = body["pageInfo"]["nextCursor"]
        if not cursor:
            break
    assert seen == listed["data"]["rows"]


def test_errors_have_their_own_codes(api, listed):
    newest = listed["data"]["rows"][0]
    cid, start = newest["chainId"], unix(newest["epochStart"])
    deployed = next(c for c in api.get("/v1/chains").json()["data"] if c["chainId"] == cid)["deployedAt"]
    cases = {
        f"/v1/epochs/{cid}/{iso(start + 3600)}": (400, "epoch_not_aligned"),
        f"/v1/epochs/{cid}/{iso(start + WEEK)}": (404, "epoch_in_future"),
        f"/v1/epochs/{cid}/{iso(epoch_start(unix(deployed)) - WEEK)}": (404, "epoch_before_deployment"),
        f"/v1/epochs/{cid}/yesterday": (400, "invalid_epoch_start"),
        f"/v1/epochs/999/{iso(start)}": (404, "chain_not_public"),
        "/v1/epochs?limit=0": (400, "invalid_limit"),
    }
    for path, (status, code) in cases.items():
        r = api.get(path)
        assert (r.status_code, r.json()["error"]["code"]) == (status, code), (path, r.text)
    r = api.get("/v1/epochs?limit=3")
    assert api.get("/v1/epochs?limit=3", headers={"If-None-Match": r.headers["etag"]}).status_code == 304
