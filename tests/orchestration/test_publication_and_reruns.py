"""Re-running backfills and re-materializing do not duplicate rows; a failed snapshot run is never published."""
from __future__ import annotations

import pytest

from ve_analytics.core.epochs import DAY, QUARTER_HOUR

DATA_TABLES = ("pool_hourly", "protocol_hourly", "pool_daily", "protocol_daily",
               "protocol_snap15m", "pool_snap15m", "token_snap15m",
               "bribe_events", "vote_events", "claim_events", "ve_snap15m", "gauge_snap15m", "foundation_snap15m",
               "foundation_vote_snap15m", "kpi_snap15m", "vault_snap15m", "vault_hourly", "vault_daily",
               "pool_tick_snap15m", "venft_snap15m", "liquidity_position_snap15m",
               "vault_events", "escrow_events", "account_events", "liquidity_events", "rebase_epochs",
               "venft_rebases", "rebase_claims")
HISTORY_TABLES = tuple(t for t in DATA_TABLES if not t.endswith("_snap15m"))


def counts(stack, final: bool) -> dict[str, int]:
    suffix = " FINAL" if final else ""
    return {t: stack.scalar(f"SELECT count() FROM {t}{suffix}") for t in DATA_TABLES}


def published(stack, chain_id: int = 56) -> set[int]:
    return {r[0] for r in stack.query(
        "SELECT toInt64(toUnixTimestamp(snapshot_at)) FROM snapshot_runs FINAL WHERE chain_id = {c:UInt32} "
        "AND status = 'success'", c=chain_id)}


def test_rerunning_the_backfill_duplicates_nothing_and_adds_only_unpublished_snapshots(stack):
    from dagster import DagsterRunStatus

    from ve_analytics.orchestration.backfill import backfill
    from ve_analytics.orchestration.instance import dagster_instance

    final_before, published_before = counts(stack, True), published(stack)
    lines: list[str] = []
    # the same history of chain 56 again (the other chains take the same path), and the snapshots of
    # the session's 2 hours plus one older hour
    again = backfill(stack.settings, chains=[56], snapshot_hours=3, progress=lines.append, timeout=600)["chains"][56]
    # history: only the newest days are read again (every asset materialized the others); their
    # rows replace the stored ones
    assert again["history_days"] == 2
    final_after = counts(stack, True)
    assert {t: final_after[t] for t in HISTORY_TABLES} == {t: final_before[t] for t in HISTORY_TABLES}
    # snapshots: the published ones are left out; of the 4 older ones the newest is taken first,
    # the 3 others make the backfill's one run
    assert again["snapshots"] == 4 and len(again["snapshot_run_ids"]) == 2
    assert any(line.startswith("chain 56: upstream at") and "4 snapshots to take" in line for line in lines)
    assert any(f"chain 56 done ({again['history_days']} history days, 4 snapshots)" in line for line in lines)
    assert lines[-1].startswith("backfill done in ")
    assert published(stack) == published_before | set(again["published"])
    assert not published_before & set(again["published"])
    with dagster_instance(stack.settings) as instance:
        run = instance.get_run_by_id(again["snapshot_run_ids"][1])
        assert run.status == DagsterRunStatus.SUCCESS and run.tags["dagster/backfill"] == again["backfill_ids"][0]


def test_session_backfills_show_as_completed_with_every_partition_successful(stack):
    """What the UI's backfill page reads (GraphQL): status and per-partition run status. The
    daemon marks a backfill completed on its pass after the last run (every 30 s); the backfill
    of the previous test has made it pass since the session's."""
    import time

    from ve_analytics.readers.dagster_webserver import Webserver

    s = stack.backfill_summary["chains"][56]
    assert s["backfill_ids"]
    with Webserver(stack.settings.dagster_url) as web:
        for backfill_id in s["backfill_ids"]:
            deadline = time.monotonic() + 90
            while (state := web.backfill(backfill_id))["status"] == "REQUESTED" and time.monotonic() < deadline:
                time.sleep(1)
            assert state["status"] == "COMPLETED_SUCCESS", state
            assert state["numPartitions"] > 0 and state["partitionStatusCounts"] == {"SUCCESS": state["numPartitions"]}


def test_rematerializing_partitions_does_not_duplicate_rows(stack):
    from ve_analytics.orchestration.backfill import run_history, run_snapshot
    from ve_analytics.assets.partitions import day_key

    final_before, raw_before = counts(stack, True), counts(stack, False)
    snapshots_before = len(published(stack))
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
    assert len(published(stack)) == snapshots_before


def test_publication_refuses_when_the_snapshot_assets_did_not_run(stack):
    from dagster import AssetKey

    from ve_analytics.orchestration.definitions import build_defs
    from ve_analytics.orchestration.instance import dagster_instance
    from ve_analytics.assets.partitions import snapshot_day_key, snapshot_tags

    target = stack.latest_success() + QUARTER_HOUR  # not materialized yet
    job = build_defs(stack.settings).resolve_job_def("snapshot_job_56")
    with dagster_instance(stack.settings) as instance:
        result = job.execute_in_process(
            instance=instance, partition_key=snapshot_day_key(target), tags=snapshot_tags(target, target),
            asset_selection=[AssetKey(["chain_56", "snapshot_publication"])], raise_on_error=False)
    assert not result.success
    statuses = stack.query("SELECT status, error FROM snapshot_runs FINAL "
                           "WHERE chain_id = 56 AND snapshot_at = toDateTime64({t:Int64}, 3, 'UTC')", t=target)
    assert [s for s, _ in statuses] == ["failed"] and "refusing to publish" in statuses[0][1]


def test_failed_snapshot_run_is_recorded_and_never_published(stack):
    from ve_analytics.orchestration.backfill import run_snapshot
    from ve_analytics.readers.graphql import SubgraphError

    previous = stack.latest_success()
    stack.advance_clock(QUARTER_HOUR)  # the next 15-minute boundary has passed on the devnet
    target = previous + QUARTER_HOUR
    stack.fault("subgraph", "error")
    try:
        with pytest.raises(SubgraphError, match="devnet fault injection: subgraph error"):
            run_snapshot(stack.settings, target)
    finally:
        stack.fault("subgraph", "ok")

    assert stack.latest_success() == previous  # readers keep serving the previous snapshot
    rows = stack.query("SELECT status, error FROM snapshot_runs FINAL "
                       "WHERE chain_id = 56 AND snapshot_at = toDateTime64({t:Int64}, 3, 'UTC')", t=target)
    assert rows and {s for s, _ in rows} == {"failed"}
    assert any("subgraph" in error for _, error in rows)

    run_id = run_snapshot(stack.settings, target)  # the upstream recovered
    assert stack.latest_success() == target
    ok = stack.query("SELECT run_id FROM snapshot_runs FINAL WHERE chain_id = 56 AND status = 'success' "
                     "AND snapshot_at = toDateTime64({t:Int64}, 3, 'UTC')", t=target)
    assert ok == [(run_id,)]
