"""/v1/gauges and /v1/gauges/{chainId}/{gaugeAddress} over the session's backfilled chains,
against the devnet's governance truth computed from its simulation (devnet/truth_governance.py) at
each chain's snapshot block: every gauge with its kind, target, pool, state and timeline (the
system gauge, killed gauges, the revived one), its Voter weight and share, its emissions and
reward rate (nothing, and why, where it emits nothing); the detail's bribes per token and
accrued fees; traversals equal the unpaged answer; errors as the contract says."""
from __future__ import annotations

import calendar
import time
from fractions import Fraction

import httpx
import pytest

from devnet import truth_governance
from session_api import v1_server
from support.contract_check import CheckedClient

from ve_analytics.core.epochs import epoch_start

REL = 1e-9


@pytest.fixture(scope="module")
def api(stack, tmp_path_factory):
    with v1_server(stack, tmp_path_factory.mktemp("v1-gauges")) as server, httpx.Client(timeout=60) as http:
        yield CheckedClient(server.url, http)


@pytest.fixture(scope="module")
def listed(api):
    body = api.get("/v1/gauges?limit=500").json()
    assert not body["pageInfo"]["hasNextPage"]
    return body


def unix(text: str) -> int:
    return calendar.timegm(time.strptime(text, "%Y-%m-%dT%H:%M:%SZ"))


def at_snapshot(stack, chain: dict) -> tuple[object, int, int]:
    """The chain's simulation, its snapshot's time and block."""
    sim = stack.devnet.sim(chain["chainId"])
    snapshot = unix(chain["snapshotAt"])
    return sim, snapshot, sim.block_at(snapshot)


def test_every_gauge_is_the_devnets(listed, stack):
    rows = listed["data"]["rows"]
    for chain in listed["meta"]["chains"]:
        sim, snapshot, block = at_snapshot(stack, chain)
        timeline = truth_governance.gauge_timeline(sim, block)["gauges"]
        epochs = truth_governance.gauge_epochs(sim, epoch_start(snapshot), block)["gauges"]
        got = {r["address"]: r for r in rows if r["chainId"] == chain["chainId"]}
        assert set(got) == set(timeline), chain["chainId"]
        total = sum(int(e["votes"]) for e in epochs.values())
        for address, t in timeline.items():
            r, e = got[address], epochs[address]
            assert (r["kind"], r["target"], r["alive"]) == (t["kind"], t["target"], t["alive"])
            assert (r["pool"] or {}).get("address") == t["pool"] and (r["pool"] is None) == (t["kind"] == "system")
            assert [(x["event"], unix(x["at"]), x["blockNumber"], x["transactionHash"]) for x in r["timeline"]] == [
                (x["kind"], x["timestamp"], x["blockNumber"], x["transactionHash"]) for x in t["events"]]
            assert r["votes"]["weightRaw"] == e["votes"] and r["votes"]["chainWeightRaw"] == str(total)
            share = Fraction(int(e["votes"]), total)  # truncated toward zero at 36 places
            assert Fraction(r["votes"]["share"]) <= share < Fraction(r["votes"]["share"]) + Fraction(1, 10**36)
            rate, allotted = (e["rewardRate"], e["emissionsRaw"]) if t["alive"] else ("0", "0")
            assert (r["emissions"]["ratePerSecondRaw"], r["emissions"]["epochRaw"]) == (rate, allotted), address
            if not t["alive"]:
                assert r["emissions"]["reason"] == "killed" and unix(r["killedAt"]) == t["events"][-1]["timestamp"]
            elif int(allotted) == 0:
                assert r["emissions"]["reason"] in ("no_votes", "awaiting_next_epoch")
            else:
                assert r["emissions"]["reason"] is None and r["killedAt"] is None
    assert {r["kind"] for r in rows} == {"pool", "system"}
    assert any(not r["alive"] for r in rows) and any(x["event"] == "revived" for r in rows for x in r["timeline"])


