"""The production Dagster instance on a real PostgreSQL server (the OS package, a temporary cluster
on a free port): dagster.yaml written by orchestration.instance from the DAGSTER_PG_* settings,
the password only in the processes' environment. On it, the real webserver and daemon run a
snapshot day and a history day (launched as the UI would, through the run queue) and a tick of
the snapshot schedule; PostgreSQL's run, event-log and schedule tables and the warehouse are read
directly, the warehouse against the devnet's ground truth.

The devnet follows the wall clock here (the schedule's tick is the real daemon's, at a real 15-minute
boundary), one small chain, two days of history: yesterday is the day run. The daemon ticks a
schedule only at a cron time after the schedule was started, up to 15 minutes away; so the test
stores the snapshot schedule's state as started just before the last boundary (Dagster's
instigator-state API, what `startSchedule` writes, with an earlier start time), and the daemon,
on its next pass (at the next whole minute), evaluates, records and launches that boundary's tick
like any missed tick it catches up on.
"""
from __future__ import annotations

import dataclasses
import json
import time
from dataclasses import dataclass

import httpx
import pytest

from support import instant
from support.chains import with_devnet_book
from support.postgres import PostgresServer
from ve_analytics.cli.processes import Service, cli, free_port
from ve_analytics.cli.dagster_services import DagsterServices
from ve_analytics.core.config import Settings
from ve_analytics.core.epochs import DAY, HOUR
from ve_analytics.core.partition_keys import PARTITION_TAG, day_key

CHAIN = 1  # no CL pools, no vaults: the smallest chain
PG_DB, PG_USER, PG_PASSWORD = "dagster", "dagster", "pg-test-password-7f3a"
RUN_TIMEOUT = 240  # a stuck run fails the test instead of hanging it
QUARTER = 15 * 60


@dataclass
class Scenario:
    settings: Settings
    pg: PostgresServer
    devnet: object
    day: int  # yesterday 00:00 UTC: the history day and the snapshot day
    tick_at: int  # the 15-minute boundary the schedule ticked for
    runs: dict[str, str]  # "history", "tick", "snapshots" -> run id

    def pg_rows(self, statement: str, *params) -> list[tuple]:
        return self.pg.query(PG_DB, statement, params)

    def warehouse(self, sql: str, **params) -> list[tuple]:
        from ve_analytics.warehouse.client import get_client

        with get_client(self.settings) as client:
            return client.query(sql, parameters=params).result_rows

    def truth(self, path: str, **params) -> dict:
        return httpx.get(f"{self.devnet.url}/chains/{CHAIN}/truth/{path}", params=params, timeout=30).raise_for_status().json()


def wait_for_run(pg: PostgresServer, run_id: str) -> str:
    """The run's final status in PostgreSQL's `runs` table; the failure's message when it failed."""
    deadline = time.monotonic() + RUN_TIMEOUT
    while time.monotonic() < deadline:
        rows = pg.query(PG_DB, "SELECT status FROM runs WHERE run_id = %s", (run_id,))
        if rows and rows[0][0] in ("SUCCESS", "FAILURE", "CANCELED"):
            if rows[0][0] != "SUCCESS":
                failures = pg.query(PG_DB, "SELECT event FROM event_logs WHERE run_id = %s AND dagster_event_type "
                                           "IN ('STEP_FAILURE', 'RUN_FAILURE') ORDER BY id", (run_id,))
                pytest.fail(f"run {run_id} ended {rows[0][0]}: {[f[0][:1500] for f in failures]}")
            return rows[0][0]
        time.sleep(1)
    pytest.fail(f"run {run_id} did not finish in {RUN_TIMEOUT} s")


def wait_for_schedule_run(pg: PostgresServer, schedule: str) -> str:
    """The id of the first run the daemon launched for `schedule` (its tick comes at the next minute)."""
    deadline = time.monotonic() + RUN_TIMEOUT
    while time.monotonic() < deadline:
        rows = pg.query(PG_DB, "SELECT run_id FROM run_tags WHERE key = 'dagster/schedule_name' AND value = %s "
                               "ORDER BY id LIMIT 1", (schedule,))
        if rows:
            return rows[0][0]
        time.sleep(2)
    pytest.fail(f"no run of {schedule} within {RUN_TIMEOUT} s")


