"""The backup and restore drill (docs/operations/backup.md), on real components.

An embedded warehouse (subprocess, `ve-analytics warehouse`) filled by real pipeline runs from a
devnet (chain 56, two days: every history day, the newest snapshot, the repository's curation),
and the API (stats, /v1 and vault families, one worker, response cache off so every answer is
computed afresh from the warehouse) called over HTTP. The drill: capture a set of answers (status,
ETag, body bytes), back up with `ve-analytics warehouse backup`, drop tables the routes read, see
the answers break, restore, and get every answer back byte for byte; then restore the whole
database from a copy of the backup into a fresh warehouse and get the same answers there.
"""
from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from support.api_server import ApiServer
from support.chains import with_devnet_book
from ve_analytics.cli.processes import Service, cli, free_port
from ve_analytics.core import clock
from ve_analytics.core.api_limits import ApiLimits
from ve_analytics.core.config import Settings
from ve_analytics.core.epochs import DAY, iso
from ve_analytics.core.partition_keys import day_key, latest_day_key, latest_snapshot_at
from ve_analytics.warehouse.backup import BackupError, restore
from ve_analytics.warehouse.client import get_client

SEED = 2031
HISTORY_DAYS = 2
DATABASE = "backup_drill"
REPO_CURATION = Path(__file__).resolve().parents[2] / "curation" / "curation.json"
# Routes over every kind of table: snapshots, hourly and daily history, curation, the vault API.
ROUTES = [
    "/api/stats/protocol", "/api/stats/pools", "/api/stats/tokens", "/api/stats/gauges",
    "/api/stats/protocol/history?days=7", "/api/stats/protocol/daily",
    "/v1/chains", "/v1/protocol", "/v1/pools", "/v1/tokens", "/v1/protocol/history",
    "/api/v1/vaults", "/api/v1/tokens", "/api/v1/gauges",
]
DROPPED = ["pool_snap15m", "token_hourly"]  # read by the pool routes and by price history


def start_warehouse(data_dir: Path) -> tuple[Service, str]:
    port = free_port()
    argv = cli("warehouse", "--host", "127.0.0.1", "--port", str(port), "--data-dir", str(data_dir))
    service = Service("warehouse", argv, f"http://127.0.0.1:{port}/ping", {"LOG_LEVEL": "WARNING"},
                      data_dir / "warehouse.log").start(120)
    return service, f"http://127.0.0.1:{port}"


@dataclass
class Drill:
    settings: Settings
    data_dir: Path
    api: ApiServer
    routes: list[str]
    reading_dropped: list[str]  # routes that read a table of DROPPED
    before: dict[str, tuple[int, str | None, bytes]]
    api_env: dict[str, str]  # the APIs' clock, stopped: windows that end "now" are then warehouse functions too

    def answers(self, api: ApiServer | None = None) -> dict[str, tuple[int, str | None, bytes]]:
        url = (api or self.api).url
        with httpx.Client(timeout=60) as http:
            return {p: _answer(http.get(url + p)) for p in self.routes}

    def sql(self, statement: str) -> None:
        with get_client(self.settings) as client:
            client.command(statement)


# `generatedAt` is when the API assembled an answer (its clock at serving time): not a function of
# the warehouse, so masked. Windows that end at "now" (coverage holes) are pinned by stopping the
# APIs' clock instead: their ends are part of what a restore must give back.
GENERATED_AT = re.compile(rb'"generatedAt":"[0-9T:.Z-]+"')


def _answer(r: httpx.Response) -> tuple[int, str | None, bytes]:
    return r.status_code, r.headers.get("etag"), GENERATED_AT.sub(b'"generatedAt":"(serving time)"', r.content)


def _where(a: bytes, b: bytes) -> str:
    i = next((j for j in range(min(len(a), len(b))) if a[j] != b[j]), min(len(a), len(b)))
    return f"at byte {i}: {a[max(0, i - 100):i + 40]!r} != {b[max(0, i - 100):i + 40]!r}"


def assert_same_answers(after: dict, before: dict) -> None:
    """Status, ETag and body identical byte for byte on every route."""
    assert {p: a[:2] for p, a in after.items()} == {p: a[:2] for p, a in before.items()}
    differ = [p for p in before if after[p][2] != before[p][2]]
    assert not differ, "\n".join(f"{p}: {_where(after[p][2], before[p][2])}" for p in differ)


def _fill(settings: Settings, now: int, folder: Path) -> None:
    """Every history day of the devnet, its newest snapshot and the curation, by real runs."""
    from ve_analytics.orchestration.backfill import run_history, run_snapshot
    from ve_analytics.orchestration.curation import materialize_curation
    from ve_analytics.warehouse.migrate import migrate

    migrate(settings)
    last = latest_day_key(now)
    for at in range(now - HISTORY_DAYS * DAY, now + DAY, DAY):
        if day_key(at) <= last:
            run_history(settings, day_key(at))
    run_snapshot(settings, latest_snapshot_at(now))
    source = json.loads(REPO_CURATION.read_text())
    source["chains"] = {cid: chain for cid, chain in source["chains"].items() if cid == "56"}  # the book's only chain
    (folder / "curation.json").write_text(json.dumps(source))
    materialize_curation(settings, folder / "curation.json")


