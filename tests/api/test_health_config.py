"""/health (fresh, stale, no snapshot, no warehouse), /config, and the routes before the first
snapshot or without a warehouse."""
from __future__ import annotations

from support import instant
from ve_analytics.core.epochs import iso
from ve_analytics.core.methodology import METHODOLOGY_VERSION


def test_health_fresh_is_200(fresh, fresh_data):
    r = fresh.get("/api/stats/health")
    assert r.status_code == 200
    data = r.json()["data"]
    assert data["healthy"] is True and data["reason"] == "fresh"
    assert data["snapshotAt"] == iso(fresh_data.latest)
    # the API's clock is frozen at the session's instant: the age does not grow while the session runs
    assert data["ageSeconds"] == instant.AT - fresh_data.latest < 45 * 60 and data["staleAfterMinutes"] == 45
    # the latest attempt is the newer failed run, reported but not decisive
    assert data["lastRun"]["status"] == "failed" and data["lastRun"]["runId"] == "run-newer-failed"
    assert r.headers["cache-control"] == "no-store" and "etag" not in r.headers


def test_health_stale_is_503_unhealthy_with_details(stale):
    r = stale.get("/api/stats/health")
    assert r.status_code == 503
    body = r.json()
    assert body["ok"] is False and body["error"]["code"] == "unhealthy"
    assert "threshold is 45 minutes" in body["error"]["message"]
    details = body["error"]["details"]
    assert details["healthy"] is False and details["reason"] == "stale"
    assert details["ageSeconds"] >= 2 * 3600 and details["snapshotAt"].endswith("Z")
    assert r.headers["cache-control"] == "no-store" and "retry-after" in r.headers
    # the data routes keep serving the old snapshot
    assert stale.get("/api/stats/protocol").status_code == 200


def test_health_without_any_snapshot(empty):
    r = empty.get("/api/stats/health")
    assert r.status_code == 503
    details = r.json()["error"]["details"]
    assert details["reason"] == "no_successful_snapshot" and details["snapshotAt"] is None and details["lastRun"] is None


def test_health_without_a_warehouse(unreachable):
    r = unreachable.get("/api/stats/health")
    assert r.status_code == 503
    error = r.json()["error"]
    assert error["code"] == "unhealthy" and error["details"]["reason"] == "warehouse_unreachable"


def test_routes_before_the_first_snapshot_are_503(empty):
    for path in ("/api/stats/protocol", "/api/stats/protocol/history", "/api/stats/protocol/daily", "/api/stats/config"):
        r = empty.get(path)
        assert r.status_code == 503 and r.json()["error"]["code"] == "snapshot_unavailable"
        assert "etag" not in r.headers
    # validation still comes first
    assert empty.get("/api/stats/protocol/daily?days=0").json()["error"]["code"] == "invalid_days"


def test_routes_without_a_warehouse_are_500_query_failed(unreachable):
    for path, code in (
        ("/api/stats/protocol", "protocol_query_failed"),
        ("/api/stats/protocol/history?days=3", "protocol_history_query_failed"),
        ("/api/stats/protocol/daily", "protocol_daily_query_failed"),
        ("/api/stats/config", "config_query_failed"),
    ):
        r = unreachable.get(path)
        assert r.status_code == 500
        error = r.json()["error"]
        assert error["code"] == code and "retry" in error["message"]
        assert "127.0.0.1" not in r.text and "Error" not in error["message"]  # nothing internal leaks
    # bad input is still a 400, never a 500
    assert unreachable.get("/api/stats/protocol/history?days=999").status_code == 400


def test_config(fresh, fresh_data, fresh_settings):
    body = fresh.get("/api/stats/config").json()
    data = body["data"]
    assert data["chainId"] == 56 and data["methodologyVersion"] == METHODOLOGY_VERSION and data["snapshotIntervalMinutes"] == 15
    assert data["foundation"] == {"wallet": fresh_settings.foundation_wallet, "veNftIds": [1, 2]}  # governance_seed
    assert data["trackedPairs"] == ["cake-wbnb", "wbnb-usdt"]
    assert data["contracts"] == fresh_settings.contracts(56)
    assert data["lastSuccessfulSnapshot"] == {
        "id": fresh_data.latest,
        "snapshotAt": iso(fresh_data.latest),
        "blockNumber": 1_000_000 + fresh_data.latest // 3,
        "runId": "run-0",
    }
    assert body["meta"]["snapshotAt"] == iso(fresh_data.latest)