def start_schedule_before(settings: Settings, name: str, boundary: int) -> None:
    """Store `name` as started 30 s before `boundary`, so the daemon's next pass ticks for it."""
    from dagster._core.scheduler.instigation import InstigatorStatus, InstigatorType, ScheduleInstigatorData

    from ve_analytics.orchestration.instance import dagster_instance

    with dagster_instance(settings) as instance:
        (state,) = [s for s in instance.all_instigator_state(instigator_type=InstigatorType.SCHEDULE)
                    if s.instigator_name == name]  # stored as stopped by DagsterServices(schedules=False)
        data = ScheduleInstigatorData(state.instigator_data.cron_schedule, start_timestamp=float(boundary - 30))
        instance.update_instigator_state(state.with_status(InstigatorStatus.RUNNING).with_data(data))


@pytest.fixture(scope="module")
def scenario(tmp_path_factory):
    # the daemon ticks on the real clock: this stack runs on the wall clock, whatever the session's instant
    with instant.wall_clock():
        yield from _scenario(tmp_path_factory)


def _scenario(tmp_path_factory):
    from devnet.server import DevnetServer
    from ve_analytics.readers.dagster_webserver import Webserver
    from ve_analytics.warehouse.migrate import migrate

    data_dir = tmp_path_factory.mktemp("pg_instance")
    pg = PostgresServer.start()
    services: list = []
    try:
        pg.create_database(PG_DB, PG_USER, PG_PASSWORD)
        port = free_port()
        base = Settings.from_env()  # the warehouse takes this process's passwords (given as files)
        warehouse = Service("warehouse", cli("warehouse"), f"http://127.0.0.1:{port}/ping",
                            {"VEA_DATA_DIR": str(data_dir), "WAREHOUSE_PORT": str(port), "WAREHOUSE_HOST": "127.0.0.1",
                             "CLICKHOUSE_PASSWORD": base.clickhouse_password,
                             "CLICKHOUSE_API_PASSWORD": base.api_reader_password},
                            data_dir / "warehouse.log").start()
        services.append(warehouse)
        devnet = DevnetServer(seed=2027, history_days=2, chains=(CHAIN,), manual_clock=False).start()
        services.append(devnet)
        settings = with_devnet_book(dataclasses.replace(
            base, data_dir=data_dir, clickhouse_url=f"http://127.0.0.1:{port}",
            clickhouse_database="vea_pg_instance_test", dagster_home=data_dir / "dagster", snapshot_partition_days=0,
            history_start="", dagster_pg_host="127.0.0.1", dagster_pg_port=pg.port, dagster_pg_db=PG_DB,
            dagster_pg_user=PG_USER, dagster_pg_url_set=False, dagster_run_retries=-1, dagster_group_runs="",
        ), devnet.url, data_dir)
        migrate(settings)
        with pytest.MonkeyPatch.context() as env:
            # the deployment's secret: in the environment of this process and of those it starts
            env.setenv("DAGSTER_PG_PASSWORD", PG_PASSWORD)
            dagster = DagsterServices(settings, data_dir / "logs", port=free_port(), schedules=False)
            services.append(dagster)
            settings = dagster.start().settings
            # the daemon ticks on the real clock, so this test cannot pin it: the clock is read once
            # here and the day, the tick and every assertion derive from it (a tick at midnight included)
            now = time.time()
            day = int(now - now % DAY) - DAY
            boundary = int(now - now % QUARTER)
            start_schedule_before(settings, f"snapshot_schedule_{CHAIN}", boundary)
            with Webserver(settings.dagster_url) as web:
                history = web.launch_run(f"history_job_{CHAIN}", {PARTITION_TAG: day_key(day)})
                tick_run = wait_for_schedule_run(pg, f"snapshot_schedule_{CHAIN}")
                wait_for_run(pg, tick_run)
                wait_for_run(pg, history)  # the snapshots' rolling windows read its hours
                # after the tick's run: the schedule skips a tick while a snapshot run is in progress
                snapshots = web.launch_run(f"snapshot_job_{CHAIN}", {PARTITION_TAG: day_key(day)})
                wait_for_run(pg, snapshots)
            yield Scenario(settings, pg, devnet, day, boundary,
                           {"history": history, "tick": tick_run, "snapshots": snapshots})
    finally:
        for service in reversed(services):
            service.stop()
        pg.stop()


