"""/health's `chains`: one entry per configured chain (snapshot freshness, subgraph lag, coverage,
what is still filling in), against crafted snapshot_runs and chain_coverage rows in a database of
their own, served with a five-chain book. The status stays chain 56's."""
from __future__ import annotations


import pytest

from api_settings import settings_for
from multichain_seed import LONG_ERROR, hour, missing_history_truth, missing_truth, seed, write_book
from support import instant
from support.api_server import ApiServer
from ve_analytics.api.chain_health import chain_health
from ve_analytics.api.coverage_holes import filling, missing
from ve_analytics.core.chains import ChainConfig, load_book
from ve_analytics.core.epochs import DAY, HOUR, QUARTER_HOUR, iso
from ve_analytics.warehouse.migrate import migrate


class Api:
    def __init__(self, server: ApiServer, contract, http):
        self.server, self.contract, self.http = server, contract, http

    def get(self, path: str):
        r = self.http.get(self.server.url + path)
        self.contract.check(r)
        return r


@pytest.fixture(scope="module")
def multichain(warehouse, contract, http, tmp_path_factory):
    folder = tmp_path_factory.mktemp("multichain")
    chains = load_book(write_book(folder), {})
    settings = settings_for(warehouse.url, "api_multichain", folder, chains)
    migrate(settings)
    latest = instant.AT // QUARTER_HOUR * QUARTER_HOUR
    times = seed(settings, latest)
    server = ApiServer(settings, log_path=folder / "api.log", env=instant.frozen_env()).start()
    try:
        yield Api(server, contract, http), latest, times
    finally:
        server.stop()


def test_every_configured_chain_is_reported_and_the_status_stays_chain_56s(multichain):
    api, latest, t = multichain
    before = after = instant.AT  # the API's clock is frozen there
    r = api.get("/api/stats/health")
    assert r.status_code == 200, r.text  # 8453 and 5042 are stale: reported, not decisive
    data = r.json()["data"]
    assert data["healthy"] is True and data["reason"] == "fresh" and data["snapshotAt"] == iso(latest)
    assert data["lastRun"] == {"snapshotAt": iso(latest), "status": "success", "runId": "run-56-b"}
    chains = data["chains"]
    assert [c["chainId"] for c in chains] == [1, 56, 4663, 5042, 8453]
    ages = {c["chainId"]: c.pop("ageSeconds") for c in chains}
    for cid, newest in ((56, latest), (8453, latest - 3 * HOUR), (5042, latest - 2 * HOUR), (4663, latest - QUARTER_HOUR)):
        assert before - newest <= ages[cid] <= after - newest, (cid, ages[cid])
    assert ages[1] is None and data["ageSeconds"] == ages[56]
    m56, m8453, m5042, m4663 = t["m56"], t["m8453"], t["m5042"], t["m4663"]
    by_id = {c["chainId"]: c for c in chains}
    # the holes of each window, against the published times seeded (independent: sets), at the
    # request's now (taken between `before` and `after`)
    published = {56: {latest - QUARTER_HOUR, latest}, 8453: {latest - 3 * HOUR}, 5042: {latest - 2 * HOUR},
                 4663: {latest - QUARTER_HOUR}}
    market = {56: m56, 8453: m8453, 5042: m5042, 4663: m4663}
    for cid, times in published.items():
        depth = 30 if cid == 56 else 7
        served = by_id[cid]["coverage"].pop("missingSnapshots")
        assert served in (missing_truth(times, market[cid], depth, before), missing_truth(times, market[cid], depth, after))
        assert served["count"] > 0
        # no protocol_hourly bucket is seeded: every hour of the history window is missing
        served = by_id[cid]["coverage"].pop("missingHistory")
        assert served in (missing_history_truth(set(), market[cid], before), missing_history_truth(set(), market[cid], after))
        assert served["count"] > 0
    assert by_id[1]["coverage"].pop("missingSnapshots") is None  # no market activity: no window
    assert by_id[1]["coverage"].pop("missingHistory") is None

    assert by_id[1] == {
        "chainId": 1, "healthy": False, "reason": "no_successful_snapshot", "snapshotAt": None, "lastRun": None,
        "subgraphLagSeconds": None,
        "coverage": {"firstMarketActivity": None, "hourly": None, "events": None, "snapshots": None,
                     "indexedAt": None, "chainHeadAt": None},
        "filling": [],
    }
    assert by_id[56] == {
        "chainId": 56, "healthy": True, "reason": "fresh", "snapshotAt": iso(latest),
        "lastRun": {"snapshotAt": iso(latest), "status": "success", "runId": "run-56-b", "error": None},
        "subgraphLagSeconds": 60,
        "coverage": {
            "firstMarketActivity": iso(m56),
            "hourly": {"from": iso(hour(m56) + HOUR), "to": iso(hour(latest) - HOUR)},
            "events": {"from": iso(m56), "to": iso(latest - 120)},
            "snapshots": {"from": iso(m56 + 8 * 60), "to": iso(latest)},
            "indexedAt": iso(latest - 60),
            "chainHeadAt": iso(latest),
        },
        "filling": ["snapshots", "history"],
    }
    assert by_id[8453] == {
        "chainId": 8453, "healthy": False, "reason": "stale", "snapshotAt": iso(latest - 3 * HOUR),
        "lastRun": {"snapshotAt": iso(latest - 3 * HOUR + QUARTER_HOUR), "status": "failed", "runId": "run-8453-failed",
                    "error": LONG_ERROR[:300]},
        "subgraphLagSeconds": 300,
        "coverage": {
            "firstMarketActivity": iso(m8453),
            "hourly": {"from": iso(latest - 5 * DAY), "to": iso(hour(latest) - HOUR)},
            "events": None,
            "snapshots": {"from": iso(latest - 2 * DAY), "to": iso(latest - 3 * HOUR)},
            "indexedAt": iso(latest - 3 * HOUR - 300),
            "chainHeadAt": iso(latest - 3 * HOUR),
        },
        "filling": ["snapshots", "history"],
    }
    assert by_id[5042] == {
        "chainId": 5042, "healthy": False, "reason": "subgraph_lagging", "snapshotAt": iso(latest - 2 * HOUR),
        "lastRun": {"snapshotAt": iso(latest - 2 * HOUR), "status": "success", "runId": "run-5042", "error": None},
        "subgraphLagSeconds": 2 * HOUR + 20 * 60,
        "coverage": {
            "firstMarketActivity": iso(m5042),
            "hourly": {"from": iso(hour(m5042)), "to": iso(hour(latest) - HOUR)},
            "events": {"from": iso(m5042), "to": iso(latest)},
            "snapshots": {"from": iso(latest - 2 * HOUR - 7 * DAY + QUARTER_HOUR), "to": iso(latest - 2 * HOUR)},
            "indexedAt": iso(latest - 2 * HOUR - 20 * 60),
            "chainHeadAt": iso(latest),
        },
        "filling": ["snapshots", "history"],
    }
    assert by_id[4663] == {
        "chainId": 4663, "healthy": True, "reason": "fresh", "snapshotAt": iso(latest - QUARTER_HOUR),
        "lastRun": {"snapshotAt": iso(latest - QUARTER_HOUR), "status": "success", "runId": "run-4663", "error": None},
        "subgraphLagSeconds": 0,
        "coverage": {
            "firstMarketActivity": iso(m4663),
            "hourly": None,
            "events": None,
            "snapshots": {"from": iso(m4663 + 10 * 60), "to": iso(latest - QUARTER_HOUR)},
            "indexedAt": iso(latest - 60),
            "chainHeadAt": iso(latest - 120),
        },
        "filling": ["snapshots", "history"],
    }


