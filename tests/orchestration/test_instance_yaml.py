"""The dagster.yaml orchestration.instance writes, from the environment: PostgreSQL storage named by
env references (never a password), the run queue's limits (backfill, per chain, per asset group),
run retries, run monitoring (the jobs' maximum runtimes); without PostgreSQL, the local sqlite instance. Dagster's own config schema reads each
file back, so a key Dagster does not know fails here."""
from __future__ import annotations

import dataclasses

import pytest
import yaml

PASSWORD = "not-in-any-file-5d1c"


def written(monkeypatch, tmp_path, **env: str) -> tuple[dict, str]:
    """(parsed, text) of the dagster.yaml for Settings.from_env() under `env`, read back by Dagster."""
    from dagster._core.instance.config import dagster_instance_config

    from ve_analytics.core.config import Settings
    from ve_analytics.orchestration.instance import ensure_instance_dir

    for name in ("DAGSTER_PG_HOST", "DAGSTER_PG_URL", "DAGSTER_PG_PORT", "DAGSTER_PG_DB", "DAGSTER_PG_USER",
                 "DAGSTER_RUN_RETRIES", "DAGSTER_GROUP_RUNS"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    settings = dataclasses.replace(Settings.from_env(), dagster_home=tmp_path, backfill_runs=3)
    ensure_instance_dir(settings)
    text = (tmp_path / "dagster.yaml").read_text()
    dagster_instance_config(str(tmp_path))  # Dagster's schema accepts it (env references unresolved)
    return yaml.safe_load(text), text


BASE_LIMITS = [{"key": "dagster/backfill", "limit": 3},
               {"key": "ve/chain", "value": {"applyLimitPerUniqueValue": True}, "limit": 2}]


def test_postgres_storage_names_the_password_by_environment_variable(monkeypatch, tmp_path):
    config, text = written(monkeypatch, tmp_path, DAGSTER_PG_HOST="pg.internal", DAGSTER_PG_PORT="6432",
                           DAGSTER_PG_DB="orchestration", DAGSTER_PG_USER="dagster_rw", DAGSTER_PG_PASSWORD=PASSWORD)
    assert config["storage"] == {"postgres": {"postgres_db": {
        "hostname": "pg.internal", "port": 6432, "db_name": "orchestration", "username": "dagster_rw",
        "password": {"env": "DAGSTER_PG_PASSWORD"}, "scheme": "postgresql+psycopg2"}}}
    assert PASSWORD not in text
    queue = config["run_coordinator"]
    assert queue["class"] == "QueuedRunCoordinator" and queue["config"]["max_concurrent_runs"] == 5
    assert queue["config"]["tag_concurrency_limits"] == [*BASE_LIMITS, {"key": "ve/group", "value": "history", "limit": 4},
                                                         {"key": "ve/group", "value": "curation", "limit": 1}]
    assert config["run_retries"] == {"enabled": True, "max_retries": 2}


def test_a_postgres_url_is_named_whole_since_it_carries_the_password(monkeypatch, tmp_path):
    url = f"postgresql+psycopg2://dagster:{PASSWORD}@pg.internal:5432/dagster?sslmode=require"
    config, text = written(monkeypatch, tmp_path, DAGSTER_PG_URL=url, DAGSTER_PG_HOST="ignored.internal")
    assert config["storage"] == {"postgres": {"postgres_url": {"env": "DAGSTER_PG_URL"}}}
    assert PASSWORD not in text and "ignored.internal" not in text


def test_without_postgres_the_local_sqlite_instance_and_no_retries(monkeypatch, tmp_path):
    from dagster import DagsterInstance
    from dagster._core.storage.runs import SqliteRunStorage

    config, _ = written(monkeypatch, tmp_path)
    assert "storage" not in config and "run_retries" not in config  # sqlite under DAGSTER_HOME, Dagster's default
    assert config["run_coordinator"]["config"]["tag_concurrency_limits"][:2] == BASE_LIMITS
    instance = DagsterInstance.from_config(str(tmp_path))
    try:
        assert isinstance(instance.run_storage, SqliteRunStorage)
        assert instance.run_retries_enabled is False
    finally:
        instance.dispose()


def test_group_limits_and_retries_are_configurable(monkeypatch, tmp_path):
    config, _ = written(monkeypatch, tmp_path, DAGSTER_GROUP_RUNS="history=2, snapshots=3,curation=0",
                        DAGSTER_RUN_RETRIES="3")
    limits = config["run_coordinator"]["config"]["tag_concurrency_limits"]
    assert limits == [*BASE_LIMITS, {"key": "ve/group", "value": "history", "limit": 2},  # curation=0: no limit
                      {"key": "ve/group", "value": "snapshots", "limit": 3}]
    assert config["run_retries"] == {"enabled": True, "max_retries": 3}  # asked for, on the local instance too
    config, _ = written(monkeypatch, tmp_path, DAGSTER_PG_HOST="pg.internal", DAGSTER_RUN_RETRIES="0")
    assert "run_retries" not in config
    with pytest.raises(ValueError, match="DAGSTER_GROUP_RUNS: 'vaults=1'"):
        written(monkeypatch, tmp_path, DAGSTER_GROUP_RUNS="vaults=1")
    with pytest.raises(ValueError, match="DAGSTER_RUN_RETRIES must be between -1 and 100, got '101'"):
        written(monkeypatch, tmp_path, DAGSTER_RUN_RETRIES="101")


def test_every_job_tags_its_runs_with_their_chain_and_asset_group():
    from ve_analytics.core.run_limits import RunLimits
    from ve_analytics.orchestration.jobs import build_curation_job, build_jobs

    jobs = build_jobs(56, RunLimits(snapshot_max_runtime_seconds=0, history_max_runtime_seconds=0))
    assert jobs["snapshot"].tags == {"ve/chain": "56", "ve/group": "snapshots"}
    assert jobs["history"].tags == {"ve/chain": "56", "ve/group": "history"}
    assert build_curation_job().tags == {"ve/group": "curation"}


def test_snapshot_and_history_runs_carry_a_maximum_runtime_the_daemon_enforces(monkeypatch, tmp_path):
    from dagster import DagsterInstance

    from ve_analytics.core.config import Settings
    from ve_analytics.orchestration.jobs import build_jobs

    config, _ = written(monkeypatch, tmp_path)
    assert config["run_monitoring"] == {"enabled": True, "poll_interval_seconds": 30, "start_timeout_seconds": 600}
    instance = DagsterInstance.from_config(str(tmp_path))
    try:
        assert instance.run_monitoring_enabled is True
    finally:
        instance.dispose()
    for name in ("SNAPSHOT_MAX_RUNTIME_SECONDS", "HISTORY_MAX_RUNTIME_SECONDS"):
        monkeypatch.delenv(name, raising=False)
    jobs = build_jobs(8453, Settings.from_env().run_limits)  # the defaults: an hour, six hours
    assert jobs["snapshot"].tags["dagster/max_runtime"] == "3600"
    assert jobs["history"].tags["dagster/max_runtime"] == "21600"
    monkeypatch.setenv("SNAPSHOT_MAX_RUNTIME_SECONDS", "900")
    monkeypatch.setenv("HISTORY_MAX_RUNTIME_SECONDS", "0")  # no limit
    jobs = build_jobs(8453, Settings.from_env().run_limits)
    assert jobs["snapshot"].tags["dagster/max_runtime"] == "900" and "dagster/max_runtime" not in jobs["history"].tags
    monkeypatch.setenv("SNAPSHOT_MAX_RUNTIME_SECONDS", "-1")
    with pytest.raises(ValueError, match="SNAPSHOT_MAX_RUNTIME_SECONDS must be at least 0, got '-1'"):
        Settings.from_env()


def test_the_ui_opens_without_its_new_user_dialog(monkeypatch, tmp_path):
    from dagster import DagsterInstance

    config, _ = written(monkeypatch, tmp_path)
    assert config["nux"] == {"enabled": False}
    with DagsterInstance.from_config(str(tmp_path)) as instance:
        assert instance.nux_enabled is False  # what the UI's shouldShowNux query reads
