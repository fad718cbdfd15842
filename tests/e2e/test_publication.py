"""Atomic publication and freshness, end to end: Dagster runs against the devnet, API over HTTP."""
from __future__ import annotations

import pytest

from ve_analytics.core.epochs import iso


@pytest.mark.stale_stack
def test_failed_snapshot_run_leaves_the_api_on_the_previous_snapshot(stack):
    before = stack.get("/api/stats/protocol").json()
    assert before["ok"] is True
    previous = before["meta"]["snapshotAt"]

    from ve_analytics.orchestration.backfill import run_snapshot
    from ve_analytics.readers.graphql import SubgraphError

    stack.fault("subgraph", "error")
    try:
        with pytest.raises(SubgraphError, match="devnet fault injection: subgraph error"):
            run_snapshot(stack.settings)  # the newest snapshot, which is not published yet
    finally:
        stack.fault("subgraph", "ok")

    after = stack.get("/api/stats/protocol")
    assert after.status_code == 200
    assert after.json()["meta"]["snapshotAt"] == previous
    assert after.headers["ETag"] == f'W/"snap-{previous}"'
    history = stack.get("/api/stats/protocol/history?days=1").json()["data"]
    assert history[-1]["snapshotAt"] == previous


@pytest.mark.stale_stack
def test_health_flips_from_503_to_200_when_a_fresh_snapshot_lands(stack):
    stale = stack.get("/api/stats/health")
    assert stale.status_code == 503
    body = stale.json()
    assert body["ok"] is False and body["error"]["code"] == "unhealthy"
    assert stale.headers["Cache-Control"] == "no-store"

    from ve_analytics.orchestration.backfill import run_snapshot
    from ve_analytics.assets.partitions import latest_snapshot_at

    at = latest_snapshot_at()
    run_snapshot(stack.settings, at)
    stack.published_snapshots.append(at)
    fresh = stack.get("/api/stats/health")
    assert fresh.status_code == 200
    data = fresh.json()["data"]
    assert data["healthy"] is True
    assert data["snapshotAt"] == iso(at)
    assert 0 <= data["ageSeconds"] < 45 * 60


def test_etag_and_conditional_requests(fresh):
    r = fresh.get("/api/stats/protocol")
    etag = r.headers["ETag"]
    assert etag == f'W/"snap-{r.json()["meta"]["snapshotAt"]}"'
    assert r.headers["Access-Control-Allow-Origin"] == "*"
    again = fresh.get("/api/stats/protocol")
    assert again.content == r.content  # identical bytes within one snapshot
    not_modified = fresh.get("/api/stats/protocol", headers={"If-None-Match": etag})
    assert not_modified.status_code == 304
    assert not_modified.headers["ETag"] == etag
    assert fresh.get("/api/stats/protocol", headers={"If-None-Match": 'W/"snap-other"'}).status_code == 200


@pytest.mark.disruptive
def test_warehouse_down_gives_the_500_envelope_then_recovers(fresh):
    cached = fresh.get("/api/stats/protocol")
    fresh.warehouse.stop()
    try:
        # an answer cached for the latest known snapshot needs no warehouse (its snapshotAt says how old)
        kept = fresh.get("/api/stats/protocol")
        assert kept.status_code == 200 and kept.json()["meta"]["snapshotAt"] == cached.json()["meta"]["snapshotAt"]
        r = fresh.get("/api/stats/protocol/history?days=23")  # asked by no other test: not cached
        assert r.status_code == 500
        body = r.json()
        assert body["ok"] is False
        assert body["error"]["code"] == "protocol_history_query_failed"
        assert set(body["meta"]) >= {"chainId", "generatedAt", "source"}
        assert "Traceback" not in r.text
        health = fresh.get("/api/stats/health")
        assert health.status_code == 503
        assert health.json()["ok"] is False and health.json()["error"]["code"] == "unhealthy"
    finally:
        fresh.warehouse.start()
    back = fresh.get("/api/stats/protocol/history?days=23")
    assert back.status_code == 200, back.text
    assert back.json()["data"][-1]["snapshotAt"] == back.json()["meta"]["snapshotAt"] == cached.json()["meta"]["snapshotAt"]
