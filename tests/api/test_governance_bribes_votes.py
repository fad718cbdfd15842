"""Governance routes (bribes, votes, vote escrow, epochs) against crafted event and snapshot rows.

The rows are `governance_seed.py`'s, written with the `fresh` scenario. Every response is
validated against the OpenAPI contract by the `Api` helper.
"""
from __future__ import annotations

import json

import pytest
from governance_seed import E18, POOL_A, POOL_C, WALLET, Gov

from ve_analytics.core.epochs import LAST_EPOCH_START, WEEK


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


# ------------------------------------------------------------------------------ bribes


def test_bribes_are_newest_first_bounded_by_the_snapshot_and_final(fresh, gov):
    rows = data(fresh, "/api/stats/bribes")
    assert [r["id"] for r in rows] == ["b5", "b4", "b3", "b2", "b1"]
    b3 = rows[2]
    assert b3["amountUsd"] == 30.0 and b3["epoch"] == gov.e1 and b3["poolAddress"] == POOL_C
    assert b3["amountRaw"] == str(5 * E18) and b3["amount"] == 5.0 and b3["tokenSymbol"] == "USDT"
    assert rows[1]["amount"] == pytest.approx(0.3)
    assert rows[0]["isFoundation"] is True and rows[0]["sender"] == WALLET


@pytest.mark.parametrize("limit, status, count", [("0", 400, 0), ("1", 200, 1), ("1000", 200, 5), ("1001", 400, 0)])
def test_bribes_limit(fresh, gov, limit, status, count):
    r = fresh.get(f"/api/stats/bribes?limit={limit}")
    assert r.status_code == status
    if status == 200:
        assert [b["id"] for b in r.json()["data"]] == ["b5", "b4", "b3", "b2", "b1"][:count]
    else:
        assert r.json()["error"]["code"] == "invalid_limit"


def test_bribes_epoch_filter_takes_epoch_starts_only(fresh, gov):
    assert [r["id"] for r in data(fresh, f"/api/stats/bribes?epoch={gov.e1}")] == ["b4", "b3", "b2"]
    assert data(fresh, "/api/stats/bribes?epoch=0") == []
    for bad in (gov.e1 + 1, gov.e1 - 86400, -WEEK, "x", ""):
        error(fresh, f"/api/stats/bribes?epoch={bad}", 400, "invalid_epoch")


def test_bribes_foundation_only_accepts_true_and_1(fresh, gov):
    for value in ("true", "1"):
        assert [r["id"] for r in data(fresh, f"/api/stats/bribes?foundationOnly={value}")] == ["b5", "b2"]
    for value in ("false", "0"):
        assert len(data(fresh, f"/api/stats/bribes?foundationOnly={value}")) == 5
    error(fresh, "/api/stats/bribes?foundationOnly=yes", 400, "invalid_foundation_only")


def test_pool_bribes_is_exactly_bribes_with_pool(fresh, gov):
    for query in ("", "&limit=1", f"&epoch={gov.e1}", "&foundationOnly=true", "&foundationOnly=1&limit=1000"):
        alias = fresh.get(f"/api/stats/pools/{POOL_A}/bribes" + query.replace("&", "?", 1))
        plain = fresh.get(f"/api/stats/bribes?pool={POOL_A}" + query)
        assert alias.status_code == plain.status_code == 200
        assert json.dumps(alias.json()["data"]) == json.dumps(plain.json()["data"])
    assert [r["id"] for r in data(fresh, f"/api/stats/pools/{POOL_A.upper().replace('0X', '0x')}/bribes")] == ["b5", "b2", "b1"]
    error(fresh, "/api/stats/pools/0x123/bribes", 400, "invalid_pool_id")
    error(fresh, "/api/stats/pools/not-a-pool/bribes", 400, "invalid_pool_id")
    error(fresh, "/api/stats/bribes?pool=0x123", 400, "invalid_pool")


