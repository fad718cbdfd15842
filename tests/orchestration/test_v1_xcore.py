"""/v1/xcore, /rate-history and /epochs over the session's chains with xCORE (56, canonical, and
4663, a bridged representation; 8453, the other representation, is not served): the token's rate,
supply, backing and adapter lock equal the devnet's truth at the blocks the answer names; the
reconciliation's transfers in flight and the shares held for the uncovered chain equal the
truth's per-chain account at the same instants; every rate-history period's sample is the truth's
rate at its close, with its gaps; every epoch equals the truth's (rates, change by cause, counts,
flows). Every answer is checked against /openapi.json."""
from __future__ import annotations

import calendar
import os
import time
from fractions import Fraction

import httpx
import pytest

from session_api import v1_server
from support.contract_check import CheckedClient
from ve_analytics.core import clock

HOUR, DAY = 3600, 86400
TRUNC = Fraction(1, 10 ** 36)
CANONICAL, REPRESENTATION, UNSERVED = 56, 4663, 8453


def unix(text: str) -> int:
    return calendar.timegm(time.strptime(text, "%Y-%m-%dT%H:%M:%SZ"))


def iso(ts: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ts))


def exact(q: dict, raw) -> bool:
    """The quantity is `raw` and its decimal is raw / 1e18 truncated at 36 places."""
    value = Fraction(int(raw), 10 ** 18)
    return q["raw"] == str(raw) and 0 <= value - Fraction(q["value"]) < TRUNC


@pytest.fixture(scope="module")
def api(stack, tmp_path_factory):
    with v1_server(stack, tmp_path_factory.mktemp("v1-xcore")) as server, httpx.Client(timeout=60) as http:
        yield CheckedClient(server.url, http)


@pytest.fixture(scope="module")
def token(api):
    return api.data("/v1/xcore")


def test_the_token_equals_the_devnet_at_the_snapshot_blocks(token, stack):
    data, meta = token
    assert meta["chainIds"] == [CANONICAL, REPRESENTATION]  # the chains whose book lists xCORE
    chains = {c["chainId"]: c for c in data["chains"]}
    t56, t4663 = unix(chains[CANONICAL]["observation"]["at"]), unix(chains[REPRESENTATION]["observation"]["at"])
    assert data["observation"] == chains[CANONICAL]["observation"]
    truth = stack.truth("xcore", at=f"{CANONICAL}:{t56},{REPRESENTATION}:{t4663}")
    assert data["canonicalChainId"] == CANONICAL
    assert (data["token"]["address"], data["token"]["adapter"], data["token"]["decimals"]) == (
        truth["token"], truth["adapter"], 18)
    assert data["token"]["asset"] == stack.deployment(CANONICAL)["contracts"]["coreToken"].lower()
    assert exact(data["rate"], truth["ratio"]) and int(truth["ratio"]) > 10 ** 18  # rebases raised it
    assert exact(data["supply"], truth["canonicalSupply"]) and exact(data["backing"], truth["backing"])
    assert data["exitPenaltyBps"] == truth["exitPenaltyBps"]
    home, remote = chains[CANONICAL], chains[REPRESENTATION]
    assert (home["role"], remote["role"], home["status"], remote["status"]) == (
        "canonical", "representation", "observed", "observed")
    assert exact(home["adapterLocked"], truth["adapterLocked"])
    assert exact(home["circulating"], truth["chains"][str(CANONICAL)]["circulating"])
    assert exact(remote["supply"], truth["chains"][str(REPRESENTATION)]["supply"]) and remote["adapterLocked"] is None
    assert remote["token"] == truth["chains"][str(REPRESENTATION)]["token"]
    # the rate's last change: the rate at that second is today's, the second before it differs
    changed = unix(data["rate"]["changedAt"])
    assert changed <= t56
    assert stack.truth("xcore/rate", at=changed)["ratio"] == truth["ratio"]
    assert stack.truth("xcore/rate", at=changed - 1)["ratio"] != truth["ratio"]


