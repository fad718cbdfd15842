"""The code location loads; schedules request the right partitions and skip while busy."""
from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest

from support.chains import EXAMPLE_V2_CHAIN, with_example_book

from ve_analytics.core import clock
from ve_analytics.core.epochs import DAY
from ve_analytics.core.partition_keys import day_key, day_start_of

REPO = Path(__file__).resolve().parents[2]


def utc(*args) -> datetime:
    return datetime(*args, tzinfo=timezone.utc)


@pytest.fixture(scope="module")
def defs(tmp_path_factory):
    from ve_analytics.core.config import Settings
    from ve_analytics.orchestration.definitions import build_defs

    # the per-chain defaults, whatever another suite put in the environment
    settings = dataclasses.replace(Settings.from_env(), snapshot_partition_days=0, history_start="")
    return build_defs(with_example_book(settings, tmp_path_factory.mktemp("book"), EXAMPLE_V2_CHAIN))


CHECKS = {"protocol_snapshot_fresh", "published_snapshot_row_counts", "protocol_tvl_reconciles_with_pools",
          "protocol_daily_reconciles_with_hourly", "hourly_buckets_complete", "governance_snapshots_consistent",
          "core_token_factsheet_consistent", "governance_events_in_their_epochs"}
VAULT_CHECKS = {"vault_snapshots_consistent", "vault_hourly_buckets_final"}


def test_every_chain_of_the_book_gets_its_own_assets_jobs_schedules_and_checks(defs):
    assert {j.name for j in defs.jobs} == {"snapshot_job_56", "history_job_56", "snapshot_job_1", "history_job_1",
                                           "curation_job"}
    assert {s.name for s in defs.schedules} == {"snapshot_schedule_56", "history_schedule_56",
                                                "snapshot_schedule_1", "history_schedule_1"}
    assert {s.name for s in defs.sensors} == {"snapshot_failure_sensor", "catchup_sensor_56", "catchup_sensor_1"}
    # the partitions end at the wall clock's day when read (either side of a midnight passing now)
    # and start the chain's snapshot depth + 1 day before the product clock's day (support/instant.py
    # may put it days in the past)
    days = {datetime.now(timezone.utc).strftime("%Y-%m-%d")}
    first_days = {day_key(clock.now() - (snapshot_days + 1) * DAY) for snapshot_days in (30, 7)}
    for cid, snapshot_days in ((56, 30), (1, 7)):
        snapshot = defs.resolve_job_def(f"snapshot_job_{cid}")
        history = defs.resolve_job_def(f"history_job_{cid}")
        assert snapshot.tags["ve/chain"] == history.tags["ve/chain"] == str(cid)
        # bounded: the chain's snapshot depth + 1 day (+ today) of daily partitions of 96 snapshots each
        keys = snapshot.partitions_def.get_partition_keys()
        history_last = history.partitions_def.get_partition_keys()[-1]
        days.add(datetime.now(timezone.utc).strftime("%Y-%m-%d"))
        assert keys[-1] in days and history_last in days
        assert keys[0] in first_days | {day_key(day_start_of(k) + DAY) for k in first_days}
        assert len(keys) == (day_start_of(keys[-1]) - day_start_of(keys[0])) // DAY + 1
        assert {k.path[0] for k in snapshot.asset_layer.selected_asset_keys} == {f"chain_{cid}"}
    # history from the chain's deployment day (the book's deployedAt)
    assert defs.resolve_job_def("history_job_1").partitions_def.get_partition_keys()[0] == "2026-06-01"
    graph = defs.resolve_asset_graph()
    by_chain: dict[str, set[str]] = {}
    for key in graph.asset_check_keys:
        by_chain.setdefault(key.asset_key.path[0], set()).add(key.name)
    assert by_chain == {"chain_56": CHECKS | VAULT_CHECKS, "chain_1": CHECKS}
    # vaults only where the chain supports and configures them, ticks only where it has CL pools (not chain 1),
    # xCORE only where the book names the token
    names = {key.path[0]: set() for key in graph.get_all_asset_keys() if len(key.path) == 2}
    for key in graph.get_all_asset_keys():
        if len(key.path) == 2:
            names[key.path[0]].add(key.path[1])
    assert names["chain_56"] - names["chain_1"] == {"vault_snapshots", "vault_history", "tick_snapshots",
                                                    "xcore_snapshots", "xcore_events"}
    # one curation publication over every chain, in its own group and job, not partitioned
    curation = defs.resolve_job_def("curation_job")
    assert [k.to_user_string() for k in curation.asset_layer.selected_asset_keys] == ["curation_publication"]
    assert curation.partitions_def is None
    assert graph.get(next(iter(curation.asset_layer.selected_asset_keys))).group_name == "curation"


