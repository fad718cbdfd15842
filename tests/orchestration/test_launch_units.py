"""The launch path without a stack: the settings a Dagster process gets through its environment,
the instance's dagster.yaml, and walking a chain through its backfill (the order of its runs, what ends
a backfill, what fails a chain loudly without stopping the others, and that a backfill left
behind by an interrupt or a timeout is canceled so the daemon does not go on with it). The webserver here is a stand-in answering what the GraphQL API answers; the real one is
exercised by the orchestration session (conftest) and the cron tests."""
from __future__ import annotations

import dataclasses
import os
import time
from pathlib import Path

import pytest

from ve_analytics.orchestration.backfill import BackfillFailed, _follow
from ve_analytics.orchestration.backfill_plan import ChainPlan
from ve_analytics.orchestration.backfill_steps import ChainFill


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
        clickhouse_password="secret", analyst_password="secret2", cron_token="secret3", api_reader_password="secret6", dagster_home=tmp_path / "home",
        dagster_port=3999, snapshot_partition_days=7, history_start="2026-01-01", chain_book=Path(book),
        chains=chains, backfill_runs=3, stale_after_minutes=30, live_cache_seconds=2.5,
        cursor_secrets=("secret4-cursor-key", "secret5-cursor-key"))
    env = settings.to_env()
    assert not {"CLICKHOUSE_PASSWORD", "CLICKHOUSE_ANALYST_PASSWORD", "CRON_TOKEN"} & set(env)
    # (by value: a path such as the checkout's may contain the word)
    assert not [v for v in env.values() if v == "secret" or any(f"secret{i}" in v for i in range(2, 7))]
    for name in list(os.environ):
        monkeypatch.delenv(name)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("CLICKHOUSE_PASSWORD", "secret")  # the deployment's own
    monkeypatch.setenv("CLICKHOUSE_ANALYST_PASSWORD", "secret2")
    monkeypatch.setenv("CRON_TOKEN", "secret3")
    monkeypatch.setenv("CLICKHOUSE_API_PASSWORD", "secret6")
    monkeypatch.setenv("CURSOR_SECRETS", "secret4-cursor-key,secret5-cursor-key")
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
        assert queue.tag_concurrency_limits == [{"key": "dagster/backfill", "limit": 3},  # two runs per chain at once
                                                {"key": "ve/chain", "value": {"applyLimitPerUniqueValue": True}, "limit": 2},
                                                {"key": "ve/group", "value": "history", "limit": 4},  # a slot left
                                                {"key": "ve/group", "value": "curation", "limit": 1}]
    finally:
        instance.dispose()
    ensure_instance_dir(dataclasses.replace(settings, backfill_runs=1))  # ours: rewritten
    assert "limit: 1" in (tmp_path / "dagster.yaml").read_text()
    (tmp_path / "dagster.yaml").write_text("telemetry:\n  enabled: false\n")  # the operator's: kept
    ensure_instance_dir(settings)
    assert (tmp_path / "dagster.yaml").read_text() == "telemetry:\n  enabled: false\n"
    assert MARKER not in (tmp_path / "dagster.yaml").read_text()


def test_snapshot_backfills_make_runs_of_at_most_four_days_the_history_one_run(tmp_path):
    """Dagster cuts a backfill into runs by the assets' BackfillPolicy, per chain."""
    from support.chains import with_example_book

    from ve_analytics.assets.partitions import SNAPSHOT_DAYS_PER_RUN
    from ve_analytics.core.config import Settings
    from ve_analytics.orchestration.definitions import build_defs

    defs = build_defs(with_example_book(Settings.from_env(), tmp_path))
    graph = defs.resolve_asset_graph()
    for job_name, per_run in (("snapshot_job_56", SNAPSHOT_DAYS_PER_RUN), ("history_job_56", None)):
        keys = defs.resolve_job_def(job_name).asset_layer.selected_asset_keys
        assert keys and {graph.get(key).backfill_policy.max_partitions_per_run for key in keys} == {per_run}
        assert {key.path[0] for key in keys} == {"chain_56"}