def test_bribe_totals_one_row_per_epoch_newest_first(fresh, gov):
    rows = data(fresh, "/api/stats/bribes/totals")
    assert rows == [
        {"epochStart": gov.e0, "totalUsd": 40.0, "count": 1},
        {"epochStart": gov.e1, "totalUsd": 51.5, "count": 3},
        {"epochStart": gov.e2, "totalUsd": 10.0, "count": 1},
    ]


# ------------------------------------------------------------------------------ votes


def test_votes_latest_only_by_default(fresh, gov):
    rows = data(fresh, "/api/stats/votes")
    assert [(r["veNftId"], r["epoch"], r["poolAddress"]) for r in rows] == [
        (1, gov.e0, POOL_A), (7, gov.e1, POOL_C), (9, gov.e2, POOL_A),
    ]
    assert rows == data(fresh, "/api/stats/votes?latestOnly=true") == data(fresh, "/api/stats/votes?latestOnly=1")
    assert rows[0]["weightRaw"] == str(6 * E18) and rows[0]["weight"] == 6.0 and rows[0]["isFoundation"] is True


def test_votes_full_history_and_filters(fresh, gov):
    rows = data(fresh, "/api/stats/votes?latestOnly=false")
    assert [(r["veNftId"], r["epoch"]) for r in rows] == [(1, gov.e0), (1, gov.e1), (1, gov.e1), (7, gov.e1), (9, gov.e2)]
    assert len(data(fresh, "/api/stats/votes?latestOnly=0")) == 5
    assert [r["poolAddress"] for r in data(fresh, "/api/stats/votes?venftId=1&latestOnly=false")] == [POOL_A, POOL_A, POOL_C]
    assert [r["veNftId"] for r in data(fresh, f"/api/stats/votes?epoch={gov.e1}")] == [1, 1, 7]
    assert [r["veNftId"] for r in data(fresh, f"/api/stats/votes?pool={POOL_C}&latestOnly=false")] == [1, 7]
    assert data(fresh, "/api/stats/votes?venftId=12345") == []


@pytest.mark.parametrize("query, code", [
    ("venftId=abc", "invalid_venft_id"), ("venftId=-1", "invalid_venft_id"), ("venftId=1.5", "invalid_venft_id"),
    ("epoch=1", "invalid_epoch"), ("latestOnly=maybe", "invalid_latest_only"), ("pool=0xzz", "invalid_pool"),
])
def test_votes_validation(fresh, gov, query, code):
    error(fresh, f"/api/stats/votes?{query}", 400, code)


# ------------------------------------------------------------------------------ ve, epochs


def test_ve_stats_of_the_snapshot(fresh, gov):
    ve = data(fresh, "/api/stats/ve")
    assert ve["totalLockedRaw"] == str(700 * E18) and ve["totalLocked"] == 700.0
    assert ve["totalVotingPower"] == 450.0 and ve["permanentLocked"] == 300.0 and ve["decayingLocked"] == 400.0
    assert (ve["lockCount"], ve["permanentLockCount"], ve["decayingLockCount"], ve["expiredLockCount"]) == (12, 2, 9, 1)
    assert ve["averageLockDurationDays"] == 100.0


def test_epochs_newest_first_with_foundation_share_and_top_gauges(fresh, gov):
    rows = data(fresh, "/api/stats/epochs")
    assert [r["epochStart"] for r in rows] == [gov.e0, gov.e1, gov.e2]
    e1 = rows[1]
    assert e1["bribeCount"] == 3 and e1["totalBribesUsd"] == 51.5
    assert e1["foundationBribeCount"] == 1 and e1["foundationBribesUsd"] == 20.0
    assert e1["totalVotesRaw"] == str(8 * E18) and e1["foundationVotesRaw"] == str(4 * E18)
    assert e1["foundationVoteShare"] == 0.5 and e1["gaugeCount"] == 2
    assert [(g["poolAddress"], g["token0Symbol"], g["token1Symbol"], g["votes"]) for g in e1["topGauges"]] == [
        (POOL_C, "CAKE", "WBNB", 5.0), (POOL_A, "WBNB", "USDT", 3.0),
    ]
    e2 = rows[2]
    assert e2["foundationVoteShare"] == 0.0 and e2["foundationBribesUsd"] == 0.0
    assert rows[0]["foundationVoteShare"] == 1.0  # the after-snapshot vote is invisible
    assert [r["epochStart"] for r in data(fresh, "/api/stats/epochs?limit=1")] == [gov.e0]
    assert len(data(fresh, "/api/stats/epochs?limit=52")) == 3
    for bad in ("0", "53"):
        error(fresh, f"/api/stats/epochs?limit={bad}", 400, "invalid_limit")