@pytest.fixture(scope="module")
def drill(tmp_path_factory):
    from devnet.server import DevnetServer

    data_dir = tmp_path_factory.mktemp("backup-drill")
    warehouse, url = start_warehouse(data_dir)
    # the devnet runs 20 minutes behind the wall clock (Dagster's partitions follow the wall clock)
    now = int(time.time()) - 20 * 60
    now += 5 if now % 900 < 5 else 0  # a boundary's block is final once the head has passed it
    devnet = DevnetServer(seed=SEED, history_days=HISTORY_DAYS, chains=(56,), now=now, manual_clock=True).start()
    api = None
    try:
        settings = with_devnet_book(dataclasses.replace(
            Settings.from_env(), data_dir=data_dir, clickhouse_url=url, clickhouse_database=DATABASE,
            dagster_home=data_dir / "dagster", api_limits=ApiLimits(cache_max_bytes=0), api_workers=1,
        ), devnet.url, data_dir)
        _fill(settings, now, data_dir)
        api_env = {clock.FROZEN_ENV: str(now + 20 * 60)}
        api = ApiServer(settings, log_path=data_dir / "api.log", families=("stats", "v1", "vaults"), env=api_env).start()
        token = httpx.get(api.url + "/v1/tokens", timeout=60).json()["data"]["rows"][0]["address"]
        # a pinned range ending at the snapshot (the default `to` is the server's clock)
        to = latest_snapshot_at(now)
        price_history = f"/v1/tokens/56/{token}/price-history?from={iso(to - DAY)}&to={iso(to)}"
        drill = Drill(settings, data_dir, api, [*ROUTES, price_history],
                      ["/api/stats/pools", "/v1/pools", price_history], {}, api_env)
        drill.before = drill.answers()
        assert all(status == 200 for status, _, _ in drill.before.values()), {
            p: a[2][:200] for p, a in drill.before.items() if a[0] != 200}
        # the answers are a function of the warehouse: asked again, the same
        assert_same_answers(drill.answers(), drill.before)
        yield drill
    finally:
        if api is not None:
            api.stop()
        devnet.stop()
        warehouse.stop()


def _cli_backup(drill: Drill, name: str) -> str:
    env = {**os.environ, "VEA_DATA_DIR": str(drill.data_dir), "CLICKHOUSE_URL": drill.settings.clickhouse_url,
           "CLICKHOUSE_DATABASE": DATABASE, "CLICKHOUSE_USER": drill.settings.clickhouse_user,
           "CLICKHOUSE_PASSWORD": drill.settings.clickhouse_password}
    done = subprocess.run(cli("warehouse", "backup", "--name", name), env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_dropped_tables_restored_from_a_backup_answer_byte_for_byte(drill):
    line = _cli_backup(drill, "drill-tables")
    assert line.startswith(f"backup 'drill-tables' of database {DATABASE}: BACKUP_CREATED, "), line
    assert (drill.data_dir / "warehouse" / "backups" / "drill-tables").is_dir()

    for table in DROPPED:
        drill.sql(f"DROP TABLE {DATABASE}.{table} SYNC")
    broken = drill.answers()
    assert all(broken[p] != drill.before[p] for p in drill.reading_dropped), "the drop is not visible"

    outcome = restore(drill.settings, "drill-tables", DROPPED)
    assert outcome.status == "RESTORED"
    assert_same_answers(drill.answers(), drill.before)

    # a table that exists is in the way unless the restore says to replace it
    with pytest.raises(BackupError, match="pool_snap15m already exist"):
        restore(drill.settings, "drill-tables", ["pool_snap15m"])
    drill.sql(f"TRUNCATE TABLE {DATABASE}.pool_snap15m")  # emptied by mistake
    assert drill.answers()["/api/stats/pools"] != drill.before["/api/stats/pools"]
    restore(drill.settings, "drill-tables", ["pool_snap15m"], replace=True)
    assert_same_answers(drill.answers(), drill.before)


def _tables(settings: Settings) -> dict[str, tuple[int, int]]:
    """Every table of the database: rows and an order-independent hash of every row, as reads see
    them (FINAL on a ReplacingMergeTree: a restored table merges its parts on its own schedule, so
    a replaced version may be gone from one copy and still stored in the other)."""
    with get_client(settings) as client:
        tables = client.query(
            "SELECT name, engine FROM system.tables WHERE database = {db:String} AND engine LIKE '%MergeTree'",
            parameters={"db": DATABASE}).result_rows
        return {t: tuple(client.query(f"SELECT count(), sum(cityHash64(*)) FROM {DATABASE}.{t}"
                                      f"{' FINAL' if 'Replacing' in engine else ''}").result_rows[0])
                for t, engine in tables}


def test_the_whole_database_restored_into_a_fresh_warehouse_answers_the_same(drill, tmp_path):
    _cli_backup(drill, "drill-whole")
    # the backup travels as a folder: into the new warehouse's backups folder (backups.allowed_path)
    shutil.copytree(drill.data_dir / "warehouse" / "backups" / "drill-whole",
                    tmp_path / "warehouse" / "backups" / "drill-whole")
    warehouse, url = start_warehouse(tmp_path)
    api = None
    try:
        settings = dataclasses.replace(drill.settings, clickhouse_url=url)
        outcome = restore(settings, "drill-whole")
        assert (outcome.status, outcome.what) == ("RESTORED", f"database {DATABASE}")
        tables = _tables(settings)
        assert {"schema_migrations", "snapshot_runs", "curation_publications", "pool_snap15m"} <= tables.keys()
        assert tables == _tables(drill.settings)  # every row of every table

        api = ApiServer(settings, log_path=tmp_path / "api.log", families=("stats", "v1", "vaults"),
                        env=drill.api_env).start()
        assert_same_answers(drill.answers(api), drill.before)
    finally:
        if api is not None:
            api.stop()
        warehouse.stop()
