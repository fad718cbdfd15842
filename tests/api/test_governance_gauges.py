"""Gauge routes against the crafted rows of `governance_seed.py` (written with the `fresh` scenario)."""
from __future__ import annotations

import json

import pytest
from governance_seed import E18, GAUGE, POOL_A, POOL_C, POOL_X, Gov

from ve_analytics.core.epochs import iso

GA = GAUGE[POOL_A]


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


def test_gauges_of_the_snapshot_with_pool_join(fresh, gov):
    rows = data(fresh, "/api/stats/gauges")
    assert [g["gaugeAddress"] for g in rows] == [GAUGE[POOL_X], GA]  # most-voted first; POOL_C's is older
    a = rows[1]
    assert (a["poolAddress"], a["poolType"], a["token0Symbol"], a["token1Symbol"]) == (POOL_A, "v2-volatile", "WBNB", "USDT")
    assert a["votesRaw"] == str(6 * E18) and a["votes"] == 6.0 and a["foundationVoteShare"] == 0.25
    assert a["apr"] == {"emission": 0.5, "fee": 0.1, "bribe": 0.05, "total": 0.65}
    x = rows[0]
    assert x["poolType"] is None and x["token0Symbol"] is None  # the pool has no row in the snapshot
    assert x["apr"]["emission"] is None and x["apr"]["total"] is None  # unknown stays null


def test_gauge_detail_current_and_successful_history(fresh, gov):
    detail = data(fresh, f"/api/stats/gauges/{GA}")
    assert detail["current"]["gaugeAddress"] == GA and detail["current"]["apr"]["emission"] == 0.5
    times = [p["snapshotAt"] for p in detail["history"]]
    expected = [iso(gov.latest - k * 900) for k in (5, 3, 2, 1, 0)]  # oldest first, the failed run left out
    assert times == expected and iso(gov.failed_at) not in times
    assert detail["history"][0]["apr"]["emission"] == pytest.approx(0.55)
    assert data(fresh, f"/api/stats/gauges/{GA.upper().replace('0X', '0x')}") == detail


def test_gauge_detail_errors(fresh, gov):
    error(fresh, "/api/stats/gauges/0x1234", 400, "invalid_gauge_address")
    error(fresh, "/api/stats/gauges/" + "0x" + "0" * 40, 404, "gauge_not_found")
    error(fresh, f"/api/stats/gauges/{GAUGE[POOL_C]}", 404, "gauge_not_found")  # only in an older snapshot


def test_gauge_bribes(fresh, gov):
    assert [b["id"] for b in data(fresh, f"/api/stats/gauges/{GA}/bribes")] == ["b5", "b2", "b1"]
    assert [b["id"] for b in data(fresh, f"/api/stats/gauges/{GA}/bribes?foundationOnly=1")] == ["b5", "b2"]
    assert [b["id"] for b in data(fresh, f"/api/stats/gauges/{GA}/bribes?epoch={gov.e2}")] == ["b1"]
    assert [b["id"] for b in data(fresh, f"/api/stats/gauges/{GA}/bribes?limit=1")] == ["b5"]
    same = fresh.get(f"/api/stats/pools/{POOL_A}/bribes").json()["data"]
    assert json.dumps(data(fresh, f"/api/stats/gauges/{GA}/bribes")) == json.dumps(same)
    for query, code in (("limit=0", "invalid_limit"), ("limit=1001", "invalid_limit"), (f"epoch={gov.e2 + 7}", "invalid_epoch")):
        error(fresh, f"/api/stats/gauges/{GA}/bribes?{query}", 400, code)
    assert data(fresh, "/api/stats/gauges/" + "0x" + "0" * 40 + "/bribes") == []


def test_gauge_rewards_per_epoch_token_by_token(fresh, gov):
    rows = data(fresh, f"/api/stats/gauges/{GA}/rewards")
    assert [r["epochStart"] for r in rows] == [gov.e0, gov.e1, gov.e2]
    e1 = rows[1]
    assert [(t["tokenSymbol"], t["amountUsd"]) for t in e1["bribes"]] == [("USDT", 20.0)]
    assert [(t["tokenSymbol"], t["amount"], t["amountUsd"]) for t in e1["fees"]] == [("WBNB", 2.0, 600.0)]
    assert e1["bribesUsd"] == 20.0 and e1["feesUsd"] == 600.0
    assert rows[2]["fees"] == [] and rows[2]["feesUsd"] == 0  # the e2 fee claim is after the snapshot
    assert [r["epochStart"] for r in data(fresh, f"/api/stats/gauges/{GA}/rewards?limit=1")] == [gov.e0]
    assert len(data(fresh, f"/api/stats/gauges/{GA}/rewards?limit=200")) == 3
    for bad in ("0", "201"):
        error(fresh, f"/api/stats/gauges/{GA}/rewards?limit={bad}", 400, "invalid_limit")
