"""Foundation, KPI and epoch-detail routes against the crafted rows of `governance_seed.py`."""
from __future__ import annotations

import pytest
from governance_seed import E18, GAUGE, POOL_A, POOL_C, WALLET, Gov

from ve_analytics.core.epochs import WEEK, iso


@pytest.fixture(scope="module")
def gov(fresh, fresh_data) -> Gov:
    return fresh_data.governance


def data(api, path: str):
    r = api.get(path)
    assert r.status_code == 200, r.text
    return r.json()["data"]


def error(api, path: str, status: int, code: str) -> None:
    r = api.get(path)
    assert r.status_code == status, r.text
    assert r.json()["error"]["code"] == code


def test_foundation_summary(fresh, gov):
    f = data(fresh, "/api/stats/foundation")
    assert f["wallet"] == WALLET and f["veNftIds"] == [1, 2]
    assert f["totalLockedRaw"] == str(3000 * E18) and f["votingPower"] == 2500.0
    assert f["epochStart"] == gov.e0 and f["votesThisEpochRaw"] == str(8 * E18)
    assert (f["voteCount"], f["votedPoolCount"]) == (2, 2)
    assert [(a["poolAddress"], a["weight"]) for a in f["allocation"]] == [(POOL_A, 6.0), (POOL_C, 2.0)]
    assert f["bribes"]["lifetimeCount"] == 2 and f["bribes"]["lifetimeUsd"] == 60.0  # b2 + b5, not b6
    assert f["claims"]["lifetimeCount"] == 2 and f["claims"]["lifetimeUsd"] == 601.0  # c3 is after the snapshot
    recent = [b for b, at in (("b2", gov.e1 + 200), ("b5", gov.cur_ts)) if at > gov.latest - 30 * 86400]
    assert f["bribes"]["recentCount"] == len(recent) and f["bribes"]["recentDays"] == 30


def test_config_lists_the_foundation_venfts_of_the_snapshot(fresh, gov):
    assert data(fresh, "/api/stats/config")["foundation"]["veNftIds"] == [1, 2]


def test_foundation_votes_from_one_representative_snapshot(fresh, gov):
    rows = data(fresh, "/api/stats/foundation/votes")
    assert [(r["veNftId"], r["poolAddress"], r["weight"]) for r in rows] == [(1, POOL_A, 6.0), (2, POOL_C, 2.0)]
    assert {r["snapshotAt"] for r in rows} == {iso(gov.latest)}
    assert data(fresh, "/api/stats/foundation/votes?latestOnly=false") == rows
    assert data(fresh, f"/api/stats/foundation/votes?epoch={gov.e0}") == rows
    assert data(fresh, f"/api/stats/foundation/votes?epoch={gov.e1}") == []
    error(fresh, f"/api/stats/foundation/votes?epoch={gov.e0 + 1}", 400, "invalid_epoch")
    error(fresh, "/api/stats/foundation/votes?latestOnly=2", 400, "invalid_latest_only")


def test_foundation_bribes_are_bribes_with_foundation_only(fresh, gov):
    rows = data(fresh, "/api/stats/foundation/bribes")
    assert [r["id"] for r in rows] == ["b5", "b2"]
    assert rows == data(fresh, "/api/stats/bribes?foundationOnly=true")
    assert [r["id"] for r in data(fresh, f"/api/stats/foundation/bribes?epoch={gov.e1}&pool={POOL_A}")] == ["b2"]
    assert [r["id"] for r in data(fresh, "/api/stats/foundation/bribes?limit=1")] == ["b5"]
    for query, code in (("limit=0", "invalid_limit"), ("limit=1001", "invalid_limit"), ("epoch=5", "invalid_epoch"),
                        ("foundationOnly=true", "unknown_parameter")):
        error(fresh, f"/api/stats/foundation/bribes?{query}", 400, code)


def test_foundation_kpis(fresh, gov):
    rows = data(fresh, "/api/stats/foundation/kpis")
    assert [(r["poolAddress"], r["classification"]) for r in rows] == [(POOL_A, "repeat"), (POOL_C, "insufficient_data")]
    assert {r["snapshotAt"] for r in rows} == {iso(gov.latest)}  # the representative snapshot, not the failed run
    a = rows[0]
    assert a["voteWeightRaw"] == str(6 * E18) and a["bribeCostUsd"] == 40.0 and a["methodologyVersion"] == "1.1.0"
    assert rows[1]["bribeCostUsd"] is None
    assert [r["poolAddress"] for r in data(fresh, f"/api/stats/foundation/kpis?pool={POOL_C}")] == [POOL_C]
    assert len(data(fresh, "/api/stats/foundation/kpis?limit=1")) == 1
    assert data(fresh, f"/api/stats/foundation/kpis?epoch={gov.e1}") == []
    for query, code in (("limit=0", "invalid_limit"), ("limit=1001", "invalid_limit"), ("epoch=-1", "invalid_epoch")):
        error(fresh, f"/api/stats/foundation/kpis?{query}", 400, code)
    gauge = data(fresh, f"/api/stats/gauges/{GAUGE[POOL_A]}/kpis")
    assert gauge == rows[:1]
    error(fresh, f"/api/stats/gauges/{GAUGE[POOL_A]}/kpis?epoch=7", 400, "invalid_epoch")
    error(fresh, "/api/stats/gauges/0xabc/kpis", 400, "invalid_gauge_address")


def test_epoch_detail(fresh, gov):
    d = data(fresh, f"/api/stats/epochs/{gov.e0}")
    assert d["epochStart"] == gov.e0 and d["representativeSnapshotAt"] == iso(gov.latest)
    assert [(v["veNftId"], v["poolAddress"]) for v in d["votes"]] == [(1, POOL_A), (2, POOL_C)]
    assert [b["id"] for b in d["bribes"]] == ["b5"]
    assert [k["classification"] for k in d["kpis"]] == ["repeat", "insufficient_data"]
    assert {k["snapshotAt"] for k in d["kpis"]} == {d["representativeSnapshotAt"]}
    old = data(fresh, f"/api/stats/epochs/{gov.e1}")
    assert old["representativeSnapshotAt"] is None and old["votes"] == [] and old["kpis"] == []
    assert [b["id"] for b in old["bribes"]] == ["b4", "b3", "b2"]
    for bad in (gov.e0 + 3600, gov.e0 - 1, -WEEK, "abc"):
        error(fresh, f"/api/stats/epochs/{bad}", 400, "invalid_epoch")
