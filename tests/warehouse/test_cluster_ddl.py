"""Cluster mode (ADR 0012): every migration's single-node and ON CLUSTER forms, checked by the
ClickHouse engine's own parser (the embedded chDB parses what it cannot run: it has no Keeper),
and the insert quorum of the pipeline's writes.

The parser check formats both forms with the engine's `formatQuery` and then takes the cluster
form back, on the engine's normalized text, with rules written independently of the renderer:
what remains must equal the single-node form exactly, so columns, codecs, ORDER BY, PARTITION BY
and settings cannot differ between the two deployments.
"""
from __future__ import annotations

import dataclasses
import re

import pytest
from clickhouse_connect.driver.exceptions import DatabaseError

from ve_analytics.core.config import Settings
from ve_analytics.warehouse import migrate as migrate_mod
from ve_analytics.warehouse.client import ANALYST, API, WRITER, client_kwargs, get_client
from ve_analytics.warehouse.cluster import ClusterDDLError, quorum_settings, render_ddl
from ve_analytics.warehouse.migrate import MIGRATIONS_DIR, MigrationError, load_migrations, migrate

CLUSTER = "ve_cluster"
MIGRATIONS = load_migrations(MIGRATIONS_DIR)
STATEMENTS = {m.name: m.sql for m in MIGRATIONS} | {
    "create database": "CREATE DATABASE IF NOT EXISTS `ve_analytics`",
    "schema_migrations": migrate_mod.CREATE_MIGRATIONS_TABLE.strip(),
}


def formatted(wh, sql: str) -> str:
    """The engine's normalized text of one statement (a parse error is the engine's 400)."""
    with get_client(wh.settings, database=None) as client:
        return client.query("SELECT formatQuery({q:String})", parameters={"q": sql}).result_rows[0][0]


def single_node_form(cluster_text: str) -> str:
    """The cluster form's normalized text taken back to one server."""
    text = cluster_text.replace(f" ON CLUSTER {CLUSTER}", "", 1)
    text = re.sub(r"ENGINE = Replicated(\w*MergeTree)\('/clickhouse/tables/\{shard\}/\{database\}/\{table\}', "
                  r"'\{replica\}'(?:, )?", r"ENGINE = \1(", text)
    text = re.sub(r"MergeTree\(\)", "MergeTree", text)
    return re.sub(r"\breplicated_deduplication_window\b", "non_replicated_deduplication_window", text)


@pytest.mark.parametrize("name", list(STATEMENTS))
def test_both_renderings_parse_and_differ_only_by_the_replication(wh, name):
    sql = STATEMENTS[name]
    assert render_ddl(sql, "") is sql  # without a cluster, today's DDL exactly
    single = formatted(wh, sql)
    cluster = formatted(wh, render_ddl(sql, CLUSTER))
    assert f" ON CLUSTER {CLUSTER}" in cluster.split("\n", 1)[0]
    assert single_node_form(cluster) == single
    if single.startswith("CREATE TABLE"):
        engine = re.search(r"^ENGINE = (\w+)", cluster, re.M).group(1)
        assert engine.startswith("Replicated") and engine.endswith("MergeTree")
        for clause in ("ORDER BY", "PARTITION BY"):
            assert [ln for ln in single.splitlines() if ln.startswith(clause)] == \
                   [ln for ln in cluster.splitlines() if ln.startswith(clause)]
        assert "non_replicated_deduplication_window" not in cluster
        if "non_replicated_deduplication_window = 1000" in single:
            assert "replicated_deduplication_window = 1000" in cluster


def test_every_table_is_replicated_with_its_version_column(wh):
    engines = {}
    for m in MIGRATIONS:
        match = re.search(r"^ENGINE = (.*)$", formatted(wh, render_ddl(m.sql, CLUSTER)), re.M)
        if match:
            engines[m.name] = match.group(1)
    created = [m.name for m in MIGRATIONS if re.search(r"^CREATE TABLE", m.sql, re.M)]
    assert sorted(engines) == created and len(created) >= 36  # every CREATE TABLE of the migrations has one
    assert engines["001_snapshot_runs.sql"] == \
        "ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/{database}/{table}', '{replica}', finished_at)"
    assert engines["040_chain_coverage.sql"] == \
        "ReplicatedAggregatingMergeTree('/clickhouse/tables/{shard}/{database}/{table}', '{replica}')"
    assert engines["067_gauge_epochs.sql"] == \
        "ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/{database}/{table}', '{replica}', read_block)"
    assert engines["073_bridge_events.sql"] == \
        "ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/{database}/{table}', '{replica}', ingested_at)"


