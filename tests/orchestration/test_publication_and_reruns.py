"""Re-materializing does not duplicate rows; a failed snapshot run is never published."""
from __future__ import annotations

import pytest

from ve_analytics.core.epochs import DAY, QUARTER_HOUR

DATA_TABLES = ("pool_hourly", "protocol_hourly", "pool_daily", "protocol_daily",
               "protocol_snap15m", "pool_snap15m", "token_snap15m",
               "bribe_events", "vote_events", "claim_events", "ve_snap15m", "gauge_snap15m", "foundation_snap15m",
               "foundation_vote_snap15m", "kpi_snap15m", "vault_snap15m", "vault_hourly", "vault_daily",
               "vault_events")


def counts(stack, final: bool) -> dict[str, int]:
    suffix = " FINAL" if final else ""
    return {t: stack.scalar(f"SELECT count() FROM {t}{suffix}") for t in DATA_TABLES}


def test_rematerializing_partitions_does_not_duplicate_rows(stack):
    from ve_analytics.orchestration.backfill import backfill, run_history, run_snapshot
    from ve_analytics.assets.partitions import day_key

    final_before, raw_before = counts(stack, True), counts(stack, False)
    # the same ranges again: identical payloads carry identical dedup tokens, the server drops them
    again = backfill(stack.settings, snapshot_hours=2, progress=None)
    assert again["snapshots"] == 0  # every snapshot of the window is already published
    assert counts(stack, False) == raw_before

    # other ranges over the same partitions: new rows replace old ones (ReplacingMergeTree)
    latest = stack.latest_success()
    yesterday = stack.history_now - stack.history_now % DAY - DAY
    assert run_snapshot(stack.settings, latest) and counts(stack, False) == raw_before  # published: left alone
    run_snapshot(stack.settings, latest, force=True)
    run_snapshot(stack.settings, latest - QUARTER_HOUR, force=True)
    run_history(stack.settings, day_key(yesterday))
    assert counts(stack, True) == final_before
    with stack.client() as client:
        for table in DATA_TABLES + ("snapshot_runs",):
            client.command(f"OPTIMIZE TABLE {table} FINAL")
    assert counts(stack, False) == counts(stack, True) == final_before
    # a re-run is one more successful attempt for the same snapshot, still one snapshot
    assert stack.scalar("SELECT uniqExact(snapshot_at) FROM snapshot_runs FINAL WHERE status = 'success'") == len(
        stack.backfill_summary["published"])


def test_backfill_spreads_large_ranges_over_worker_processes(stack):
    from dagster import DagsterRunStatus

    from ve_analytics.orchestration.backfill import backfill, dagster_instance

    before = stack.scalar("SELECT uniqExact(snapshot_at) FROM snapshot_runs FINAL WHERE status = 'success'")
    lines: list[str] = []
    # one more hour of older snapshots, two snapshots per run, two worker processes
    summary = backfill(stack.settings, snapshot_hours=3, chunk_days=2 / 96, workers=2, progress=lines.append)
    assert summary["snapshots"] == 4 and len(summary["snapshot_run_ids"]) == 2
    assert lines[-2].startswith("snapshots 4/4 (100%)")
    published = {r[0] for r in stack.query(
        "SELECT toInt64(toUnixTimestamp(snapshot_at)) FROM snapshot_runs FINAL WHERE status = 'success'")}
    assert set(summary["published"]) <= published and len(published) == before + 4
    with dagster_instance(stack.settings) as instance:
        assert all(instance.get_run_by_id(r).status == DagsterRunStatus.SUCCESS for r in summary["snapshot_run_ids"])


def test_publication_refuses_when_the_snapshot_assets_did_not_run(stack):
    from dagster import AssetKey

    from ve_analytics.orchestration.backfill import dagster_instance
    from ve_analytics.orchestration.definitions import build_defs
    from ve_analytics.assets.partitions import snapshot_day_key, snapshot_tags

    target = stack.latest_success() + QUARTER_HOUR  # not materialized yet
    job = build_defs(stack.settings).resolve_job_def("snapshot_job")
    with dagster_instance(stack.settings) as instance:
        result = job.execute_in_process(
            instance=instance, partition_key=snapshot_day_key(target), tags=snapshot_tags(target, target),
            asset_selection=[AssetKey("snapshot_publication")], raise_on_error=False)
    assert not result.success
    statuses = stack.query("SELECT status, error FROM snapshot_runs FINAL "
                           "WHERE snapshot_at = toDateTime64({t:Int64}, 3, 'UTC')", t=target)
    assert [s for s, _ in statuses] == ["failed"] and "refusing to publish" in statuses[0][1]


def test_failed_snapshot_run_is_recorded_and_never_published(stack):
    from ve_analytics.orchestration.backfill import run_snapshot

    previous = stack.latest_success()
    stack.advance_clock(QUARTER_HOUR)  # the next 15-minute boundary has passed on the devnet
    target = previous + QUARTER_HOUR
    stack.fault("subgraph", "error")
    try:
        with pytest.raises(Exception):
            run_snapshot(stack.settings, target)
    finally:
        stack.fault("subgraph", "ok")

    assert stack.latest_success() == previous  # readers keep serving the previous snapshot
    rows = stack.query("SELECT status, error FROM snapshot_runs FINAL "
                       "WHERE snapshot_at = toDateTime64({t:Int64}, 3, 'UTC')", t=target)
    assert rows and {s for s, _ in rows} == {"failed"}
    assert any("subgraph" in error for _, error in rows)

    run_id = run_snapshot(stack.settings, target)  # the upstream recovered
    assert stack.latest_success() == target
    ok = stack.query("SELECT run_id FROM snapshot_runs FINAL WHERE status = 'success' "
                     "AND snapshot_at = toDateTime64({t:Int64}, 3, 'UTC')", t=target)
    assert ok == [(run_id,)]