# ------------------------------------------------------------------------------ bribe market


def test_markets_bribes_default_epoch_is_the_newest_with_bribes(fresh, gov):
    rows = data(fresh, "/api/stats/markets/bribes")
    assert [(r["poolAddress"], r["epoch"]) for r in rows] == [(POOL_A, gov.e0)]
    a = rows[0]
    assert a["totalBribesUsd"] == 40.0 and a["votes"] == 6.0 and a["bribeCount"] == 1
    # the fresh scenario has no pool_hourly rows: fees unknown, so the total and dollarPerVote are null
    assert a["totalFeesUsd"] is None and a["totalRewardUsd"] is None and a["dollarPerVote"] is None


def test_markets_bribes_of_an_epoch(fresh, gov, fresh_settings):
    from ve_analytics.warehouse.client import get_client

    client = get_client(fresh_settings)
    try:  # fees of e1 for POOL_A and POOL_C (POOL_X has none: unknown)
        client.insert("pool_hourly", [[56, POOL_A, _ts(gov.e1 + 3600), 0.0, 10.0, None, 1],
                                      [56, POOL_C, _ts(gov.e1), 0.0, 2.0, None, 1]],
                      column_names=["chain_id", "pool_address", "hour_start", "volume_usd", "fees_usd",
                                    "tvl_usd_close", "tx_count"])
    finally:
        client.close()
    rows = data(fresh, f"/api/stats/markets/bribes?epoch={gov.e1}&limit=500")
    assert [r["poolAddress"] for r in rows] == [POOL_C, POOL_A, "0x" + "e" * 40]  # 32, 30, unknown last
    c, a = rows[0], rows[1]
    assert c["totalRewardUsd"] == 32.0 and c["votes"] == 5.0 and c["dollarPerVote"] == pytest.approx(6.4)
    assert c["token0Symbol"] == "CAKE"
    assert a["totalRewardUsd"] == 30.0 and a["dollarPerVote"] == pytest.approx(10.0)
    assert rows[2]["votes"] == 0 and rows[2]["dollarPerVote"] is None
    assert [r["poolAddress"] for r in data(fresh, f"/api/stats/markets/bribes?epoch={gov.e1}&minUsd=31")] == [POOL_C]
    assert len(data(fresh, f"/api/stats/markets/bribes?epoch={gov.e1}&limit=1")) == 1
    for query, code in (("minUsd=-1", "invalid_min_usd"), ("limit=0", "invalid_limit"), ("limit=501", "invalid_limit"),
                        (f"epoch={gov.e1 + 60}", "invalid_epoch")):
        error(fresh, f"/api/stats/markets/bribes?{query}", 400, code)


def test_an_epoch_past_the_warehouse_time_range_is_a_400_not_a_500(fresh):
    """Found by schemathesis: epoch=10340870400 (year 2297) overflowed the market query's time
    arithmetic (500 markets_bribes_query_failed). Epochs are bounded where that arithmetic ends."""
    assert data(fresh, f"/api/stats/markets/bribes?epoch={LAST_EPOCH_START}") == []
    for path in ("/api/stats/markets/bribes?epoch={e}", "/api/stats/votes?epoch={e}", "/api/stats/epochs/{e}"):
        for epoch in (LAST_EPOCH_START + WEEK, 10340870400):
            error(fresh, path.format(e=epoch), 400, "invalid_epoch")


def _ts(unix: int):
    from datetime import datetime, timezone

    return datetime.fromtimestamp(unix, tz=timezone.utc)
