"""The protocol routes against the crafted snapshot rows (and the SQL files run directly, as an
analyst would)."""
from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

from ve_analytics.core.epochs import DAY, HOUR, QUARTER_HOUR, epoch_start, iso
from ve_analytics.warehouse.client import ANALYST, get_client

QUERIES = Path(__file__).resolve().parents[2] / "warehouse_sql" / "queries" / "stats"


def test_protocol_is_the_latest_successful_snapshot(fresh, fresh_data):
    body = fresh.get("/api/stats/protocol").json()
    data = body["data"]
    assert body["meta"]["snapshotAt"] == data["snapshotAt"] == iso(fresh_data.latest)
    # the newer failed run and the other chain's run are invisible; FINAL serves the newer row version
    assert data["tvlUsd"] == 2_000_000.0
    assert data["tvlV2Usd"] == 1_200_000.0 and data["tvlV3Usd"] == 800_000.0
    assert data["blockNumber"] == 1_000_000 + fresh_data.latest // 3
    assert data["poolCount"] == 3
    assert data["volume24hUsd"] == 1234.5 and data["fees24hUsd"] == 3.75
    assert data["volume7dUsd"] == 8000.25 and data["fees7dUsd"] == 24.0
    assert data["volume30dUsd"] == 30000.0 and data["fees30dUsd"] == 90.0
    assert data["activeGaugeCount"] == 7
    assert data["epochStart"] == epoch_start(fresh_data.latest)
    assert data["emissionsThisEpochRaw"] == str(fresh_data.emissions_raw)  # > 2**64, exact
    assert abs(data["emissionsThisEpoch"] - fresh_data.emissions_raw / 1e18) < 1e-6
    assert data["veTotalLockedRaw"] == str(fresh_data.ve_locked_raw) and data["veTotalLocked"] == 5_000_000.0
    assert data["veVotingPowerRaw"] is None and data["veVotingPower"] is None  # unknown is null, not 0
    assert data["corePriceUsd"] == 2.5


def test_flow_windows_say_what_was_summed(fresh, fresh_data):
    windows = fresh.get("/api/stats/protocol").json()["data"]["flowWindows"]
    end = fresh_data.window_end
    for label, seconds, covered in (("24h", DAY, 24), ("7d", 7 * DAY, 168), ("30d", 30 * DAY, 700)):
        w = windows[label]
        assert w["toExclusive"] == iso(end) and w["from"] == iso(end - seconds)
        assert w["durationSeconds"] == seconds and w["anchor"] == "latest_completed_hour"
        assert w["hoursExpected"] == seconds // HOUR and w["hoursCovered"] == covered
        assert w["complete"] is (covered == seconds // HOUR)


def test_history_is_chronological_windowed_and_successful_only(fresh, fresh_data):
    latest = fresh_data.latest
    for days in (1, 2):
        points = fresh.get(f"/api/stats/protocol/history?days={days}").json()["data"]
        times = [p["snapshotAt"] for p in points]
        expected = [iso(t) for t in fresh_data.published if latest - days * DAY < t <= latest]
        assert times == expected  # ascending, (latest - days, latest], no failed run
        assert iso(latest - days * DAY) not in times  # the window is open at its start
        for failed in fresh_data.failed:
            assert iso(failed) not in times
    points = fresh.get("/api/stats/protocol/history?days=1").json()["data"]
    by_time = {p["snapshotAt"]: p for p in points}
    gap = iso(fresh_data.without_protocol_row)
    assert by_time[gap] == {"snapshotAt": gap, "tvlUsd": None, "volume24hUsd": None, "fees24hUsd": None, "corePriceUsd": None}
    last = points[-1]
    assert last == {"snapshotAt": iso(latest), "tvlUsd": 2_000_000.0, "volume24hUsd": 1234.5, "fees24hUsd": 3.75, "corePriceUsd": 2.5}
    assert by_time[iso(latest - QUARTER_HOUR)]["tvlUsd"] == 1_000_000.0 - 1


def test_daily_lists_every_day_with_nulls_and_one_partial_day(fresh, fresh_data):
    day = fresh_data.snapshot_day
    rows = fresh.get("/api/stats/protocol/daily?days=5").json()["data"]
    assert [r["date"] for r in rows] == [(day - timedelta(days=n)).isoformat() for n in range(4, -1, -1)]
    assert [r["partial"] for r in rows] == [False, False, False, False, True]
    served = {r["date"]: r for r in rows}
    for iso_day, (volume, fees, hours) in fresh_data.daily.items():
        if iso_day in served:
            assert (served[iso_day]["volumeUsd"], served[iso_day]["feesUsd"], served[iso_day]["hoursCovered"]) == (volume, fees, hours)
    missing = [(day - timedelta(days=n)).isoformat() for n in (1, 4)]
    for iso_day in missing:
        assert served[iso_day] == {"date": iso_day, "volumeUsd": None, "feesUsd": None, "hoursCovered": None, "partial": False}


def test_daily_default_window_and_range(fresh, fresh_data):
    day = fresh_data.snapshot_day
    rows = fresh.get("/api/stats/protocol/daily").json()["data"]
    assert len(rows) == 30 and rows[-1]["date"] == day.isoformat() and rows[0]["date"] == (day - timedelta(days=29)).isoformat()
    assert (day - timedelta(days=40)).isoformat() not in {r["date"] for r in rows}
    year = fresh.get("/api/stats/protocol/daily?days=365").json()["data"]
    assert len(year) == 365 and sum(r["partial"] for r in year) == 1
    assert date.fromisoformat(year[0]["date"]) == day - timedelta(days=364)
    assert next(r for r in year if r["date"] == (day - timedelta(days=40)).isoformat())["volumeUsd"] == 1.0


def test_analysts_get_the_same_numbers_from_the_same_files(fresh, fresh_settings):
    """README: run latest_snapshot.sql, then the route's file, with the analyst's credentials."""
    client = get_client(fresh_settings, user=ANALYST)
    latest = client.query((QUERIES / "latest_snapshot.sql").read_text(), parameters={"chain_id": 56}).first_row
    row = client.query((QUERIES / "protocol.sql").read_text(), parameters={"chain_id": 56, "snapshot_at": latest[0]}).named_results()
    row = next(iter(row))
    data = fresh.get("/api/stats/protocol").json()["data"]
    assert row["volume24hUsd"] == data["volume24hUsd"] and row["tvlUsd"] == data["tvlUsd"]
    assert row["emissionsThisEpochRaw"] == data["emissionsThisEpochRaw"]
    history = client.query(
        (QUERIES / "protocol_history.sql").read_text(), parameters={"chain_id": 56, "snapshot_at": latest[0], "days": 1}
    ).result_rows
    assert len(history) == len(fresh.get("/api/stats/protocol/history?days=1").json()["data"])
    client.close()
