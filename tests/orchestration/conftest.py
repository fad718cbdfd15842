"""The pipeline on real components: a warehouse server (subprocess, chDB) and a devnet (in process,
fixed clock, four chains) on free ports, and a Dagster webserver and daemon (subprocesses) on a
temporary instance, their code location configured with the session's Settings through
environment variables. The session backfills every chain: HISTORY_DAYS days of history (the young
chain 4663 has less: its first activity is inside that window) and the last 2 hours of snapshots
(chain 5042's subgraph lags 36 hours, so its hours end 36 hours earlier); single runs
(run_snapshot, run_history) execute in this process against the same instance.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

from orchestration_session import CHAINS, HISTORY_DAYS, SEED
from support import instant
from support.chains import with_devnet_book
from support.warehouse import start_warehouse
from ve_analytics.cli.processes import Service, free_port
from ve_analytics.cli.dagster_services import DagsterServices
from ve_analytics.core.config import Settings
from ve_analytics.core.epochs import DAY

SNAPSHOT_HOURS = 2
BACKFILL_TIMEOUT = 600  # a stuck daemon fails the session instead of hanging it


@dataclass
class Stack:
    settings: Settings
    devnet: object
    warehouse: Service
    dagster: DagsterServices
    history_now: int  # the devnet's clock when the history was backfilled
    backfill_summary: dict
    progress: list[str] = field(default_factory=list)

    def client(self):
        from ve_analytics.warehouse.client import get_client

        return get_client(self.settings)

    def query(self, sql: str, **params):
        with self.client() as c:
            return c.query(sql, parameters=params).result_rows

    def scalar(self, sql: str, **params):
        return self.query(sql, **params)[0][0]

    def truth(self, path: str, chain_id: int = 56, **params) -> dict:
        r = httpx.get(f"{self.devnet.url}/chains/{chain_id}/truth/{path}", params=params, timeout=30)
        r.raise_for_status()
        return r.json()

    def deployment(self, chain_id: int) -> dict:
        return httpx.get(f"{self.devnet.url}/chains/{chain_id}/deployment", timeout=30).raise_for_status().json()

    def fault(self, target: str, mode: str, chain_id: int = 56, **extra) -> None:
        body = {"chainId": chain_id, "target": target, "mode": mode, **extra}
        httpx.post(f"{self.devnet.url}/control/faults", json=body, timeout=10).raise_for_status()

    def advance_clock(self, seconds: int) -> int:
        r = httpx.post(f"{self.devnet.url}/control/clock", json={"advanceSeconds": seconds}, timeout=10)
        r.raise_for_status()
        return int(r.json()["now"])

    def devnet_now(self) -> int:
        return int(httpx.get(f"{self.devnet.url}/control/clock", timeout=10).json()["now"])

    def latest_success(self, chain_id: int = 56) -> int | None:
        rows = self.query(
            "SELECT toInt64(toUnixTimestamp(max(snapshot_at))) FROM snapshot_runs FINAL "
            "WHERE chain_id = {c:UInt32} AND status = 'success' HAVING count() > 0", c=chain_id
        )
        return rows[0][0] if rows else None


@pytest.fixture(scope="session")
def stack(tmp_path_factory) -> Stack:
    from devnet.server import DevnetServer
    from ve_analytics.orchestration.backfill import backfill
    from ve_analytics.warehouse.migrate import migrate

    data_dir: Path = tmp_path_factory.mktemp("orchestration")
    warehouse, base, warehouse_url = start_warehouse(data_dir)
    # The devnet runs 20 minutes behind the session's clock (support/instant.py; never ahead of the
    # wall clock), so the partition after its newest snapshot already exists for Dagster
    # (partitions follow the wall clock) when a test advances the devnet clock by 15 minutes.
    now = instant.now() - 20 * 60
    if now % 900 < 5:
        now += 5  # a snapshot time's block is final only once the head has passed it
    # every chain's genesis is its history before the hour of `now`: chain 56 starts at midnight
    # HISTORY_DAYS days ago, the young chain keeps its own (shorter) history
    history = HISTORY_DAYS + (now - now % 3600) % DAY / DAY
    devnet = DevnetServer(seed=SEED, history_days=history, chains=CHAINS, now=now, manual_clock=True).start()
    settings = with_devnet_book(dataclasses.replace(
        base,
        data_dir=data_dir,
        clickhouse_url=warehouse_url,
        clickhouse_database="vea_orchestration_test",
        dagster_home=data_dir / "dagster",
    ), devnet.url, data_dir)
    # the devnet runs behind the wall clock: the schedules stay off, the tests launch what runs
    dagster = DagsterServices(settings, data_dir / "logs", port=free_port(), schedules=False)
    try:
        migrate(settings)
        settings = dagster.start().settings
        lines: list[str] = []
        summary = backfill(settings, snapshot_hours=SNAPSHOT_HOURS, progress=lines.append, timeout=BACKFILL_TIMEOUT)
        yield Stack(settings, devnet, warehouse, dagster, now, summary, lines)
    finally:
        dagster.stop()
        devnet.stop()
        warehouse.stop()
