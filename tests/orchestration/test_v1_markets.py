"""/v1/markets/bribes over the session's backfilled chains, against the devnet's governance truth
at the block each epoch was read at: per gauge the votes, bribes, fees and dollarPerVote of one
epoch on every covered chain, final for a closed epoch and projected (with its extrapolation) for
the running one; the order; a traversal equals the unpaged answer; errors as the contract says."""
from __future__ import annotations

import calendar
import time

import httpx
import pytest

from devnet import truth_governance
from orchestration_session import LAGGING
from session_api import v1_server
from support.contract_check import CheckedClient

from ve_analytics.core.epochs import WEEK, epoch_start

REL = 1e-9


@pytest.fixture(scope="module")
def api(stack, tmp_path_factory):
    with v1_server(stack, tmp_path_factory.mktemp("v1-markets")) as server, httpx.Client(timeout=60) as http:
        yield CheckedClient(server.url, http)


def unix(text: str) -> int:
    return calendar.timegm(time.strptime(text, "%Y-%m-%dT%H:%M:%SZ"))


def near(a: str | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return abs(float(a) - b) <= REL * max(abs(b), 1e-9)


def check(rows: list[dict], stack) -> None:
    for r in rows:
        sim = stack.devnet.sim(r["chainId"])
        read = unix(r["valuedThrough"])
        t = truth_governance.gauge_epochs_through(sim, unix(r["epochStart"]), read)["gauges"][r["gauge"]]
        assert (r["votesRaw"], r["bribeCount"], r["kind"]) == (t["epochVoteRows"], t["bribeCount"], t["kind"])
        assert near(r["bribesUsd"], t["bribesUsd"]) and near(r["feesUsd"], t["feesUsd"])
        rewards = None if t["bribesUsd"] is None else t["bribesUsd"] + t["feesUsd"]
        votes = int(t["epochVoteRows"]) / 1e18
        assert near(r["rewardsUsd"], rewards)
        assert near(r["dollarPerVote"], rewards / votes if rewards is not None and votes > 0 else None)
        if r["status"] == "projected":  # read before the epoch ended (the running one, or a lagging subgraph's)
            assert read + 1 < unix(r["epochStart"]) + WEEK
            covered = min(read + 1, unix(r["epochStart"]) + WEEK) - unix(r["epochStart"])
            assert r["projection"]["coveredSeconds"] == covered
            assert near(r["projection"]["feesUsd"], t["feesUsd"] * WEEK / covered)
        else:
            assert r["projection"] is None and read + 1 >= unix(r["epochStart"]) + WEEK
    keys = [(r["dollarPerVote"] is None, -float(r["dollarPerVote"] or 0), r["chainId"], r["gauge"]) for r in rows]
    assert keys == sorted(keys)


def test_the_running_and_the_last_closed_epoch(api, stack):
    running = api.get("/v1/markets/bribes?limit=500").json()
    newest = max(epoch_start(unix(c["snapshotAt"])) for c in running["meta"]["chains"])
    assert unix(running["data"]["epochStart"]) == newest
    rows = running["data"]["rows"]
    epochs = api.get("/v1/epochs?limit=500").json()["data"]["rows"]
    read = {e["chainId"] for e in epochs if unix(e["epochStart"]) == newest and not e["gap"]}
    assert {r["chainId"] for r in rows} <= read  # minutes into an epoch, no chain may have read it yet
    assert running["meta"]["complete"] is False  # the running epoch is projected, or not read everywhere
    assert {r["epochStart"] for r in rows} <= {running["data"]["epochStart"]}
    assert all(r["status"] == "projected" for r in rows)  # the running epoch cannot be final
    check(rows, stack)
    # the newest closed epoch the chains were indexed over (a session starting minutes before an
    # epoch's end has none yet: its history begins in the running epoch)
    closed_starts = sorted({unix(e["epochStart"]) for e in epochs if not e["gap"] and unix(e["epochStart"]) < newest})
    if not closed_starts:
        assert all(unix(e["epochStart"]) == newest for e in epochs if not e["gap"])
        return
    start = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(closed_starts[-1]))
    closed = api.get(f"/v1/markets/bribes?limit=500&epoch={start}").json()
    rows = closed["data"]["rows"]
    assert rows and {r["kind"] for r in rows} == {"pool", "system"}
    # read after the epoch ended on every chain whose subgraph does not lag (check() ties each status
    # to when its figures were read)
    assert any(r["status"] == "final" for r in rows)
    assert all(r["status"] == "final" for r in rows if r["chainId"] != LAGGING)
    assert any(r["dollarPerVote"] is None for r in rows) or all(r["unpricedBribeCount"] == 0 for r in rows)
    check(rows, stack)


def test_a_traversal_is_the_unpaged_answer_and_errors(api):
    whole = api.get("/v1/markets/bribes?limit=500").json()["data"]["rows"]
    seen, cursor = [], None
    while True:
        body = api.get("/v1/markets/bribes?limit=5" + (f"&cursor={cursor}" if cursor else "")).json()
        seen += body["data"]["rows"]
        cursor = body["pageInfo"]["nextCursor"]
        if not cursor:
            break
    assert seen == whole
    start = unix(whole[0]["epochStart"])
    cases = {
        f"/v1/markets/bribes?epoch={time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime(start + 60))}": (400, "epoch_not_aligned"),
        f"/v1/markets/bribes?epoch={time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime(start + WEEK))}": (404, "epoch_in_future"),
        "/v1/markets/bribes?limit=501": (400, "invalid_limit"),
    }
    for path, (status, code) in cases.items():
        r = api.get(path)
        assert (r.status_code, r.json()["error"]["code"]) == (status, code), (path, r.text)
