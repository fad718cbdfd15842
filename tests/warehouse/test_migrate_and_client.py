"""Migrations against the embedded server; client construction, ping and the async client."""
from __future__ import annotations

import asyncio
import dataclasses
import logging

import pytest

from ve_analytics.warehouse import migrate as migrate_module
from ve_analytics.warehouse.client import (
    ANALYST,
    _endpoint,
    client_kwargs,
    get_async_client,
    get_client,
    ping,
)
from ve_analytics.warehouse.migrate import MigrationError, ensure_readers, load_migrations, migrate


def _write(folder, name, sql):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(sql)


def test_migrate_creates_database_applies_in_order_and_is_idempotent(wh, tmp_path, caplog):
    settings = dataclasses.replace(wh.settings, clickhouse_database="mig_fresh")
    folder = tmp_path / "migrations"
    _write(folder, "002_second.sql", "CREATE TABLE IF NOT EXISTS second (a UInt8) ENGINE = MergeTree ORDER BY a;\n")
    _write(
        folder,
        "001_first.sql",
        "-- comment line\nCREATE TABLE IF NOT EXISTS first (k String, m Map(String, UInt8) DEFAULT map('x', 1))\n"
        "ENGINE = ReplacingMergeTree ORDER BY k",
    )
    _write(folder, "010_view.sql", "CREATE VIEW IF NOT EXISTS first_count AS SELECT count() AS n FROM first")
    with caplog.at_level(logging.INFO, logger="warehouse.migrate"):
        assert migrate(settings, folder) == ["001_first.sql", "002_second.sql", "010_view.sql"]
    assert "applied migration 001_first.sql" in caplog.text
    assert "3 migration(s) applied now" in caplog.text
    assert "readers 'analyst', 'api' not managed by migrate" in caplog.text  # chDB: no SQL access control

    assert migrate(settings, folder) == []  # second run: nothing to do
    c = get_client(settings)
    assert c.query("SELECT version, name FROM schema_migrations FINAL ORDER BY version").result_rows == [
        ("001", "001_first.sql"),
        ("002", "002_second.sql"),
        ("010", "010_view.sql"),
    ]
    assert c.command("SELECT count() FROM first_count") == 1

    _write(folder, "011_more.sql", "CREATE TABLE IF NOT EXISTS more (a UInt8) ENGINE = MergeTree ORDER BY a")
    assert migrate(settings, folder) == ["011_more.sql"]

    _write(folder, "002_second.sql", "CREATE TABLE IF NOT EXISTS second (a UInt16) ENGINE = MergeTree ORDER BY a")
    with pytest.raises(MigrationError, match="002_second.sql: changed after it was applied"):
        migrate(settings, folder)
    c.close()


def test_repository_migrations_apply_cleanly(wh):
    assert any(f.name.endswith(".sql") for f in migrate_module.MIGRATIONS_DIR.iterdir())
    settings = dataclasses.replace(wh.settings, clickhouse_database="mig_repo")
    applied = migrate(settings)
    assert applied == [m.name for m in load_migrations(migrate_module.MIGRATIONS_DIR)]
    assert migrate(settings) == []


def test_migrate_reports_the_failing_file(wh, tmp_path):
    settings = dataclasses.replace(wh.settings, clickhouse_database="mig_broken")
    folder = tmp_path / "migrations"
    _write(folder, "001_ok.sql", "CREATE TABLE IF NOT EXISTS ok (a UInt8) ENGINE = MergeTree ORDER BY a")
    _write(folder, "002_bad.sql", "CREATE TABLE IF NOT EXISTS bad (a NoSuchType) ENGINE = MergeTree ORDER BY a")
    with pytest.raises(MigrationError, match="002_bad.sql"):
        migrate(settings, folder)
    _write(folder, "002_bad.sql", "CREATE TABLE IF NOT EXISTS bad (a UInt8) ENGINE = MergeTree ORDER BY a")
    assert migrate(settings, folder) == ["002_bad.sql"]  # 001 stayed recorded


def test_migration_files_are_validated(tmp_path):
    _write(tmp_path / "a", "001_x.sql", "SELECT 1")
    _write(tmp_path / "a", "1_y.sql", "SELECT 2")
    with pytest.raises(MigrationError, match="version 1 is also used"):
        load_migrations(tmp_path / "a")
    _write(tmp_path / "b", "first.sql", "SELECT 1")
    with pytest.raises(MigrationError, match="NNN_name.sql"):
        load_migrations(tmp_path / "b")
    _write(tmp_path / "c", "001_empty.sql", " ;\n")
    with pytest.raises(MigrationError, match="empty"):
        load_migrations(tmp_path / "c")
    with pytest.raises(MigrationError, match="not a plain identifier"):
        migrate(dataclasses.replace(_settings_stub(), clickhouse_database="x; DROP"), tmp_path / "a")
    assert migrate_module.MIGRATIONS_DIR.name == "migrations"
    assert migrate_module.MIGRATIONS_DIR.joinpath("001_snapshot_runs.sql").is_file()


def _settings_stub():
    from ve_analytics.core.config import Settings

    return Settings.from_env()