def test_the_reconciliation_explains_the_adapter_lock_by_the_transfers(token, stack):
    data, meta = token
    chains = {c["chainId"]: c for c in data["chains"]}
    t56, t4663 = unix(chains[CANONICAL]["observation"]["at"]), unix(chains[REPRESENTATION]["observation"]["at"])
    truth = stack.truth("xcore", at=f"{CANONICAL}:{t56},{REPRESENTATION}:{t4663}")
    rec = data["reconciliation"]
    locked, bridged = int(truth["adapterLocked"]), int(truth["chains"][str(REPRESENTATION)]["supply"])
    assert exact(rec["adapterLocked"], locked) and exact(rec["bridgedSupply"], bridged)
    assert rec["unreconciledRaw"] == str(locked - bridged) and rec["reconciled"] is (locked == bridged)
    assert rec["eventsBehind"] == [] and rec["residualRaw"] == "0"
    assert rec["status"] == ("reconciled" if locked == bridged else "explained") and meta["complete"] is True
    mine, other = truth["inFlight"]["byChain"][str(REPRESENTATION)], truth["inFlight"]["byChain"][str(UNSERVED)]
    assert rec["inFlight"] == {"outRaw": mine["out"], "outCount": mine["outCount"], "backRaw": mine["back"],
                               "backCount": mine["backCount"]}
    assert rec["observerSkew"] == {"outRaw": mine["skewOut"], "backRaw": mine["skewBack"]}
    # the unserved chain: what the adapter holds for it is its supply plus what is on its way to or from it
    held = int(truth["chains"][str(UNSERVED)]["supply"]) + int(other["out"]) + int(other["back"])
    assert rec["uncoveredChains"] == [{"chainId": UNSERVED, "lockedRaw": str(held)}] and held > 0
    assert [c["chainId"] for c in data["coverage"]] == [CANONICAL, REPRESENTATION]
    assert all(c["behind"] is False for c in data["coverage"])


def test_rate_history_samples_the_devnets_rate_at_each_close(api, stack):
    through_body, _ = api.data("/v1/xcore/rate-history?interval=1h&limit=1")
    through = unix(through_body["eventsIndexedThrough"])
    to = through - through % HOUR  # periods closing at or before the indexed boundary
    path = f"/v1/xcore/rate-history?interval=1h&from=earliest&to={iso(to)}&limit=40"
    periods, cursor, first = [], None, None
    while True:
        body = api.get(path + (f"&cursor={cursor}" if cursor else "")).json()
        first = first or body["data"]
        periods += body["data"]["periods"]
        cursor = body["pageInfo"]["nextCursor"]
        if not cursor:
            break
    assert len(periods) == first["periodCount"] > 100
    series = {p["t"]: p["ratio"] for p in stack.truth("xcore/rate", **{"from": unix(periods[0]["toExclusive"]) - 1,
                                                                     "to": to - 1, "step": HOUR})["points"]}
    before = stack.truth("xcore/rate", at=unix(periods[0]["from"]) - 1)["ratio"]
    for p in periods:
        close = unix(p["toExclusive"]) - 1
        assert p["gapReason"] is None and exact(p["sample"]["rate"], series[close]), p
        assert p["activity"] == ("changed" if series[close] != before else "carried")
        before = series[close]
    for p in periods[::17]:  # supply and backing at a few closes
        truth = stack.truth("xcore/rate", at=unix(p["toExclusive"]) - 1)
        assert exact(p["sample"]["supply"], truth["supply"]) and exact(p["sample"]["backing"], truth["backing"])
        assert p["sample"]["eventId"] == truth["eventId"] and unix(p["sample"]["eventAt"]) == truth["eventAt"]


def test_rate_history_gaps_before_the_token_and_after_the_indexed_events(api, stack, tmp_path):
    first = api.data("/v1/xcore/rate-history?interval=1d&from=earliest&limit=1")[0]
    begin = unix(first["from"])  # the token's first event
    body, meta = api.data(f"/v1/xcore/rate-history?interval=15m&from={iso(begin - HOUR)}&to={iso(begin + HOUR)}")
    reasons = [p["gapReason"] for p in body["periods"]]
    assert reasons[:4] == ["before_token_deployment"] * 4 and all(r is None for r in reasons[4:])
    assert meta["complete"] is False
    close = unix(body["periods"][4]["toExclusive"]) - 1  # a sample is the rate at its period's close
    assert exact(body["periods"][4]["sample"]["rate"], stack.truth("xcore/rate", at=close)["ratio"])
    # an API whose clock runs two hours past the newest snapshot (modules before this one may have
    # published snapshots ahead of the session's clock): its latest periods close after the events
    ahead = max(0, stack.latest_success(CANONICAL) - int(clock.now())) + 2 * HOUR
    env = {clock.OFFSET_ENV: str(float(os.environ.get(clock.OFFSET_ENV) or 0) + ahead)}
    with v1_server(stack, tmp_path, env) as server, httpx.Client(timeout=60) as http:
        latest, meta = CheckedClient(server.url, http).data("/v1/xcore/rate-history?interval=15m")  # to: its time
    through = unix(latest["eventsIndexedThrough"])
    assert through <= stack.latest_success(CANONICAL)  # not past the published snapshot
    for p in latest["periods"]:
        assert (p["gapReason"] == "events_not_indexed") is (unix(p["toExclusive"]) - 1 > through)
    assert latest["periods"][-1]["gapReason"] == "events_not_indexed" and meta["complete"] is False
    assert latest["periods"][0]["gapReason"] is None  # 24 hours back: indexed


