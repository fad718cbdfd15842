"""The code location loads; schedules request the right partitions and skip while busy."""
from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest

from support.chains import with_example_book

REPO = Path(__file__).resolve().parents[2]


def utc(*args) -> datetime:
    return datetime(*args, tzinfo=timezone.utc)


@pytest.fixture(scope="module")
def defs(tmp_path_factory):
    from ve_analytics.core.config import Settings
    from ve_analytics.orchestration.definitions import build_defs

    settings = dataclasses.replace(Settings.from_env(), snapshot_partition_days=92)
    return build_defs(with_example_book(settings, tmp_path_factory.mktemp("book")))


def test_code_location_exports_jobs_schedules_sensors_and_checks(defs):
    from ve_analytics.orchestration.definitions import defs as module_defs

    for d in (defs, module_defs):
        assert {j.name for j in d.jobs} >= {"snapshot_job", "history_job"}
        assert {s.name for s in d.schedules} == {"snapshot_schedule", "history_schedule"}
        assert {s.name for s in d.sensors} == {"snapshot_failure_sensor"}
    snapshot = defs.resolve_job_def("snapshot_job")
    history = defs.resolve_job_def("history_job")
    # bounded: 92 days (+ today) of daily snapshot partitions, each holding 96 snapshots; history is daily
    assert len(snapshot.partitions_def.get_partition_keys()) == 93
    assert snapshot.partitions_def.get_partition_keys()[-1] == datetime.now(timezone.utc).strftime("%Y-%m-%d")
    assert history.partitions_def.get_partition_keys()[-1] == datetime.now(timezone.utc).strftime("%Y-%m-%d")
    checks = {key.name for key in defs.resolve_asset_graph().asset_check_keys}
    assert checks == {"protocol_snapshot_fresh", "published_snapshot_row_counts", "protocol_tvl_reconciles_with_pools",
                      "protocol_daily_reconciles_with_hourly", "hourly_buckets_complete", "governance_snapshots_consistent",
                      "core_token_factsheet_consistent", "governance_events_in_their_epochs",
                      "vault_snapshots_consistent", "vault_hourly_buckets_final"}


def test_workspace_yaml_loads_the_code_location(tmp_path):
    env = {**os.environ, "DAGSTER_HOME": str(tmp_path)}
    out = subprocess.run(
        [str(Path(sys.executable).parent / "dagster"), "definitions", "validate", "-w", "workspace.yaml"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=120,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert "passed validation" in out.stderr + out.stdout


def test_snapshot_schedule_requests_the_snapshot_that_is_due_and_skips_while_running(defs, tmp_path):
    from dagster import DagsterInstance, DagsterRun, DagsterRunStatus, build_schedule_context

    schedule = defs.resolve_schedule_def("snapshot_schedule")
    assert schedule.cron_schedule == "*/15 * * * *"
    with DagsterInstance.local_temp(str(tmp_path)) as instance:
        ctx = build_schedule_context(instance=instance, repository_def=defs.get_repository_def(), scheduled_execution_time=utc(2026, 11, 20, 12, 15, 4))
        (request,) = schedule.evaluate_tick(ctx).run_requests
        assert request.partition_key == "2026-11-20"  # its day partition, bounded to the 12:15 snapshot
        assert request.tags["ve/snapshots_from"] == request.tags["ve/snapshots_until"] == "2026-11-20T12:15:00Z"
        midnight = build_schedule_context(instance=instance, repository_def=defs.get_repository_def(),
                                          scheduled_execution_time=utc(2026, 11, 21, 0, 0, 3))
        (last,) = schedule.evaluate_tick(midnight).run_requests
        assert last.partition_key == "2026-11-20" and last.tags["ve/snapshots_until"] == "2026-11-21T00:00:00Z"
        instance.add_run(DagsterRun(job_name="snapshot_job", run_id="busy", status=DagsterRunStatus.STARTED))
        result = schedule.evaluate_tick(ctx)
        assert not result.run_requests and "in progress" in result.skip_message


def test_history_schedule_requests_the_day_of_the_hour_that_just_ended(defs, tmp_path):
    from dagster import DagsterInstance, build_schedule_context

    schedule = defs.resolve_schedule_def("history_schedule")
    assert schedule.cron_schedule == "1 * * * *"
    with DagsterInstance.local_temp(str(tmp_path)) as instance:
        midday = schedule.evaluate_tick(build_schedule_context(instance=instance, repository_def=defs.get_repository_def(), scheduled_execution_time=utc(2026, 11, 20, 13, 1)))
        after_midnight = schedule.evaluate_tick(build_schedule_context(instance=instance, repository_def=defs.get_repository_def(), scheduled_execution_time=utc(2026, 11, 21, 0, 1)))
        one_am = schedule.evaluate_tick(build_schedule_context(instance=instance, repository_def=defs.get_repository_def(), scheduled_execution_time=utc(2026, 11, 21, 1, 1)))
    assert [r.partition_key for r in midday.run_requests] == ["2026-11-20"]
    assert [r.partition_key for r in after_midnight.run_requests] == ["2026-11-20"]  # completes yesterday
    assert [r.partition_key for r in one_am.run_requests] == ["2026-11-20", "2026-11-21"]  # late hours too


def test_failure_sensor_reads_the_snapshot_times_of_a_run():
    from ve_analytics.assets.partitions import day_start_of
    from ve_analytics.orchestration.sensors import snapshot_times_of_run

    day = day_start_of("2026-11-20")
    one = snapshot_times_of_run({"dagster/partition": "2026-11-20", "ve/snapshots_from": "2026-11-20T12:15:00Z",
                                 "ve/snapshots_until": "2026-11-20T12:15:00Z"})
    assert one == [day + 12 * 3600 + 900]
    many = snapshot_times_of_run({"dagster/asset_partition_range_start": "2026-11-20",
                                  "dagster/asset_partition_range_end": "2026-11-21",
                                  "ve/snapshots_from": "2026-11-20T23:30:00Z",
                                  "ve/snapshots_until": "2026-11-21T00:15:00Z"})
    assert [t - day for t in many] == [84600, 85500, 86400, 87300]
    unbounded = snapshot_times_of_run({"dagster/partition": "2026-11-20"}, created_at=day + 3600 + 60)
    assert [t - day for t in unbounded] == [900, 1800, 2700, 3600]  # up to the run's creation
    assert snapshot_times_of_run({}) == []
