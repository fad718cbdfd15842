"""The launch path without a stack: the settings a Dagster process gets through its environment,
the instance's dagster.yaml, and following a backfill (what ends it, what fails it loudly, and that
a backfill left behind by an interrupt or a timeout is canceled so the daemon does not go on with
it). The webserver here is a stand-in answering what the GraphQL API answers; the real one is
exercised by the orchestration session (conftest) and the cron tests."""
from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest

from ve_analytics.orchestration.backfill import BackfillFailed, _Follow


def test_settings_travel_to_a_dagster_process_through_its_environment_secrets_excepted(tmp_path, monkeypatch):
    from ve_analytics.core.chains import load_book
    from ve_analytics.core.config import Settings

    book = tmp_path / "book.json"
    book.write_text('''{"chains": [{"chainId": 56, "subgraphUrl": "http://book/subgraph", "rpcUrl": "http://book/rpc",
                                     "contracts": {"voter": "0xv", "coreToken": "0xc"}}]}''')
    base = Settings.from_env()
    chains = load_book(book, {})
    chains[56] = dataclasses.replace(chains[56], subgraph_url="http://elsewhere/subgraph")  # a per-run endpoint
    settings = dataclasses.replace(
        base, data_dir=tmp_path, clickhouse_url="http://warehouse:1", clickhouse_database="db", clickhouse_user="w",
        clickhouse_password="secret", analyst_password="secret2", cron_token="secret3", dagster_home=tmp_path / "home",
        dagster_port=3999, snapshot_partition_days=7, history_start="2026-01-01", chain_book=Path(book),
        chains=chains, backfill_runs=3, stale_after_minutes=30, live_cache_seconds=2.5)
    env = settings.to_env()
    assert not {"CLICKHOUSE_PASSWORD", "CLICKHOUSE_ANALYST_PASSWORD", "CRON_TOKEN"} & set(env)
    assert "secret" not in " ".join(env.values())
    for name in list(os.environ):
        monkeypatch.delenv(name)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("CLICKHOUSE_PASSWORD", "secret")  # the deployment's own
    monkeypatch.setenv("CLICKHOUSE_ANALYST_PASSWORD", "secret2")
    monkeypatch.setenv("CRON_TOKEN", "secret3")
    assert Settings.from_env() == settings


def test_the_instance_yaml_queues_runs_and_is_left_alone_once_the_operators(tmp_path):
    from dagster import DagsterInstance, QueuedRunCoordinator

    from ve_analytics.core.config import Settings
    from ve_analytics.orchestration.instance import MARKER, ensure_instance_dir

    settings = dataclasses.replace(Settings.from_env(), dagster_home=tmp_path, backfill_runs=3)
    ensure_instance_dir(settings)
    instance = DagsterInstance.from_config(str(tmp_path))
    try:
        assert isinstance(instance.run_coordinator, QueuedRunCoordinator)
        queue = instance.run_coordinator.get_run_queue_config()
        assert queue.max_concurrent_runs == 5  # 3 for a backfill, room for the schedules and the cron trigger
        assert queue.tag_concurrency_limits == [{"key": "dagster/backfill", "limit": 3}]
    finally:
        instance.dispose()
    ensure_instance_dir(dataclasses.replace(settings, backfill_runs=1))  # ours: rewritten
    assert "limit: 1" in (tmp_path / "dagster.yaml").read_text()
    (tmp_path / "dagster.yaml").write_text("telemetry:\n  enabled: false\n")  # the operator's: kept
    ensure_instance_dir(settings)
    assert (tmp_path / "dagster.yaml").read_text() == "telemetry:\n  enabled: false\n"
    assert MARKER not in (tmp_path / "dagster.yaml").read_text()


def test_snapshot_backfills_make_runs_of_at_most_four_days_the_history_one_run():
    """Dagster cuts a backfill into runs by the assets' BackfillPolicy."""
    from ve_analytics.assets.partitions import SNAPSHOT_DAYS_PER_RUN
    from ve_analytics.orchestration.definitions import defs

    graph = defs.resolve_asset_graph()
    for job_name, per_run in (("snapshot_job", SNAPSHOT_DAYS_PER_RUN), ("history_job", None)):
        keys = defs.resolve_job_def(job_name).asset_layer.selected_asset_keys
        assert keys and {graph.get(key).backfill_policy.max_partitions_per_run for key in keys} == {per_run}


