"""The /v1 protocol routes over the session's four backfilled chains, against each chain's devnet
ground truth: per-chain and combined windows, periods in both alignments, cumulative volume, TVL;
the lagging chain (its subgraph 36 hours behind) is stale, shown so by /v1/health/chains, and
makes every total that covers it incomplete while the others are served. Every response is
checked against the served /openapi.json."""
from __future__ import annotations

import dataclasses
import time
from datetime import datetime

import httpx
import pytest

from orchestration_session import CHAINS, LAGGING, NO_CL, YOUNG
from support.api_server import ApiServer
from support.contract_check import CheckedClient
from ve_analytics.core.epochs import DAY, HOUR, QUARTER_HOUR

REL = 1e-9
# The lagging chain's newest snapshot is 36 hours old, the others' under an hour at the session's
# start: with a one-day limit the lagging chain is stale and the others fresh, whatever the hour.
STALE_AFTER_MINUTES = 24 * 60
FRESH_CHAINS = tuple(c for c in CHAINS if c != LAGGING)


def unix(text: str) -> int:
    return int(datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp())


def close(a: float, b: float) -> bool:
    return abs(a - b) <= REL * max(abs(a), abs(b), 1e-12)


@pytest.fixture(scope="module")
def api(stack, tmp_path_factory):
    settings = dataclasses.replace(stack.settings, stale_after_minutes=STALE_AFTER_MINUTES, api_workers=1)
    log = tmp_path_factory.mktemp("v1-api") / "api.log"
    with ApiServer(settings, families=("v1",), log_path=log) as server, httpx.Client(timeout=60) as http:
        yield CheckedClient(server.url, http)


def flows_truth(stack, chain_id: int, start: int, end: int) -> dict:
    return stack.truth("flows", chain_id, **{"from": start, "to": end})


def check_span(stack, chain_id: int, figure: dict) -> None:
    """A span with a value equals the chain's truth over [from, toExclusive)."""
    start, end = unix(figure["from"]), unix(figure["toExclusive"])
    assert end - start == figure["durationSeconds"]
    truth = flows_truth(stack, chain_id, start, end)
    if figure["volumeUsd"] is None:
        assert truth["swapCount"] == 0 and figure["gap"] is not None, figure
        return
    assert close(figure["volumeUsd"], truth["volumeUsd"]), (chain_id, figure, truth)
    assert close(figure["feesUsd"], truth["feesUsd"]), (chain_id, figure, truth)


def test_protocol_per_chain_equals_each_chains_truth(api, stack):
    data, meta = api.data("/v1/protocol")
    assert meta["chainIds"] == sorted(CHAINS) == [c["chainId"] for c in data["chains"]]
    for chain in data["chains"]:
        cid = chain["chainId"]
        assert chain["snapshotAt"] == next(m["snapshotAt"] for m in meta["chains"] if m["chainId"] == cid)
        assert unix(chain["snapshotAt"]) == stack.latest_success(cid)
        truth = stack.truth("state", cid, block=chain["blockNumber"])
        assert close(chain["tvlUsd"], truth["tvlUsd"]) and chain["poolCount"] == len(truth["pools"])
        anchor = unix(chain["anchorAt"])
        assert anchor % HOUR == 0 and unix(chain["snapshotAt"]) - 2 * HOUR <= anchor <= unix(chain["snapshotAt"])
        assert [w["label"] for w in chain["windows"]] == ["24h", "7d"]
        for window, seconds in zip(chain["windows"], (DAY, 7 * DAY)):
            assert unix(window["toExclusive"]) == anchor and window["durationSeconds"] == seconds
            assert window["complete"] and window["gap"] is None and window["hoursCovered"] == window["hoursExpected"] > 0
            check_span(stack, cid, window)
    states = {c["chainId"]: c["state"] for c in meta["chains"]}
    assert states[LAGGING] == "stale" and all(states[c] == "fresh" for c in FRESH_CHAINS)


