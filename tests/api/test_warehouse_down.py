"""The warehouse stops under a running API, then comes back: 500 `<route>_query_failed`, health
503, then normal answers again without restarting the API."""
from __future__ import annotations


def test_warehouse_stops_and_returns(fresh, warehouse):
    assert fresh.get("/api/stats/protocol").status_code == 200  # connected and cached
    warehouse.stop()
    try:
        for path, code in (
            ("/api/stats/protocol", "protocol_query_failed"),
            ("/api/stats/protocol/history", "protocol_history_query_failed"),
            ("/api/stats/protocol/daily?days=7", "protocol_daily_query_failed"),
            ("/api/stats/config", "config_query_failed"),
        ):
            r = fresh.get(path)
            assert r.status_code == 500, r.text
            assert r.json()["error"]["code"] == code
            assert r.headers["access-control-allow-origin"] == "*"
        health = fresh.get("/api/stats/health")
        assert health.status_code == 503
        assert health.json()["error"]["details"]["reason"] == "warehouse_unreachable"
        assert "protocol_query_failed" in fresh.server.log()  # one readable line per failure
    finally:
        warehouse.start()
    assert fresh.get("/api/stats/protocol").status_code == 200
    assert fresh.get("/api/stats/health").status_code == 200