def test_readers_are_created_where_access_control_exists():
    class FakeClient:
        def __init__(self):
            self.statements: list[str] = []

        def command(self, sql, **kw):
            self.statements.append(sql)

    settings = dataclasses.replace(_settings_stub(), clickhouse_database="ve", analyst_user="ana", analyst_password="p'w",
                                   api_reader_user="svc", api_reader_password="s")
    fake = FakeClient()
    assert ensure_readers(fake, settings) is True
    assert fake.statements == [
        "SHOW ACCESS",
        "CREATE ROLE IF NOT EXISTS analyst_readonly",
        "GRANT SELECT ON `ve`.* TO analyst_readonly",
        "CREATE USER IF NOT EXISTS `ana` IDENTIFIED BY 'p\\'w' DEFAULT ROLE analyst_readonly SETTINGS readonly = 1",
        "GRANT analyst_readonly TO `ana`",
        "SET DEFAULT ROLE analyst_readonly TO `ana`",
        "CREATE USER IF NOT EXISTS `svc` IDENTIFIED BY 's' DEFAULT ROLE analyst_readonly SETTINGS readonly = 2",
        "GRANT analyst_readonly TO `svc`",
        "SET DEFAULT ROLE analyst_readonly TO `svc`",
    ]


def test_client_endpoint_parsing_and_options(wh):
    assert _endpoint("https://ch.example.org") == {"host": "ch.example.org", "port": 8443, "interface": "https", "secure": True}
    assert _endpoint("http://10.0.0.5:18123/proxy/ch") == {
        "host": "10.0.0.5",
        "port": 18123,
        "interface": "http",
        "secure": False,
        "proxy_path": "proxy/ch",
    }
    kw = client_kwargs(wh.settings, user=ANALYST)
    assert kw["username"] == wh.settings.analyst_user and kw["autogenerate_session_id"] is False
    assert "database" not in client_kwargs(wh.settings, database=None)
    c = get_client(wh.settings, database=None)
    assert c.command("SELECT currentUser()") == "default"  # chDB's engine user; auth is the server's
    c.close()


def test_ping(wh):
    assert ping(wh.settings) is True
    assert ping(dataclasses.replace(wh.settings, clickhouse_url="http://127.0.0.1:9")) is False


def test_async_client(wh):
    async def run():
        admin = await get_async_client(wh.settings, database=None)
        await admin.command(f"CREATE DATABASE IF NOT EXISTS {wh.settings.clickhouse_database}")
        await admin.close()
        c = await get_async_client(wh.settings)
        await c.command("CREATE TABLE IF NOT EXISTS async_rows (a UInt32, s String) ENGINE = MergeTree ORDER BY a")
        await c.command("TRUNCATE TABLE async_rows")
        await c.insert("async_rows", [[i, f"s{i}"] for i in range(10_000)], column_names=["a", "s"])
        results = await asyncio.gather(
            *(
                c.query("SELECT count(), sum(a) FROM async_rows WHERE a >= {lo:UInt32}", parameters={"lo": lo})
                for lo in range(0, 10_000, 1000)
            )
        )
        assert [r.result_rows[0] for r in results] == [
            (10_000 - lo, sum(range(lo, 10_000))) for lo in range(0, 10_000, 1000)
        ]
        df = await c.query_df("SELECT a, s FROM async_rows ORDER BY a LIMIT 2")
        assert df["s"].tolist() == ["s0", "s1"]
        analyst = await get_async_client(wh.settings, user=ANALYST)
        assert (await analyst.query("SELECT count() FROM async_rows")).result_rows == [(10_000,)]
        await analyst.close()
        await c.close()

    asyncio.run(run())


def test_serve_runs_in_foreground_and_stops_on_sigterm(tmp_path):
    """`python -m warehouse.server` (what `ve-analytics warehouse` runs): start, answer, SIGTERM."""
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    from ve_analytics.cli.processes import free_port

    port = free_port()
    env = {**os.environ, "VEA_DATA_DIR": str(tmp_path), "WAREHOUSE_PORT": str(port), "CLICKHOUSE_URL": ""}
    env.pop("CLICKHOUSE_URL")
    repo = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen(
        [sys.executable, "-m", "ve_analytics.warehouse.server"], cwd=repo, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    try:
        settings = dataclasses.replace(_settings_stub(), clickhouse_url=f"http://127.0.0.1:{port}")
        deadline = time.monotonic() + 30
        while not ping(settings):
            assert proc.poll() is None and time.monotonic() < deadline, proc.stdout.read().decode()
            time.sleep(0.05)
        # the embedded warehouse's read-write user: the password generated into the data folder
        password = (tmp_path / "secrets" / "clickhouse-password").read_text().strip()
        c = get_client(settings, database=None, username="default", password=password)
        assert c.command("SELECT 1 + 1") == 2
        c.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=30)
    text = out.decode()
    assert proc.returncode == 0, text
    assert f"listening on http://127.0.0.1:{port}, data in {tmp_path / 'warehouse'}" in text
    assert "warehouse stopped" in text
    assert (tmp_path / "warehouse").is_dir()