def test_workspace_yaml_loads_the_code_location_of_every_chain_in_the_book(tmp_path):
    book = with_example_book_path(tmp_path)
    env = {**os.environ, "DAGSTER_HOME": str(tmp_path), "CHAIN_BOOK": str(book)}
    out = subprocess.run(
        [str(Path(sys.executable).parent / "dagster"), "definitions", "validate", "-w", "workspace.yaml"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=120,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert "passed validation" in out.stderr + out.stdout
    jobs = subprocess.run(
        [sys.executable, "-c", "from ve_analytics.orchestration.definitions import defs; "
                               "print(sorted(j.name for j in defs.jobs))"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert jobs.stdout.strip() == ("['curation_job', 'history_job_1', 'history_job_56', 'snapshot_job_1', "
                                   "'snapshot_job_56']"), jobs.stderr


def with_example_book_path(folder: Path) -> Path:
    from support.chains import write_example_book

    return write_example_book(folder, dict(EXAMPLE_V2_CHAIN))


@pytest.fixture
def wall_clock(monkeypatch):
    """The product's clock is the wall clock here (Dagster's ticks below are given explicitly)."""
    monkeypatch.setenv(clock.OFFSET_ENV, "0")


def test_snapshot_schedule_requests_the_snapshot_that_is_due_and_skips_while_running(defs, tmp_path, wall_clock):
    from dagster import DagsterInstance, DagsterRun, DagsterRunStatus, build_schedule_context

    schedule = defs.resolve_schedule_def("snapshot_schedule_56")
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
        instance.add_run(DagsterRun(job_name="snapshot_job_1", run_id="other", status=DagsterRunStatus.STARTED))
        assert schedule.evaluate_tick(ctx).run_requests  # another chain's run does not hold this one up
        instance.add_run(DagsterRun(job_name="snapshot_job_56", run_id="busy", status=DagsterRunStatus.STARTED))
        result = schedule.evaluate_tick(ctx)
        assert not result.run_requests and "in progress" in result.skip_message


def test_catchup_sensor_launches_nothing_while_the_chain_is_busy_or_its_upstream_does_not_answer(defs, tmp_path):
    from dagster import DagsterInstance, DagsterRun, DagsterRunStatus, build_sensor_context

    from ve_analytics.assets.resources import WarehouseResource

    sensor = defs.get_repository_def().get_sensor_def("catchup_sensor_56")
    assert sensor.minimum_interval_seconds == 60 and sensor.default_status.value == "RUNNING"
    # the warehouse is never opened on these paths: an unreachable one proves it
    with DagsterInstance.local_temp(str(tmp_path)) as instance, build_sensor_context(
            instance=instance, repository_def=defs.get_repository_def(),
            resources={"warehouse": WarehouseResource(clickhouse_url="http://127.0.0.1:9")}) as ctx:
        result = sensor.evaluate_tick(ctx)  # the example book's endpoints refuse connections
        assert not result.run_requests
        assert "chain 56: the upstream does not answer" in result.skip_message and "127.0.0.1:9" in result.skip_message
        instance.add_run(DagsterRun(job_name="history_job_1", run_id="other", status=DagsterRunStatus.STARTED))
        assert "does not answer" in sensor.evaluate_tick(ctx).skip_message  # another chain's run does not matter
        instance.add_run(DagsterRun(job_name="history_job_56", run_id="busy", status=DagsterRunStatus.STARTED))
        result = sensor.evaluate_tick(ctx)
        assert not result.run_requests and result.skip_message == "history_job_56 run busy is in progress"


def test_schedules_put_their_tick_on_the_product_clock(defs, tmp_path, monkeypatch):
    """A stack whose clock runs a day and a half behind the wall clock (VEA_CLOCK_OFFSET_SECONDS)
    requests the snapshot and the day of its own clock, not of Dagster's wall-clock tick."""
    from dagster import DagsterInstance, build_schedule_context

    monkeypatch.setenv(clock.OFFSET_ENV, str(-(DAY + 12 * 3600)))
    with DagsterInstance.local_temp(str(tmp_path)) as instance:
        def tick(name: str, at: datetime):
            context = build_schedule_context(instance=instance, repository_def=defs.get_repository_def(),
                                             scheduled_execution_time=at)
            return defs.resolve_schedule_def(name).evaluate_tick(context).run_requests

        (snapshot,) = tick("snapshot_schedule_56", utc(2026, 11, 21, 12, 0, 4))  # 2026-11-20 00:00:04 on the clock
        history = tick("history_schedule_1", utc(2026, 11, 21, 13, 1))  # 2026-11-20 01:01
    assert snapshot.partition_key == "2026-11-19" and snapshot.tags["ve/snapshots_until"] == "2026-11-20T00:00:00Z"
    assert [r.partition_key for r in history] == ["2026-11-19", "2026-11-20"]  # 01:01 completes yesterday too


def test_history_schedule_requests_the_day_of_the_hour_that_just_ended(defs, tmp_path, wall_clock):
    from dagster import DagsterInstance, build_schedule_context

    schedule = defs.resolve_schedule_def("history_schedule_1")
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
