"""The whole stack on one machine, for `ve-analytics up`.

Starts what the configuration does not already point elsewhere: the embedded warehouse unless
CLICKHOUSE_URL is set, and the devnet (its own distribution, `ve-devnet`, run as a process) unless
CHAIN_BOOK names a chain book; the devnet's book (`GET /book`) is then written where Settings reads
it, so the product gets the devnet's addresses as configuration, like any deployment. Then
migrates, backfills the history through Dagster, and starts the Dagster webserver and daemon, the
API and the vault API on its own port.
"""
from __future__ import annotations

import dataclasses
import json
import logging
import os
import sys
from pathlib import Path

import httpx

from ve_analytics.core.config import Settings
from ve_analytics.cli.processes import Service, cli
from ve_analytics.core.chains import load_book

log = logging.getLogger("stack")
CODE_LOCATION = ["-m", "ve_analytics.orchestration.definitions", "-a", "defs"]


def devnet_url() -> str:
    return f"http://{os.environ.get('DEVNET_HOST') or '127.0.0.1'}:{os.environ.get('DEVNET_PORT') or '8545'}"


def write_devnet_book(url: str, path: Path) -> Path:
    """Fetch a running devnet's chain book and write it to `path` (the product's CHAIN_BOOK)."""
    book = httpx.get(f"{url}/book", timeout=30).raise_for_status().json()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(book, indent=2))
    tmp.replace(path)
    return path


class Stack:
    def __init__(self, settings: Settings, log_dir: Path):
        self.settings = settings
        self.log_dir = log_dir
        self.services: list[Service] = []

    def _service(self, name: str, argv: list[str], ready_url: str | None, env: dict | None = None) -> Service:
        svc = Service(name, argv, ready_url, env=env or {}, log_path=self.log_dir / f"{name}.log")
        log.info("starting %s (log: %s)", name, svc.log_path)
        svc.start(timeout=300)
        self.services.append(svc)
        return svc

    def start(self, backfill_days: int | None = None) -> None:
        s = self.settings
        self.log_dir.mkdir(parents=True, exist_ok=True)
        if not os.environ.get("CLICKHOUSE_URL"):
            self._service("warehouse", cli("warehouse"), f"{s.clickhouse_url}/ping")
        if not os.environ.get("CHAIN_BOOK"):
            url = devnet_url()
            self._service("devnet", [sys.executable, "-m", "devnet"], f"{url}/health",
                          env={"DEVNET_DATA_DIR": str(s.data_dir)})
            write_devnet_book(url, s.chain_book)
            self.settings = s = dataclasses.replace(s, chains=load_book(s.chain_book, os.environ))
            log.info("chain book of the devnet written to %s (chains %s)", s.chain_book, ", ".join(map(str, s.chains)))

        from ve_analytics.orchestration.backfill import backfill, ensure_instance_dir
        from ve_analytics.warehouse.migrate import migrate

        migrate(s)
        ensure_instance_dir(s)
        os.environ["DAGSTER_HOME"] = str(s.dagster_home)
        backfill(s, days=backfill_days)
        # A long first backfill lets boundaries pass meanwhile, and the schedule only takes the newest
        # one: a second pass fills them (it skips everything already published, so it is quick).
        backfill(s, days=backfill_days)

        bin_dir = Path(sys.executable).parent
        dagster_env = {"DAGSTER_HOME": str(s.dagster_home)}
        self._service(
            "dagster-webserver",
            [str(bin_dir / "dagster-webserver"), *CODE_LOCATION, "-h", "127.0.0.1", "-p", str(s.dagster_port)],
            f"http://127.0.0.1:{s.dagster_port}/server_info",
            env=dagster_env,
        )
        self._service("dagster-daemon", [str(bin_dir / "dagster-daemon"), "run", *CODE_LOCATION], None, env=dagster_env)
        self._service("api", cli("api"), f"http://{s.api_host}:{s.api_port}/api/stats/openapi.json")
        # the vault data API also runs on its own port, as it would on its own host in production
        self._service("vault-api", cli("vault-api"), f"http://{s.vault_api_host}:{s.vault_api_port}/api/v1/openapi.json")

    def banner(self) -> str:
        s = self.settings
        return "\n".join(
            [
                "",
                "ve-analytics is up (Ctrl-C stops everything):",
                f"  API         http://{s.api_host}:{s.api_port}/api/stats/protocol",
                f"  OpenAPI     http://{s.api_host}:{s.api_port}/api/stats/openapi.json",
                f"  Vault API   http://{s.vault_api_host}:{s.vault_api_port}/api/v1/vaults  (also under the API's port)",
                f"  Dagster UI  http://127.0.0.1:{s.dagster_port}",
                f"  Warehouse   {s.clickhouse_url}  (database {s.clickhouse_database}; analyst user '{s.analyst_user}')",
                f"  Chains      {', '.join(f'{c.chain_id} ({c.subgraph_url})' for c in s.chains.values())}; book {s.chain_book}",
                f"  Logs        {self.log_dir}",
                "",
            ]
        )

    def dead_services(self) -> list[str]:
        return [svc.name for svc in self.services if not svc.alive]

    def stop(self) -> None:
        for svc in reversed(self.services):
            log.info("stopping %s", svc.name)
            svc.stop()
        self.services.clear()
