"""The whole stack on one machine, for `ve-analytics up`.

Starts what the configuration does not already point elsewhere: the embedded warehouse unless
CLICKHOUSE_URL is set, the devnet unless SUBGRAPH_URL_56 is set. Then migrates, backfills the
history through Dagster, and starts the Dagster webserver and daemon, the API and the vault API
on its own port.
"""
from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

from core.config import Settings
from core.processes import Service, cli

log = logging.getLogger("stack")
REPO_ROOT = Path(__file__).resolve().parent.parent

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
        if not os.environ.get("SUBGRAPH_URL_56"):
            self._service("devnet", cli("devnet"), f"{s.devnet_url}/health")

        from orchestration.backfill import backfill, ensure_instance_dir
        from warehouse.migrate import migrate

        migrate(s)
        ensure_instance_dir(s)
        os.environ["DAGSTER_HOME"] = str(s.dagster_home)
        backfill(s, days=backfill_days)
        # A long first backfill lets boundaries pass meanwhile, and the schedule only takes the newest
        # one: a second pass fills them (it skips everything already published, so it is quick).
        backfill(s, days=backfill_days)

        bin_dir = Path(sys.executable).parent
        workspace = str(REPO_ROOT / "workspace.yaml")
        dagster_env = {"DAGSTER_HOME": str(s.dagster_home)}
        self._service(
            "dagster-webserver",
            [str(bin_dir / "dagster-webserver"), "-w", workspace, "-h", "127.0.0.1", "-p", str(s.dagster_port)],
            f"http://127.0.0.1:{s.dagster_port}/server_info",
            env=dagster_env,
        )
        self._service("dagster-daemon", [str(bin_dir / "dagster-daemon"), "run", "-w", workspace], None, env=dagster_env)
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
                f"  Devnet      {s.devnet_url}/chains/56/subgraph  and  /chains/56/rpc",
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
