"""The warehouse stops under a running API, then comes back. Answers already cached for the
latest known snapshot keep being served (the worker's snapshot pointer needs no warehouse, and
`meta.snapshotAt` says how old they are); anything that needs a query answers 500
`<route>_query_failed`; health 503; then normal answers again without restarting the API."""
from __future__ import annotations


def test_warehouse_stops_and_returns(fresh, warehouse):
    cached = fresh.get("/api/stats/protocol")
    assert cached.status_code == 200  # connected and cached
    warehouse.stop()
    try:
        again = fresh.get("/api/stats/protocol")
        assert again.status_code == 200 and again.content == cached.content
        # parameter values no other test asks for: not in the cache, so they need the warehouse
        for path, code in (
            ("/api/stats/protocol/history?days=29", "protocol_history_query_failed"),
            ("/api/stats/protocol/daily?days=13", "protocol_daily_query_failed"),
        ):
            r = fresh.get(path)
            assert r.status_code == 500, r.text
            assert r.json()["error"]["code"] == code
            assert r.headers["access-control-allow-origin"] == "*"
        health = fresh.get("/api/stats/health")
        assert health.status_code == 503
        assert health.json()["error"]["details"]["reason"] == "warehouse_unreachable"
        assert "protocol_history_query_failed" in fresh.server.log()  # one readable line per failure
    finally:
        warehouse.start()
    assert fresh.get("/api/stats/protocol/history?days=29").status_code == 200
    assert fresh.get("/api/stats/health").status_code == 200