def test_chain_56_stale_is_503_with_every_chain_in_the_details(stale, chains):
    r = stale.get("/api/stats/health")
    assert r.status_code == 503
    details = r.json()["error"]["details"]
    assert [c["chainId"] for c in details["chains"]] == sorted(chains)
    mine = next(c for c in details["chains"] if c["chainId"] == 56)
    assert mine["reason"] == "stale" and mine["healthy"] is False
    assert mine["snapshotAt"] == details["snapshotAt"] and mine["lastRun"]["runId"] == details["lastRun"]["runId"]
    assert mine["coverage"]["snapshots"] is None and mine["subgraphLagSeconds"] is None  # no coverage row there


def test_no_chain_is_reported_without_a_warehouse(unreachable):
    r = unreachable.get("/api/stats/health")
    assert r.status_code == 503
    details = r.json()["error"]["details"]
    assert details["reason"] == "warehouse_unreachable" and details["chains"] == []


# ------------------------------------------------------------------------------ the rules, at their edges


def _chain(cid: int) -> ChainConfig:
    return ChainConfig(chain_id=cid, name="x", network="x", subgraph_url="", rpc_url="")


def _cov(**ranges: tuple[int, int]) -> dict:
    return {name: {"first_at": iso(first), "last_at": iso(last)} for name, (first, last) in ranges.items()}


def test_lag_decides_the_reason_past_ten_minutes_even_when_the_snapshot_is_fresh():
    now, at = 1_800_000_000, 1_799_999_100
    row = {"last_success_at": iso(at), "last_run_at": iso(at), "last_run_status": "success", "last_run_id": "r",
           "last_run_error": ""}
    at_tolerance = chain_health(_chain(8453), row, _cov(subgraph=(0, now - 600), chain_head=(now, now)), {}, now, 2700)
    assert (at_tolerance["healthy"], at_tolerance["reason"], at_tolerance["subgraphLagSeconds"]) == (True, "fresh", 600)
    past = chain_health(_chain(8453), row, _cov(subgraph=(0, now - 601), chain_head=(now, now)), {}, now, 2700)
    assert (past["healthy"], past["reason"], past["subgraphLagSeconds"]) == (True, "subgraph_lagging", 601)
    # without a successful snapshot, that is the reason whatever the lag
    none = chain_health(_chain(8453), None, _cov(subgraph=(0, now - 3600), chain_head=(now, now)), {}, now, 2700)
    assert none["reason"] == "no_successful_snapshot" and none["lastRun"] is None


def test_filling_follows_the_missing_counts_and_a_capped_list_says_so():
    def row(count: int, ranges: int = 0) -> dict:
        hours = [(1_800_000_000 - k * HOUR, 1_800_000_000 - k * HOUR, 1) for k in range(min(ranges, 20))]
        return {"missing_count": count, "range_count": ranges, "ranges": hours, "window_from_ts": 0, "window_to_ts": 0}

    assert filling({}) == []  # no window (no market activity): nothing is said to be filling
    assert filling({"snapshots": row(0), "history": row(0)}) == []
    assert filling({"snapshots": row(1, 1), "history": row(0)}) == ["snapshots"]
    assert filling({"snapshots": row(0), "history": row(3, 2)}) == ["history"]
    assert filling({"snapshots": row(2, 1), "history": row(3, 2)}) == ["snapshots", "history"]
    capped = missing({"history": row(25, 25)}, "history")
    assert (capped["count"], capped["rangeCount"], len(capped["ranges"]), capped["truncated"]) == (25, 25, 20, True)
    assert missing({"history": row(20, 20)}, "history")["truncated"] is False
    assert missing({}, "snapshots") is None