class FakeWeb:
    url = "http://dagster.test"

    def __init__(self, states: list[tuple[str, dict[str, int], list[str]]]):
        """Each poll answers the next (backfill status, partition status counts, run statuses)."""
        self.states = list(states)
        self.canceled: list[str] = []
        self.polls = 0

    def _now(self):
        return self.states[min(self.polls, len(self.states) - 1)]

    def backfill(self, backfill_id):
        status, counts, _ = self._now()
        return {"id": backfill_id, "status": status, "numPartitions": 2, "title": "t", "partitionStatusCounts": counts,
                "error": {"message": "boom"} if status == "FAILED" else None}

    def backfill_runs(self, backfill_id):
        runs = [{"runId": f"r{i}", "status": s, "tags": {"dagster/asset_partition_range_start": "2026-01-01",
                                                         "dagster/asset_partition_range_end": "2026-01-02"}}
                for i, s in enumerate(self._now()[2])]
        self.polls += 1
        return runs

    def daemon_status(self):
        return {"BACKFILL": True, "QUEUED_RUN_COORDINATOR": True}

    def cancel_backfill(self, backfill_id):
        self.canceled.append(backfill_id)


def follow(web, lines, deadline=None):
    def line(runs, state):
        done = state["partitionStatusCounts"].get("SUCCESS", 0)
        return done, f"days {done}/2"

    return _Follow(web, "b1", say=lines.append, started=0.0, poll=0, deadline=deadline).run(line)


def test_ends_when_every_partition_has_a_finished_run_before_the_daemon_marks_it():
    web = FakeWeb([("REQUESTED", {}, []), ("REQUESTED", {"STARTED": 2}, ["STARTED"]),
                   ("REQUESTED", {"SUCCESS": 2}, ["SUCCESS"])])
    lines: list[str] = []
    runs = follow(web, lines)
    assert [r["runId"] for r in runs] == ["r0"] and not web.canceled
    assert lines[0].startswith("days 0/2 ") and lines[-1].startswith("days 2/2 ") and "(runs: 1 success)" in lines[-1]


def test_a_failed_run_fails_the_backfill_loudly_once_the_others_finished():
    web = FakeWeb([("REQUESTED", {"FAILURE": 1, "STARTED": 1}, ["FAILURE", "STARTED"]),
                   ("COMPLETED_FAILED", {"FAILURE": 1, "SUCCESS": 1}, ["FAILURE", "SUCCESS"])])
    lines: list[str] = []
    with pytest.raises(BackfillFailed, match=r"backfill b1 \(t\): 1 of 2 run\(s\) did not succeed \(r0 FAILURE\)"):
        follow(web, lines)
    assert lines[0] == "run r0 ended FAILURE: http://dagster.test/runs/r0"


def test_runs_that_did_not_succeed_are_named():
    web = FakeWeb([("REQUESTED", {"FAILURE": 1, "SUCCESS": 1}, ["FAILURE", "SUCCESS"])])
    with pytest.raises(BackfillFailed, match=r"1 of 2 run\(s\) did not succeed \(r0 FAILURE\); http://dagster.test/runs/b/b1"):
        follow(web, [])
    assert not web.canceled  # finished: nothing to cancel


def test_a_backfill_the_daemon_failed_names_its_error():
    with pytest.raises(BackfillFailed, match="ended FAILED: boom"):
        follow(FakeWeb([("FAILED", {}, [])]), [])


def test_timeout_and_interrupt_cancel_the_backfill():
    web = FakeWeb([("REQUESTED", {"STARTED": 2}, ["STARTED"])])
    with pytest.raises(BackfillFailed, match="did not finish in time"):
        follow(web, [], deadline=0.0)
    assert web.canceled == ["b1"]

    class Interrupted(FakeWeb):
        def backfill_runs(self, backfill_id):
            raise KeyboardInterrupt

    web = Interrupted([("REQUESTED", {}, [])])
    lines: list[str] = []
    with pytest.raises(KeyboardInterrupt):
        follow(web, lines)
    assert web.canceled == ["b1"] and lines == ["backfill b1 canceled"]