def test_totals_add_each_chains_own_window_and_the_stale_chain_makes_them_incomplete(api, stack):
    data, meta = api.data("/v1/protocol")
    by_chain = {c["chainId"]: c for c in data["chains"]}
    totals = data["totals"]
    assert totals["chainIds"] == sorted(CHAINS) and totals["missingChainIds"] == []
    assert totals["complete"] is False and meta["complete"] is False  # the lagging chain is stale
    assert close(totals["tvlUsd"], sum(c["tvlUsd"] for c in by_chain.values()))
    assert totals["poolCount"] == sum(c["poolCount"] for c in by_chain.values())
    for i, label in enumerate(("24h", "7d")):
        window = totals["windows"][i]
        assert window["label"] == label and window["complete"] is False
        truth = [flows_truth(stack, cid, unix(c["windows"][i]["from"]), unix(c["windows"][i]["toExclusive"]))
                 for cid, c in by_chain.items()]
        assert close(window["volumeUsd"], sum(t["volumeUsd"] for t in truth))
        assert close(window["feesUsd"], sum(t["feesUsd"] for t in truth))
        assert window["toExclusive"] == max(c["windows"][i]["toExclusive"] for c in by_chain.values())
    assert set(data["policy"]["excludedFromTotals"]) == {"backing", "bridgeBalances", "holders", "prices", "aprs"}

    # without the stale chain every total is complete
    fresh, fresh_meta = api.data("/v1/protocol?chainIds=" + ",".join(map(str, FRESH_CHAINS)))
    assert fresh["totals"]["complete"] is True and fresh_meta["complete"] is True
    assert fresh_meta["chainIds"] == sorted(FRESH_CHAINS)


def test_the_stale_chain_is_stale_in_health_while_the_others_stay_fresh(api):
    r = api.get("/v1/health/chains")
    assert r.status_code == 200
    states = {c["chainId"]: c["state"] for c in r.json()["data"]}
    assert states[LAGGING] == "stale" and all(states[c] == "fresh" for c in FRESH_CHAINS)
    health = api.get("/v1/health").json()["data"]
    assert health["status"] == "degraded" and health["staleChainIds"] == [LAGGING]


def test_trailing_windows_equal_truth(api, stack):
    data, _ = api.data("/v1/protocol/trailing?windows=1h,30h,3d&chainIds=56,4663")
    for chain in data["chains"]:
        assert [w["label"] for w in chain["windows"]] == ["1h", "30h", "3d"]
        for window in chain["windows"]:
            check_span(stack, chain["chainId"], window)
    for i, total in enumerate(data["totals"]):
        expected = sum(flows_truth(stack, c["chainId"], unix(c["windows"][i]["from"]),
                                   unix(c["windows"][i]["toExclusive"]))["volumeUsd"] for c in data["chains"])
        assert close(total["volumeUsd"], expected) and total["complete"] is True


def test_cumulative_volume_equals_truth_since_first_activity(api, stack):
    data, _ = api.data("/v1/protocol/volume")
    for chain in data["chains"]:
        cid, cumulative = chain["chainId"], chain["cumulative"]
        first_pool = min(p["createdAtTimestamp"] for p in stack.deployment(cid)["pools"])
        assert unix(cumulative["from"]) == first_pool // HOUR * HOUR == unix(chain["firstMarketActivityHour"])
        assert cumulative["toExclusive"] == chain["anchorAt"] and cumulative["complete"]
        truth = flows_truth(stack, cid, 0, unix(chain["anchorAt"]))  # nothing happened before the first pool
        assert close(cumulative["volumeUsd"], truth["volumeUsd"]) and close(cumulative["feesUsd"], truth["feesUsd"])
    assert close(data["totals"]["volumeUsd"], sum(c["cumulative"]["volumeUsd"] for c in data["chains"]))


