"""The whole pipeline on real components, started by the suite on free ports.

warehouse (subprocess, chDB) + devnet (subprocess) -> Dagster webserver and daemon (subprocesses)
on a temporary instance, which run the backfill -> API (subprocess) called over HTTP. Single
snapshots (`run_snapshot`) execute in this process against the same instance. The stack starts
*stale*: snapshots are materialized only up to an hour before the newest 15-minute boundary, so
the health test can watch it flip; the `fresh` fixture then materializes the newest partition for
everyone else. Every process, the devnet's clock included, runs on the session's clock
(support/instant.py: from VEA_TEST_AT on), which they inherit from this process's environment.
"""
from __future__ import annotations

import dataclasses
import functools
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from support.contract_check import ContractChecker
from ve_analytics.api.sql import unix_seconds
from ve_analytics.cli.processes import Service, cli, free_port
from ve_analytics.cli.dagster_services import DagsterServices
from ve_analytics.cli.stack import write_devnet_book
from ve_analytics.core.epochs import QUARTER_HOUR, WEEK, epoch_start, iso

HISTORY_DAYS = 32  # > 30 so the 30-day window is fully covered
STALE_BY_SECONDS = 3600


@dataclass
class Stack:
    settings: object
    data_dir: Path
    env: dict
    warehouse: Service
    devnet: Service
    api: Service
    published_snapshots: list[int]  # snapshot times (Unix seconds) this suite has published

    @property
    def api_url(self) -> str:
        return f"http://127.0.0.1:{self.env['API_PORT']}"

    @property
    def devnet_url(self) -> str:
        return f"http://127.0.0.1:{self.env['DEVNET_PORT']}"

    def get(self, path: str, **kw) -> httpx.Response:
        """GET on the API; every /api/stats answer is validated against the served contract."""
        r = httpx.get(self.api_url + path, timeout=30, **kw)
        if path.startswith("/api/stats/") and not path.startswith("/api/stats/openapi.json"):
            self.contract.check(r)
        return r

    def wait_served(self, at: int, within: float = 2.0) -> None:
        """The API serves the snapshot published at `at` within `within` seconds of its success
        row (api/snapshots.py: each worker's pointer follows publications in the background)."""
        deadline = time.monotonic() + within
        while True:
            served = self.get("/api/stats/config").json()["data"]["lastSuccessfulSnapshot"]["snapshotAt"]
            if served == iso(at):
                return
            assert time.monotonic() < deadline, f"the API still serves {served}, {within} s after {iso(at)} was published"
            time.sleep(0.05)

    def data(self, path: str):
        r = self.get(path)
        assert r.status_code == 200, r.text
        return r.json()["data"]

    @functools.cached_property
    def contract(self) -> ContractChecker:
        return ContractChecker(httpx.get(self.api_url + "/api/stats/openapi.json", timeout=30).json())

    def truth(self, path: str, **params) -> dict:
        r = httpx.get(f"{self.devnet_url}/chains/56/truth/{path}", params=params, timeout=30)
        r.raise_for_status()
        return r.json()

    def fault(self, target: str, mode: str, **extra) -> None:
        body = {"chainId": 56, "target": target, "mode": mode, **extra}
        httpx.post(f"{self.devnet_url}/control/faults", json=body, timeout=10).raise_for_status()


def pytest_collection_modifyitems(items):
    # Tests that need the stack while it is still stale run first.
    # Tests that need the stack while it is still stale run first; ones that stop a component last.
    def rank(item) -> int:
        if item.get_closest_marker("stale_stack"):
            return 0
        return 2 if item.get_closest_marker("disruptive") else 1

    items.sort(key=rank)


def pytest_configure(config):
    config.addinivalue_line("markers", "stale_stack: runs before the stack is refreshed")
    config.addinivalue_line("markers", "disruptive: stops a component; runs after the others")