def test_the_instance_file_names_the_password_and_postgres_holds_the_runs(scenario):
    text = (scenario.settings.dagster_home / "dagster.yaml").read_text()
    assert "postgres_db:" in text and "env: DAGSTER_PG_PASSWORD" in text and PG_PASSWORD not in text
    runs = dict(scenario.pg_rows("SELECT run_id, status FROM runs"))
    assert {runs[run_id] for run_id in scenario.runs.values()} == {"SUCCESS"}
    tags = {}
    for run_id, key, value in scenario.pg_rows("SELECT run_id, key, value FROM run_tags"):
        tags.setdefault(run_id, {})[key] = value
    expected = {"history": ("history_job", "history"), "tick": ("snapshot_job", "snapshots"),
                "snapshots": ("snapshot_job", "snapshots")}
    for name, (job, group) in expected.items():
        run_tags = tags[scenario.runs[name]]
        assert run_tags["ve/chain"] == str(CHAIN) and run_tags["ve/group"] == group, (name, run_tags)
        assert scenario.pg_rows("SELECT pipeline_name FROM runs WHERE run_id = %s",
                                scenario.runs[name]) == [(f"{job}_{CHAIN}",)]
    assert tags[scenario.runs["tick"]]["dagster/schedule_name"] == f"snapshot_schedule_{CHAIN}"
    assert tags[scenario.runs["snapshots"]][PARTITION_TAG] == day_key(scenario.day)
    # each run's events are in PostgreSQL's event log: queued (the run queue started it), its
    # materializations, its success (the event log keeps Dagster's legacy PIPELINE_* names)
    for name, run_id in scenario.runs.items():
        events = dict(scenario.pg_rows("SELECT dagster_event_type, count(*) FROM event_logs WHERE run_id = %s "
                                       "GROUP BY dagster_event_type", run_id))
        assert events.get("PIPELINE_ENQUEUED") == events.get("PIPELINE_SUCCESS") == 1, (name, events)
        assert events.get("ASSET_MATERIALIZATION", 0) >= 4, (name, events)


def test_the_schedule_tick_is_recorded_in_postgres_with_its_run(scenario):
    ticks = scenario.pg_rows("SELECT t.status, extract(epoch FROM t.timestamp)::bigint, t.tick_body FROM job_ticks t "
                             "JOIN jobs j "
                             "ON j.selector_id = t.selector_id WHERE j.job_type = 'SCHEDULE' "
                             "AND j.job_body LIKE %s ORDER BY t.timestamp", f'%"snapshot_schedule_{CHAIN}"%')
    first = ticks[0]
    assert first[0] == "SUCCESS" and first[1] == scenario.tick_at
    assert json.loads(first[2])["run_ids"] == [scenario.runs["tick"]]


def test_the_warehouse_holds_the_published_snapshots_and_the_history_day(scenario):
    day, tick_at = scenario.day, scenario.tick_at
    published = scenario.warehouse(
        "SELECT toInt64(toUnixTimestamp(snapshot_at)), run_id FROM snapshot_runs FINAL "
        "WHERE chain_id = {c:UInt32} AND status = 'success' ORDER BY snapshot_at", c=CHAIN)
    # the snapshot day: its 96 snapshots (00:15 .. next 00:00), by its run, but for one the tick's
    # run published before it (the tick of midnight belongs to that day: the day run skips it)
    assert [t for t, run_id in published if run_id == scenario.runs["tick"]] == [tick_at]
    day_times = [t for t, run_id in published if run_id == scenario.runs["snapshots"]]
    assert day_times == [t for t in range(day + QUARTER, day + DAY + 1, QUARTER) if t != tick_at]
    block, tvl, pools = scenario.warehouse(
        "SELECT block_number, tvl_usd, pool_count FROM protocol_snap15m FINAL WHERE chain_id = {c:UInt32} "
        "AND snapshot_at = toDateTime64({t:Int64}, 3, 'UTC')", c=CHAIN, t=tick_at)[0]
    truth = scenario.truth("state", block=block)
    assert pools == len(truth["pools"]) and abs(tvl - truth["tvlUsd"]) <= 1e-6 * max(1.0, truth["tvlUsd"])
    # the history day: 24 hourly buckets whose sums are the devnet's flows of that day
    hours, volume, fees = scenario.warehouse(
        "SELECT count(), sum(volume_usd), sum(fees_usd) FROM protocol_hourly FINAL WHERE chain_id = {c:UInt32} "
        "AND hour_start >= toDateTime64({a:Int64}, 3, 'UTC') AND hour_start < toDateTime64({b:Int64}, 3, 'UTC')",
        c=CHAIN, a=day, b=day + DAY)[0]
    flows = scenario.truth("flows", **{"from": day, "to": day + DAY})
    assert hours == DAY // HOUR and flows["swapCount"] > 0
    assert abs(volume - flows["volumeUsd"]) <= 1e-6 * flows["volumeUsd"]
    assert abs(fees - flows["feesUsd"]) <= 1e-6 * flows["feesUsd"]