def test_hourly_history_rolling_equals_truth_hour_by_hour(api, stack):
    data, _ = api.data("/v1/protocol/history?days=1&chainIds=56,1")
    assert data["alignment"] == "rolling" and data["periodSeconds"] == HOUR
    for chain in data["chains"]:
        periods = chain["periods"]
        assert len(periods) == 24 and periods[-1]["toExclusive"] == chain["anchorAt"]
        assert [unix(p["from"]) for p in periods] == list(range(unix(chain["anchorAt"]) - DAY, unix(chain["anchorAt"]), HOUR))
        assert all(p["complete"] and not p["partial"] and p["hoursCovered"] == 1 for p in periods)
        for p in periods:
            check_span(stack, chain["chainId"], p)
        # the TVL observation of a period closing at a published snapshot is that snapshot's
        last = periods[-1]
        if last["tvlUsd"] is not None:
            assert unix(last["tvlObservedAt"]) <= unix(last["toExclusive"])
    for i, total in enumerate(data["totals"]):
        assert close(total["volumeUsd"], sum(c["periods"][i]["volumeUsd"] for c in data["chains"]))


def test_daily_utc_marks_only_the_running_day_partial(api, stack):
    data, meta = api.data(f"/v1/protocol/daily?alignment=utc&days=3&chainIds={','.join(map(str, FRESH_CHAINS))}")
    assert data["alignment"] == "utc" and meta["complete"] is True
    for chain in data["chains"]:
        periods, anchor = chain["periods"], unix(chain["anchorAt"])
        starts = [unix(p["from"]) for p in periods]
        assert all(s % DAY == 0 for s in starts) and starts == sorted(starts)
        running = [p for p in periods if p["partial"]]
        if anchor % DAY:
            assert running == [periods[-1]] and periods[-1]["toExclusive"] == chain["anchorAt"]
        else:
            assert running == []
        for p in periods:
            check_span(stack, chain["chainId"], p)
    totals = data["totals"]
    assert all(t["synchronized"] for t in totals)
    assert [t["partial"] for t in totals] == [p["partial"] for p in data["chains"][0]["periods"]]


def test_daily_utc_with_the_lagging_chain_keeps_its_unobserved_days_as_gaps(api, stack):
    data, meta = api.data("/v1/protocol/daily?alignment=utc&days=4")
    lagging = next(c for c in data["chains"] if c["chainId"] == LAGGING)
    anchor = unix(lagging["anchorAt"])
    for p in lagging["periods"]:
        if unix(p["from"]) >= anchor:
            assert p["gap"] == "not_yet_observed" and p["volumeUsd"] is None and not p["complete"]
        else:
            check_span(stack, LAGGING, p)
    newest = data["totals"][-1]
    assert LAGGING in newest["missingChainIds"] and newest["complete"] is False and meta["complete"] is False
    assert close(newest["volumeUsd"], sum(c["periods"][-1]["volumeUsd"] or 0 for c in data["chains"]))


def test_daily_rolling_of_the_young_chain_has_no_value_before_its_first_activity(api, stack):
    data, _ = api.data(f"/v1/protocol/daily?days=6&chainIds={YOUNG}")
    chain = data["chains"][0]
    first = unix(chain["firstMarketActivityHour"])
    before = [p for p in chain["periods"] if unix(p["toExclusive"]) <= first]
    assert before, "the young chain's market starts inside the range"
    assert all(p["gap"] == "before_first_market_activity" and p["volumeUsd"] is None and p["complete"] for p in before)
    for p in chain["periods"]:
        check_span(stack, YOUNG, p)
        if unix(p["from"]) < first < unix(p["toExclusive"]):  # the day the market began needs its hours since
            assert p["hoursExpected"] == (unix(p["toExclusive"]) - first) // HOUR