class FakeWeb:
    """Answers what the webserver's GraphQL API answers: launched runs finish on the next poll
    with the status `run_status` gives; a backfill goes through `backfill_states`."""

    url = "http://dagster.test"

    def __init__(self, backfill_states=(("COMPLETED_SUCCESS", {"SUCCESS": 2}, ["SUCCESS"]),), run_status=None):
        self.backfill_states = list(backfill_states)
        self.run_status = run_status or (lambda job: "SUCCESS")
        self.launched: list[tuple[str, dict]] = []
        self.backfills: list[tuple[str, list[str], dict]] = []
        self.canceled: list[str] = []
        self.polls = 0

    def launch_run(self, job, tags):
        self.launched.append((job, tags))
        return f"run-{len(self.launched)}"

    def runs(self, run_ids=None, **_):
        return [{"runId": rid, "status": self.run_status(self.launched[int(rid.split("-")[1]) - 1][0]), "tags": {}}
                for rid in run_ids]

    def launch_backfill(self, job, keys, tags=None, title="", description=""):
        self.backfills.append((job, keys, tags))
        return f"b{len(self.backfills)}"

    def _state(self):
        return self.backfill_states[min(self.polls, len(self.backfill_states) - 1)]

    def backfill(self, backfill_id):
        status, counts, _ = self._state()
        return {"id": backfill_id, "status": status, "numPartitions": 2, "title": "t", "partitionStatusCounts": counts,
                "error": {"message": "boom"} if status == "FAILED" else None}

    def backfill_runs(self, backfill_id):
        runs = [{"runId": f"{backfill_id}r{i}", "status": s,
                 "tags": {"dagster/asset_partition_range_start": "2026-01-01",
                          "dagster/asset_partition_range_end": "2026-01-02"}}
                for i, s in enumerate(self._state()[2])]
        self.polls += 1
        return runs

    def daemon_status(self):
        return {"BACKFILL": True, "QUEUED_RUN_COORDINATOR": True}

    def cancel_backfill(self, backfill_id):
        self.canceled.append(backfill_id)


T0 = 1_767_225_600  # 2026-01-01T00:00:00Z


def plan(cid=56, snapshots=(T0 + 900, T0 + 86_400 + 900), newest=T0 + 2 * 86_400):
    return ChainPlan(cid, newest + 60, T0 - 40 * 86_400, newest, recent_days=["2025-12-31", "2026-01-01"],
                     older_days=["2025-11-22"], newest=newest, snapshots=list(snapshots))


def walk(web, fills, lines, deadline=None, on_fresh=None):
    _follow(web, fills, say=lines.append, started=0.0, poll=0, on_fresh=on_fresh, deadline=deadline)


def test_a_chain_takes_its_recent_history_then_its_newest_snapshot_then_fills_in_behind():
    web, lines, fresh = FakeWeb(), [], []
    fill = ChainFill(plan())
    walk(web, [fill], lines, on_fresh=lambda: fresh.append(len(web.launched)))
    (h_job, h_tags), (s_job, s_tags) = web.launched
    assert h_job == "history_job_56" and h_tags == {"dagster/asset_partition_range_start": "2025-12-31",
                                                     "dagster/asset_partition_range_end": "2026-01-01"}
    assert s_job == "snapshot_job_56" and s_tags["ve/snapshots_from"] == s_tags["ve/snapshots_until"] == "2026-01-03T00:00:00Z"
    assert s_tags["dagster/partition"] == "2026-01-02"
    assert fresh == [2]  # on_fresh came after the newest snapshot and before the backfills
    (b_job, b_keys, b_tags), (o_job, o_keys, o_tags) = web.backfills
    assert (b_job, b_keys) == ("snapshot_job_56", ["2026-01-01", "2026-01-02"])
    assert (b_tags["ve/snapshots_from"], b_tags["ve/snapshots_until"]) == ("2026-01-01T00:15:00Z", "2026-01-02T00:15:00Z")
    assert (o_job, o_keys) == ("history_job_56", ["2025-11-22"])
    assert b_tags["dagster/priority"] == o_tags["dagster/priority"] == "0"  # small: a day of snapshots is 96

    assert fill.phase == "done" and not fill.error and not web.canceled
    assert lines[-1].endswith("chain 56 done (3 history days, 3 snapshots)")
    assert fill.summary()["history_run_ids"] == ["run-1", "b2r0"] and fill.summary()["snapshot_run_ids"] == ["run-2", "b1r0"]