@pytest.fixture(scope="session")
def stack(tmp_path_factory) -> Stack:
    data_dir = tmp_path_factory.mktemp("stack")
    env = {
        "VEA_DATA_DIR": str(data_dir),
        "WAREHOUSE_PORT": str(free_port()),
        "DEVNET_PORT": str(free_port()),
        "API_PORT": str(free_port()),
        "API_WORKERS": "1",  # byte-identical repeats within a snapshot are one worker's cache (tests/api/test_workers.py: several)
        "DEVNET_SEED": "2026",
        "DEVNET_HISTORY_DAYS": str(HISTORY_DAYS),
        "DEVNET_CHAINS": "56",  # the /api/stats and /api/v1 families serve chain 56
        "SNAPSHOT_PARTITION_DAYS": str(HISTORY_DAYS + 1),
        "DAGSTER_HOME": str(data_dir / "dagster"),
        "DEVNET_DATA_DIR": str(data_dir),
    }
    for key in ("CLICKHOUSE_URL", "CHAIN_BOOK", "SUBGRAPH_URL_56", "RPC_URL_56"):
        os.environ.pop(key, None)  # the suite always runs on its own embedded stack
    os.environ.update(env)
    (data_dir / "dagster").mkdir()

    from ve_analytics.core.config import Settings

    services: list[Service | DagsterServices] = []
    try:
        warehouse = Service("warehouse", cli("warehouse"), f"http://127.0.0.1:{env['WAREHOUSE_PORT']}/ping", env,
                            data_dir / "warehouse.log").launch()
        services.append(warehouse)
        devnet_url = f"http://127.0.0.1:{env['DEVNET_PORT']}"
        devnet = Service("devnet", [sys.executable, "-m", "devnet"], f"{devnet_url}/health", env, data_dir / "devnet.log").start()
        services.append(devnet)
        write_devnet_book(devnet_url, data_dir / "chain-book.json")  # where Settings reads it (VEA_DATA_DIR)
        settings = Settings.from_env()
        # The Dagster webserver and daemon start while the warehouse migrates (the code location
        # builds each chain's assets from the chain book as it loads). Schedules off: the stack
        # must stay stale until the tests refresh it.
        dagster = DagsterServices(settings, data_dir / "logs", port=free_port(), schedules=False)
        services.append(dagster)
        starting = ThreadPoolExecutor(1).submit(dagster.start)

        from ve_analytics.orchestration.backfill import backfill
        from ve_analytics.warehouse.migrate import migrate

        warehouse.wait_ready(120)
        migrate(settings)
        settings = dataclasses.replace(settings, dagster_port=starting.result().settings.dagster_port)
        summary = backfill(settings, snapshots_until_offset=STALE_BY_SECONDS, snapshot_hours=6, timeout=900)
        dagster.stop()  # the tests run single snapshots in this process
        assert summary["chains"][56]["published"], "the backfill published no snapshot"
        api = Service("api", cli("api"), f"http://127.0.0.1:{env['API_PORT']}/api/stats/openapi.json", env, data_dir / "api.log").start()
        services.append(api)
        yield Stack(settings, data_dir, env, warehouse, devnet, api, list(summary["chains"][56]["published"]))
    finally:
        starting.exception()  # started or failed: stop what runs
        for svc in reversed(services):
            svc.stop()


@pytest.fixture(scope="session")
def fresh(stack) -> Stack:
    """The stack with the newest 15-minute snapshot published."""
    from ve_analytics.orchestration.backfill import run_snapshot
    from ve_analytics.assets.partitions import latest_snapshot_at

    at = latest_snapshot_at()
    run_snapshot(stack.settings, at)
    stack.published_snapshots.append(at)
    stack.wait_served(at)
    return stack


@pytest.fixture(scope="session")
def foundation_voted(fresh) -> int:
    """A published snapshot inside the latest epoch, up to the served one, in which the foundation
    has voted by the devnet's truth (publishing that epoch's last snapshot if the suite has none).

    The foundation votes in the middle of an epoch (devnet: 36 to 39 hours after its start), so
    for the first day and a half of an epoch the newest snapshots hold none of its votes nor KPIs."""
    served = fresh.data("/api/stats/config")["lastSuccessfulSnapshot"]
    latest, block = unix_seconds(served["snapshotAt"]), served["blockNumber"]
    epoch = epoch_start(latest)
    if int(fresh.truth("votes", epoch=epoch, block=block)["foundationWeight"]) > 0:
        return latest
    epoch -= WEEK  # not yet this epoch: the previous one has ended, with its votes
    assert int(fresh.truth("votes", epoch=epoch)["foundationWeight"]) > 0, "the foundation votes every epoch"
    inside = [t for t in fresh.published_snapshots if epoch_start(t) == epoch]
    if inside:  # the suite's snapshots are its last hours, after the foundation's vote (mid-epoch)
        return max(inside)
    from ve_analytics.orchestration.backfill import run_snapshot

    at = epoch + WEEK - QUARTER_HOUR
    run_snapshot(fresh.settings, at)
    fresh.published_snapshots.append(at)
    return at