def test_etag_and_304_on_protocol_routes(api):
    for path in ("/v1/protocol", "/v1/protocol/daily?alignment=utc", "/v1/protocol/volume"):
        r = api.get(path)
        etag = r.headers["etag"]
        assert etag.startswith('W/"cov-') and "s-maxage=60" in r.headers["cache-control"]
        again = api.get(path, headers={"If-None-Match": etag})
        assert again.status_code == 304 and again.headers["etag"] == etag
    # a selection of other chains is another representation
    assert api.get("/v1/protocol?chainIds=56").headers["etag"] != api.get("/v1/protocol").headers["etag"]


@pytest.mark.parametrize("path, status, code", [
    ("/v1/protocol?chainIds=8453", 404, "chain_not_public"),  # not in this session's chain book
    ("/v1/protocol?chainIds=0", 400, "invalid_chain_ids"),
    ("/v1/protocol/history?alignment=calendar", 400, "invalid_alignment"),
    ("/v1/protocol/history?days=91", 400, "invalid_days"),
    ("/v1/protocol/trailing?windows=367d", 400, "invalid_windows"),
    ("/v1/protocol/volume?chainIds=56", 400, "unknown_parameter"),
])
def test_bad_requests(api, path, status, code):
    r = api.get(path)
    assert r.status_code == status and r.json()["error"]["code"] == code


def test_a_failed_refresh_marks_its_chain_failed_and_never_relabels_its_figures(api, stack):
    """Runs last in this module: it publishes a new snapshot of the chain without CL pools."""
    from ve_analytics.orchestration.backfill import run_snapshot
    from ve_analytics.readers.graphql import SubgraphError

    path = f"/v1/protocol?chainIds=56,{NO_CL}"
    before = api.get(path)
    previous = stack.latest_success(NO_CL)
    target = previous + QUARTER_HOUR
    if stack.devnet_now() < target + 60:  # a boundary's block is final once the head has passed it
        stack.advance_clock(target + 60 - stack.devnet_now())
    stack.fault("subgraph", "error", chain_id=NO_CL)
    try:
        with pytest.raises(SubgraphError, match="devnet fault injection"):
            run_snapshot(stack.settings, target, chain_id=NO_CL)
    finally:
        stack.fault("subgraph", "ok", chain_id=NO_CL)

    failed = wait_for_state(api, path, NO_CL, "failed")
    chain = next(c for c in failed.json()["data"]["chains"] if c["chainId"] == NO_CL)
    old = next(c for c in before.json()["data"]["chains"] if c["chainId"] == NO_CL)
    assert unix(chain["snapshotAt"]) == previous and chain == {**old, "state": "failed"}  # same observation, flagged
    assert failed.json()["meta"]["complete"] is False and failed.json()["data"]["totals"]["complete"] is False
    assert failed.headers["etag"] != before.headers["etag"]
    assert api.get(path, headers={"If-None-Match": before.headers["etag"]}).status_code == 200
    health = {c["chainId"]: c for c in api.get("/v1/health/chains").json()["data"]}
    assert health[NO_CL]["state"] == "failed" and health[NO_CL]["lastRun"]["status"] == "failed"
    assert api.get("/v1/health").json()["data"]["failedChainIds"] == [NO_CL]

    run_snapshot(stack.settings, target, chain_id=NO_CL)  # the upstream recovered
    fresh = wait_for_state(api, path, NO_CL, "fresh")
    chain = next(c for c in fresh.json()["data"]["chains"] if c["chainId"] == NO_CL)
    assert unix(chain["snapshotAt"]) == target and fresh.json()["meta"]["complete"] is True


def wait_for_state(api, path: str, chain_id: int, state: str, timeout: float = 10.0) -> httpx.Response:
    """The answer once the API's pointer (refreshed every second) shows the chain in `state`."""
    deadline = time.monotonic() + timeout
    while True:
        r = api.get(path)
        states = {c["chainId"]: c["state"] for c in r.json()["meta"]["chains"]}
        if states[chain_id] == state or time.monotonic() > deadline:
            assert states[chain_id] == state, r.json()["meta"]
            return r
        time.sleep(0.25)