@pytest.mark.parametrize("sql, reason", [
    ("DROP TABLE pool_snap15m", "no cluster rendering"),
    ("INSERT INTO pool_snap15m VALUES (1)", "no cluster rendering"),
    ("CREATE TABLE IF NOT EXISTS t (a UInt8) ENGINE = Memory", "exactly one MergeTree-family ENGINE"),
    ("CREATE TABLE IF NOT EXISTS t (a UInt8) ENGINE = ReplicatedMergeTree ORDER BY a", "written single-node"),
])
def test_statements_without_a_cluster_form_are_refused(sql, reason):
    with pytest.raises(ClusterDDLError, match=reason):
        render_ddl(sql, CLUSTER)
    assert render_ddl(sql, "") is sql


def test_cluster_settings_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("VEA_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("CLICKHOUSE_CLUSTER", CLUSTER)
    monkeypatch.delenv("CLICKHOUSE_REPLICAS", raising=False)
    with pytest.raises(ValueError, match="CLICKHOUSE_REPLICAS must be set with CLICKHOUSE_CLUSTER"):
        Settings.from_env()
    monkeypatch.setenv("CLICKHOUSE_REPLICAS", "3")
    settings = Settings.from_env()
    assert (settings.clickhouse_cluster, settings.clickhouse_replicas) == (CLUSTER, 3)
    assert Settings.from_env().to_env()["CLICKHOUSE_REPLICAS"] == "3"
    bad = dataclasses.replace(settings, clickhouse_cluster="c' SETTINGS x=1 --")
    with pytest.raises(ClusterDDLError, match="not a plain cluster name"):
        quorum_settings(bad)


def test_only_the_writer_waits_for_every_replica(wh):
    clustered = dataclasses.replace(wh.settings, clickhouse_cluster=CLUSTER, clickhouse_replicas=3)
    assert client_kwargs(clustered, user=WRITER)["settings"] == {"insert_quorum": 3, "insert_quorum_timeout": 120_000}
    assert "settings" not in client_kwargs(clustered, user=API)
    assert "settings" not in client_kwargs(clustered, user=ANALYST)
    assert "settings" not in client_kwargs(wh.settings, user=WRITER)


def test_the_quorum_settings_are_the_engines_own(wh):
    """The engine refuses an unknown setting, so a real insert under the writer's cluster settings
    shows their names and values are ClickHouse's (a plain MergeTree ignores the quorum itself)."""
    clustered = dataclasses.replace(wh.settings, clickhouse_cluster=CLUSTER, clickhouse_replicas=2,
                                    clickhouse_database="cluster_quorum")
    with get_client(wh.settings, database=None) as admin:
        admin.command("CREATE DATABASE IF NOT EXISTS cluster_quorum")
        admin.command("CREATE TABLE IF NOT EXISTS cluster_quorum.t (a UInt32) ENGINE = MergeTree ORDER BY a")
    with get_client(clustered) as writer:
        writer.insert("t", [[1], [2]], column_names=["a"])
        assert writer.query("SELECT sum(a) FROM t").result_rows == [(3,)]
        # the client sends both with every request, and the engine accepted them on the insert above
        assert (writer.get_client_setting("insert_quorum"), writer.get_client_setting("insert_quorum_timeout")) == (2, 120_000)
        with pytest.raises(DatabaseError, match="Unknown setting") as refused:
            writer.query("SELECT 1", settings={"insert_quorum_misspelled": 1})
        assert "insert_quorum_misspelled" in str(refused.value)


def test_migrate_refuses_a_cluster_the_server_does_not_have(wh):
    clustered = dataclasses.replace(wh.settings, clickhouse_cluster=CLUSTER, clickhouse_replicas=2,
                                    clickhouse_database="cluster_missing")
    with pytest.raises(MigrationError, match=f"the server has no cluster '{CLUSTER}'"):
        migrate(clustered)
    with get_client(wh.settings, database=None) as admin:
        assert admin.command("EXISTS DATABASE cluster_missing") == 0  # nothing was created