def test_filters_and_order(api, listed):
    rows = listed["data"]["rows"]
    weights = [int(r["votes"]["weightRaw"]) for r in rows]
    assert weights == sorted(weights, reverse=True)
    system = api.get("/v1/gauges?kind=system&limit=500").json()["data"]["rows"]
    assert system == [r for r in rows if r["kind"] == "system"] and system
    killed = api.get("/v1/gauges?alive=false&limit=500").json()["data"]["rows"]
    assert killed == [r for r in rows if not r["alive"]] and killed
    sample = next(r for r in rows if r["pool"] and r["pool"]["tokens"])
    by_pool = api.get(f"/v1/gauges?pool={sample['chainId']}:{sample['pool']['address']}").json()["data"]["rows"]
    assert [r["address"] for r in by_pool] == [sample["address"]]
    token = sample["pool"]["tokens"][0]["address"]
    holding = api.get(f"/v1/gauges?token={token}&limit=500").json()["data"]["rows"]
    assert holding == [r for r in rows if r["pool"] and r["pool"]["tokens"]
                       and token in [t["address"] for t in r["pool"]["tokens"]]]
    ascending = api.get("/v1/gauges?sort=emissions&direction=asc&limit=500").json()["data"]["rows"]
    assert [int(r["emissions"]["epochRaw"]) for r in ascending] == sorted(int(r["emissions"]["epochRaw"]) for r in rows)


def test_a_traversal_is_the_unpaged_answer(api, listed):
    seen, cursor = [], None
    while True:
        body = api.get("/v1/gauges?limit=3" + (f"&cursor={cursor}" if cursor else "")).json()
        seen += body["data"]["rows"]
        cursor = body["pageInfo"]["nextCursor"]
        if not cursor:
            break
    assert seen == listed["data"]["rows"]


def test_the_detail_adds_this_epochs_bribes_and_fees(api, listed, stack):
    chains = {c["chainId"]: c for c in listed["meta"]["chains"]}
    checked = 0
    for r in listed["data"]["rows"]:
        detail = api.get(f"/v1/gauges/{r['chainId']}/{r['address'].upper().replace('0X', '0x')}").json()["data"]
        assert {k: v for k, v in detail.items() if k != "thisEpoch"} == r
        sim, snapshot, block = at_snapshot(stack, chains[r["chainId"]])
        epoch = detail["thisEpoch"]
        until = unix(epoch["bribesIndexedUntil"])
        expected: dict[str, list] = {}
        for b in sim.gov.bribes:
            if b["gauge"] == r["address"] and b["epoch"] == epoch_start(snapshot) and b["timestamp"] < until:
                expected.setdefault(b["token"], []).append(b)
        got = {b["token"]: b for b in epoch["bribes"]}
        assert set(got) == set(expected)
        for token, deposits in expected.items():
            assert got[token]["amountRaw"] == str(sum(d["amount"] for d in deposits))
            usd = [d["amountUSD"] for d in deposits]
            if None in usd:
                assert got[token]["amountUsd"] is None and epoch["bribesUsd"] is None
            else:
                assert abs(float(got[token]["amountUsd"]) - sum(usd)) <= REL * sum(usd)
        if epoch["fees"] is not None and r["kind"] == "pool":
            read = unix(epoch["feesReadAt"])
            truth = truth_governance.gauge_epochs_through(sim, epoch_start(snapshot), read)["gauges"][r["address"]]
            assert {f["token"]: f["amountRaw"] for f in epoch["fees"]} == truth["fees"]
            assert abs(float(epoch["feesUsd"]) - truth["feesUsd"]) <= REL * max(truth["feesUsd"], 1.0)
            checked += 1
    assert checked


def test_errors_have_their_own_codes(api, listed):
    row = listed["data"]["rows"][0]
    cases = {
        f"/v1/gauges/{row['chainId']}/0x{'ab' * 20}": (404, "gauge_not_found"),
        f"/v1/gauges/999/{row['address']}": (404, "chain_not_public"),
        f"/v1/gauges/{row['chainId']}/0x12": (400, "invalid_gauge_address"),
        "/v1/gauges?kind=user": (400, "invalid_kind"),
        "/v1/gauges?sort=tvl": (400, "invalid_sort"),
        "/v1/gauges?limit=0": (400, "invalid_limit"),
        "/v1/gauges?limit=2&cursor=abc": (400, "invalid_cursor"),
    }
    for path, (status, code) in cases.items():
        r = api.get(path)
        assert (r.status_code, r.json()["error"]["code"]) == (status, code), (path, r.text)
    r = api.get("/v1/gauges?limit=5")
    assert api.get("/v1/gauges?limit=5", headers={"If-None-Match": r.headers["etag"]}).status_code == 304
    head = api.http.head(api.url + "/v1/gauges?limit=5")
    assert head.status_code == 200 and not head.content


