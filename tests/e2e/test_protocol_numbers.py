"""Protocol numbers served by the API against the devnet's independent ground truth."""
from __future__ import annotations

from datetime import datetime

import pytest

from ve_analytics.core.epochs import DAY, HOUR, QUARTER_HOUR

REL = 1e-9


def unix(text: str) -> int:
    return int(datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp())


def close(a: float, b: float) -> bool:
    return abs(a - b) <= REL * max(abs(a), abs(b), 1e-12)


@pytest.mark.parametrize("label, seconds", [("24h", DAY), ("7d", 7 * DAY), ("30d", 30 * DAY)])
def test_rolling_volume_and_fees_equal_ground_truth(fresh, label, seconds):
    r = fresh.get("/api/stats/protocol")
    assert r.status_code == 200
    data = r.json()["data"]
    window = data["flowWindows"][label]
    start, end = unix(window["from"]), unix(window["toExclusive"])
    assert end - start == seconds == window["durationSeconds"]
    assert window["anchor"] == "latest_completed_hour"
    # the window ends at the newest completed hour the snapshot could see, not at request time
    snap = unix(data["snapshotAt"])
    assert end % HOUR == 0 and snap - 2 * HOUR <= end <= snap
    assert window["hoursCovered"] == window["hoursExpected"] == seconds // HOUR
    assert window["complete"] is True

    truth = fresh.truth("flows", **{"from": start, "to": end})
    suffix = {"24h": "24h", "7d": "7d", "30d": "30d"}[label]
    assert truth["swapCount"] > 0
    assert close(data[f"volume{suffix}Usd"], truth["volumeUsd"]), (data[f"volume{suffix}Usd"], truth)
    assert close(data[f"fees{suffix}Usd"], truth["feesUsd"]), (data[f"fees{suffix}Usd"], truth)


def test_state_figures_equal_ground_truth_at_the_snapshot_block(fresh):
    data = fresh.get("/api/stats/protocol").json()["data"]
    truth = fresh.truth("state", block=data["blockNumber"])
    assert close(data["tvlUsd"], truth["tvlUsd"])
    assert close(data["tvlV2Usd"], truth["tvlV2Usd"])
    assert close(data["tvlV3Usd"], truth["tvlClUsd"])
    assert close(data["tvlV2Usd"] + data["tvlV3Usd"], data["tvlUsd"])
    assert data["activeGaugeCount"] == truth["activeGaugeCount"]
    assert data["emissionsThisEpochRaw"] == truth["weeklyEmissions"]
    assert data["veTotalLockedRaw"] == truth["veSupply"]
    assert data["veVotingPowerRaw"] == truth["veVotingPower"]
    assert close(data["veTotalLocked"], int(truth["veSupply"]) / 1e18)
    assert close(data["corePriceUsd"], truth["corePriceUsd"])
    assert data["epochStart"] % (7 * DAY) == 0
    assert data["epochStart"] <= unix(data["snapshotAt"]) < data["epochStart"] + 7 * DAY


def test_history_returns_every_published_snapshot_in_order(fresh):
    latest = unix(fresh.get("/api/stats/protocol").json()["meta"]["snapshotAt"])
    points = fresh.get("/api/stats/protocol/history?days=1").json()["data"]
    times = [unix(p["snapshotAt"]) for p in points]
    assert times == sorted(times) and len(set(times)) == len(times)
    assert times[-1] == latest
    assert all(latest - DAY < t <= latest for t in times)
    expected = set(fresh.published_snapshots) 
    expected = {t for t in expected if latest - DAY < t <= latest}
    assert set(times) == expected
    assert all(t % QUARTER_HOUR == 0 for t in times)
    # each point carries the same numbers as the full snapshot of that time
    last = points[-1]
    full = fresh.get("/api/stats/protocol").json()["data"]
    assert last["tvlUsd"] == full["tvlUsd"] and last["volume24hUsd"] == full["volume24hUsd"]


def test_daily_rows_marks_only_the_current_utc_day_partial(fresh):
    body = fresh.get("/api/stats/protocol/daily?days=5").json()
    rows = body["data"]
    snapshot_day = body["meta"]["snapshotAt"][:10]
    assert [r["date"] for r in rows] == sorted(r["date"] for r in rows)
    assert len(rows) == 5 and rows[-1]["date"] == snapshot_day
    assert [r["partial"] for r in rows] == [False] * 4 + [True]
    for row in rows[:-1]:  # complete days equal the devnet's totals for that UTC day
        start = unix(row["date"] + "T00:00:00Z")
        truth = fresh.truth("flows", **{"from": start, "to": start + DAY})
        assert row["hoursCovered"] == 24
        assert close(row["volumeUsd"], truth["volumeUsd"]) and close(row["feesUsd"], truth["feesUsd"])