def test_the_indexed_boundary_is_never_after_the_server_time(stack, tmp_path):
    # an API whose clock runs an hour behind the newest snapshot (published ahead of the session's
    # clock by modules before this one, or by a server clock running late): the boundary it names
    # stops at its time, and a client passing it back as `to` is answered
    shift = stack.latest_success(CANONICAL) - HOUR - int(clock.now())
    env = {clock.OFFSET_ENV: str(float(os.environ.get(clock.OFFSET_ENV) or 0) + shift)}
    with v1_server(stack, tmp_path, env) as server, httpx.Client(timeout=60) as http:
        client = CheckedClient(server.url, http)
        api_now = stack.latest_success(CANONICAL) - HOUR + 300  # and the seconds this test takes
        rates, _ = client.data("/v1/xcore/rate-history?interval=1h&limit=1")
        through = unix(rates["eventsIndexedThrough"])
        assert through <= api_now
        again, _ = client.data(f"/v1/xcore/rate-history?interval=1h&to={iso(through)}&limit=1")
        assert again["toExclusive"] == iso(through)
        epochs, _ = client.data("/v1/xcore/epochs?limit=1")
        assert unix(epochs["eventsIndexedThrough"]) <= api_now


def test_every_epoch_equals_the_devnets(api, stack):
    epochs, cursor = [], None
    while True:
        body = api.get("/v1/xcore/epochs?limit=1" + (f"&cursor={cursor}" if cursor else "")).json()
        epochs += body["data"]["epochs"]
        cursor = body["pageInfo"]["nextCursor"]
        if not cursor:
            break
    through = unix(body["data"]["eventsIndexedThrough"])
    truth = stack.truth("xcore/epochs", through=through)["epochs"]
    assert [unix(e["epoch"]) for e in epochs] == [t["epoch"] for t in reversed(truth)] and epochs
    for e, t in zip(epochs, reversed(truth)):
        assert (e["partial"], unix(e["toExclusive"])) == (t["partial"], t["end"])
        assert exact(e["rateAtStart"], t["rateAtStart"]) and exact(e["rateAtEnd"], t["rateAtEnd"])
        assert e["change"]["raw"] == t["change"]
        assert {k: v["raw"] for k, v in e["causes"].items()} == t["causes"]
        assert sum(int(v["raw"]) for v in e["causes"].values()) == int(e["change"]["raw"])
        assert e["counts"] == t["counts"]
        assert {k: v["raw"] for k, v in e["amounts"].items()} == t["amounts"]
        assert exact(e["supplyAtEnd"], t["supplyAtEnd"]) and exact(e["backingAtEnd"], t["backingAtEnd"])
    assert epochs[0]["partial"] and epochs[-1]["rateAtStart"]["raw"] == str(10 ** 18)


def test_errors_answer_their_codes(api):
    cases = {
        "/v1/xcore/rate-history?interval=1h&from=2026-01-01T00:00:00Z&to=2026-06-01T00:00:00Z": (400, "invalid_range"),
        "/v1/xcore/rate-history?from=2026-06-01T00:00:00Z&to=2026-06-01T00:00:00Z": (400, "invalid_range"),
        "/v1/xcore/rate-history?to=2999-01-01T00:00:00Z": (400, "invalid_to"),
        "/v1/xcore/rate-history?interval=5m": (400, "invalid_interval"),
        "/v1/xcore/rate-history?cursor=abc": (400, "invalid_cursor"),
        "/v1/xcore/epochs?limit=0": (400, "invalid_limit"),
        "/v1/xcore?chainIds=56": (400, "unknown_parameter"),
    }
    for path, (status, code) in cases.items():
        r = api.get(path)
        assert (r.status_code, r.json()["error"]["code"]) == (status, code), path


def test_etag_304_and_head(api):
    for path in ("/v1/xcore", "/v1/xcore/epochs", "/v1/xcore/rate-history?interval=1d&from=earliest"):
        r = api.get(path)
        assert r.status_code == 200 and r.headers["etag"] and "max-age" in r.headers["cache-control"]
        assert api.get(path, headers={"If-None-Match": r.headers["etag"]}).status_code == 304
        head = api.http.head(api.url + path)
        assert head.status_code == 200 and head.content == b""