def test_the_chain_with_the_most_to_fill_goes_first_in_the_run_queue():
    from ve_analytics.orchestration.backfill_steps import fill_priority

    big = ChainPlan(56, 0, 0, 0, older_days=["d"] * 360, snapshots=list(range(2879)))
    small = ChainPlan(1, 0, 0, 0, older_days=["d"] * 163, snapshots=list(range(671)))
    assert int(fill_priority(big)) == 29 + 12 > int(fill_priority(small)) == 6 + 5


def test_a_failing_chain_is_reported_while_the_other_chain_goes_on():
    web, lines = FakeWeb(run_status=lambda job: "FAILURE" if job.endswith("_8453") else "SUCCESS"), []
    ok, bad = ChainFill(plan(56)), ChainFill(plan(8453))
    walk(web, [ok, bad], lines)
    assert ok.phase == "done" and bad.phase == "failed"
    assert "recent history: run run-2 ended FAILURE: http://dagster.test/runs/run-2" in bad.error
    assert [job for job, _ in web.launched if job.endswith("_8453")] == ["history_job_8453"]  # stopped there
    assert any(line.startswith("chain 8453 failed:") for line in lines)


def test_a_failed_backfill_run_fails_the_chain_once_the_others_finished():
    web = FakeWeb([("REQUESTED", {"FAILURE": 1, "STARTED": 1}, ["FAILURE", "STARTED"]),
                   ("COMPLETED_FAILED", {"FAILURE": 1, "SUCCESS": 1}, ["FAILURE", "SUCCESS"])])
    fill = ChainFill(plan())
    walk(web, [fill], [])
    assert fill.phase == "failed"
    assert "did not succeed (b1r0 FAILURE" in fill.error and "http://dagster.test/runs/b/b1" in fill.error


def test_a_run_the_instance_retries_is_followed_to_its_retry():
    """With run retries (the PostgreSQL instance), a failed run tagged to be retried is not the
    step's outcome: the retry is, once the daemon launched it (its id lands on the failed run)."""
    retried = {"dagster/will_retry": "true"}

    class Retrying(FakeWeb):
        def runs(self, run_ids=None, **_):
            self.polls += 1
            answers = {"run-1": {**retried, "dagster/auto_retry_run_id": "retry-1"} if self.polls > 2 else retried}
            return [{"runId": rid, "status": "SUCCESS", "tags": {}} if rid.startswith("retry-") else
                    {"runId": rid, "status": "FAILURE", "tags": answers[rid]} if rid in answers else
                    super(Retrying, self).runs([rid])[0] for rid in run_ids]

        def backfill_runs(self, backfill_id):  # a run retried within the backfill, and its retry
            return [{"runId": f"{backfill_id}r0", "status": "FAILURE",
                     "tags": {**retried, "dagster/auto_retry_run_id": f"{backfill_id}r1"}},
                    {"runId": f"{backfill_id}r1", "status": "SUCCESS", "tags": {}}]

    fill = ChainFill(plan())
    walk(Retrying(), [fill], [])
    assert fill.phase == "done" and not fill.error
    assert fill.summary()["history_run_ids"][0] == "retry-1"


def test_a_backfill_the_daemon_failed_names_its_error():
    fill = ChainFill(plan())
    walk(FakeWeb([("FAILED", {}, [])]), [fill], [])
    assert fill.phase == "failed" and "ended FAILED: boom" in fill.error


def test_timeout_and_interrupt_cancel_the_open_backfills():
    web = FakeWeb([("REQUESTED", {"STARTED": 2}, ["STARTED"])])
    fill = ChainFill(plan())
    with pytest.raises(BackfillFailed, match="did not finish in time") as failed:
        walk(web, [fill], [], deadline=time.monotonic() + 0.5)
    assert web.canceled == ["b1", "b2"] and failed.value.chains == [56]  # the chain left incomplete

    class Interrupted(FakeWeb):
        def backfill_runs(self, backfill_id):
            raise KeyboardInterrupt

    web, lines = Interrupted([("REQUESTED", {}, [])]), []
    with pytest.raises(KeyboardInterrupt):
        walk(web, [ChainFill(plan())], lines)
    assert web.canceled == ["b1", "b2"] and lines[-2:] == ["backfill b1 canceled", "backfill b2 canceled"]