def test_history_and_rewards_per_epoch_are_the_devnets(api, listed, stack):
    """Every gauge of every chain, every epoch read: its figures against the truth at the block the
    epoch was read at; its rewards token by token; a killed gauge's epochs after the kill."""
    killed_epochs = 0
    for r in listed["data"]["rows"]:
        base = f"/v1/gauges/{r['chainId']}/{r['address']}"
        history = api.get(f"{base}/history?limit=260").json()["data"]
        rewards = api.get(f"{base}/rewards?limit=260").json()["data"]
        assert [e["epochStart"] for e in history["epochs"]] == [e["epochStart"] for e in rewards["epochs"]]
        assert unix(history["firstEpoch"]) == epoch_start(unix(r["timeline"][0]["at"]))  # its creation
        sim = stack.devnet.sim(r["chainId"])
        for h, w in zip(history["epochs"], rewards["epochs"]):
            if h["gap"]:
                assert h["votesRaw"] is None and w["fees"] is None and w["bribes"] is None
                continue
            start = unix(h["epochStart"])
            t = truth_governance.gauge_epochs_through(sim, start, unix(h["readAt"]))["gauges"][r["address"]]
            assert (h["votesRaw"], h["epochStartWeightRaw"], h["emissionsRaw"], h["ratePerSecondRaw"],
                    h["emittedRaw"]) == (t["epochVoteRows"], t["votesAtStart"], t["emissionsRaw"], t["rewardRate"],
                                         t["emittedRaw"]), (base, h["epochStart"])
            assert h["alive"] == t["alive"] and h["bribeCount"] == t["bribeCount"]
            assert (h["bribesUsd"] is None) == (t["bribesUsd"] is None)
            assert abs(float(h["feesUsd"]) - t["feesUsd"]) <= REL * max(t["feesUsd"], 1.0)
            assert {f["token"]: f["amountRaw"] for f in w["fees"]} == t["fees"]
            if not h["partial"]:  # a closed epoch: every deposit was read
                assert {b["token"]: (b["amountRaw"], b["deposits"]) for b in w["bribes"]} == {
                    token: (b["amountRaw"], b["count"]) for token, b in t["bribes"].items()}
            if not h["alive"]:
                killed_epochs += 1
                assert h["ratePerSecondRaw"] == "0" or int(h["emittedRaw"]) < int(h["ratePerSecondRaw"]) * 7 * 86400
    assert killed_epochs


def test_a_gauges_pages_and_bribes(api, listed):
    r = max(listed["data"]["rows"], key=lambda g: len(g["timeline"]))  # the revived gauge
    base = f"/v1/gauges/{r['chainId']}/{r['address']}"
    whole = api.get(f"{base}/history?limit=260").json()["data"]["epochs"]
    seen, cursor = [], None
    while True:
        body = api.get(f"{base}/history?limit=1" + (f"&cursor={cursor}" if cursor else "")).json()
        seen += body["data"]["epochs"]
        cursor = body["pageInfo"]["nextCursor"]
        if not cursor:
            break
    assert seen == whole and whole  # one page per epoch (a session just into its first epoch has one)
    records = api.get(f"{base}/bribes?limit=500").json()["data"]["rows"]
    assert records == api.get(f"/v1/bribes?gauge={r['chainId']}:{r['address']}&limit=500").json()["data"]["rows"]
    assert api.get(f"/v1/gauges/{r['chainId']}/0x{'ab' * 20}/history").json()["error"]["code"] == "gauge_not_found"
    assert api.get(f"/v1/gauges/{r['chainId']}/0x{'ab' * 20}/bribes").json()["error"]["code"] == "gauge_not_found"
