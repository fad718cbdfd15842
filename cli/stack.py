"""The whole stack on one machine, for `ve-analytics up`.

Starts what the configuration does not already point elsewhere: the embedded warehouse unless
CLICKHOUSE_URL is set, and the devnet (its own distribution, `ve-devnet`, run as a process) unless
CHAIN_BOOK names a chain book; the devnet's book (`GET /book`) is then written where Settings reads
it, so the product gets the devnet's addresses as configuration, like any deployment. Then
migrates, starts the Dagster webserver and daemon on the instance, backfills the history through
them (Dagster backfills, shown in the UI while they run), publishes the curation once every chain
has its newest snapshot, and starts the API and the vault API on its own port.

`DagsterServices` starts a webserver and a daemon for any Settings (the stack, `ve-analytics
backfill` when no webserver answers, the test suite): the code location gets the settings through
environment variables (Settings.to_env) and the read-write password as a file (Settings.secret_env).

Secrets reach every child as `NAME_FILE` paths, never as values (cli.processes), and each child
only the ones it uses: the warehouse its users' passwords, Dagster the read-write password, the
APIs the API reader's password, the cron token and the cursor secrets, the devnet none.
"""
from __future__ import annotations

import dataclasses
import json
import logging
import os
import sys
from pathlib import Path

import httpx

from ..core.chains import STATS_CHAIN_ID, load_book
from ..core.config import Settings
from .dagster_services import DagsterServices
from .processes import Service, cli

log = logging.getLogger("stack")
# the secret variables each kind of child gets (as files)
WAREHOUSE_SECRETS = ("CLICKHOUSE_PASSWORD", "CLICKHOUSE_ANALYST_PASSWORD", "CLICKHOUSE_API_PASSWORD")
API_SECRETS = ("CLICKHOUSE_API_PASSWORD", "CRON_TOKEN", "CURSOR_SECRETS")


# The chains of the /v1 family; the local stack runs a devnet for each (DEVNET_CHAINS narrows it).
DEVNET_CHAINS = "56,4663,8453,1,5042"


def devnet_processes() -> list[tuple[str, str]]:
    """(chain id, URL) of each devnet process the local stack runs: one per chain, on consecutive
    ports from DEVNET_PORT, so the chains generate their histories and answer on all cores."""
    host = os.environ.get("DEVNET_HOST") or "127.0.0.1"
    port = int(os.environ.get("DEVNET_PORT") or "8545")
    chains = [c.strip() for c in (os.environ.get("DEVNET_CHAINS") or DEVNET_CHAINS).split(",") if c.strip()]
    return [(cid, f"http://{host}:{port + i}") for i, cid in enumerate(chains)]


def write_devnet_book(urls: str | list[str], path: Path) -> Path:
    """Fetch the chain book of one or more running devnets (`GET /book`), merge their chains and
    write it to `path` (the product's CHAIN_BOOK)."""
    chains = []
    for url in [urls] if isinstance(urls, str) else urls:
        chains += httpx.get(f"{url}/book", timeout=30).raise_for_status().json()["chains"]
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps({"chains": chains}, indent=2))
    tmp.replace(path)
    return path


class Stack:
    def __init__(self, settings: Settings, log_dir: Path):
        self.settings = settings
        self.log_dir = log_dir
        self.services: list[Service] = []

    def _service(self, name: str, argv: list[str], ready_url: str | None, secrets: tuple[str, ...],
                 env: dict[str, str] | None = None) -> Service:
        svc = Service(name, argv, ready_url, env=env or {}, log_path=self.log_dir / f"{name}.log", secrets=secrets)
        log.info("starting %s (log: %s)", name, svc.log_path)
        svc.start(timeout=300)
        self.services.append(svc)
        return svc

    def start(self, backfill_days: int | None = None, *, on_fresh=None) -> list[int]:
        """Everything up to fresh data on every chain (the APIs answer from then on, `on_fresh` is
        called), then the history and older snapshots filling in behind, with progress lines.
        A chain that fails is reported and left behind (returned); the others keep serving."""
        s = self.settings
        self.log_dir.mkdir(parents=True, exist_ok=True)
        if not os.environ.get("CLICKHOUSE_URL"):
            self._service("warehouse", cli("warehouse"), f"{s.clickhouse_url}/ping", WAREHOUSE_SECRETS)
        if not os.environ.get("CHAIN_BOOK"):
            devnets = devnet_processes()
            # chain 56 has the most to serve (the deepest snapshots, the longest history): two
            # processes answer it (DEVNET_WORKERS overrides)
            started = [Service(f"devnet-{cid}", [sys.executable, "-m", "devnet"], f"{url}/health",
                               env={"DEVNET_DATA_DIR": str(s.data_dir), "DEVNET_CHAINS": cid,
                                    "DEVNET_PORT": url.rsplit(":", 1)[1],
                                    "DEVNET_WORKERS": os.environ.get("DEVNET_WORKERS")
                                    or ("2" if cid == str(STATS_CHAIN_ID) else "1")},
                               log_path=self.log_dir / f"devnet-{cid}.log", secrets=()) for cid, url in devnets]
            log.info("starting a devnet per chain (%s): generating their histories in parallel",
                     ", ".join(cid for cid, _ in devnets))
            for svc in started:  # all at once, then waited for
                svc.launch()
                self.services.append(svc)
            for svc in started:
                svc.wait_ready(timeout=600)
            write_devnet_book([url for _, url in devnets], s.chain_book)
            self.settings = s = dataclasses.replace(s, chains=load_book(s.chain_book, os.environ))
            log.info("chain book of the devnet written to %s (chains %s)", s.chain_book, ", ".join(map(str, s.chains)))

        from ..orchestration.backfill import BackfillFailed, backfill
        from ..warehouse.migrate import migrate

        migrate(s)
        dagster = DagsterServices(s, self.log_dir)
        try:
            dagster.start()
        finally:
            self.services.extend(dagster.services)
        self.settings = s = dagster.settings

        def serve() -> None:
            self.publish_curation()
            # the warehouse named, and the secrets the APIs use as files: they generate nothing
            api_env = {"CLICKHOUSE_URL": s.clickhouse_url, **s.secret_env(API_SECRETS)}
            self._service("api", cli("api"), f"http://{s.api_host}:{s.api_port}/api/stats/openapi.json", API_SECRETS,
                          api_env)
            # the vault data API also runs on its own port, as it would on its own host in production
            self._service("vault-api", cli("vault-api"), f"http://{s.vault_api_host}:{s.vault_api_port}/api/v1/openapi.json",
                          API_SECRETS, api_env)
            if on_fresh is not None:
                on_fresh()

        incomplete: list[int] = []
        try:
            backfill(s, days=backfill_days, on_fresh=serve)
            # a long first backfill lets boundaries pass meanwhile, and the schedules only take the
            # newest one: a second pass fills them (it skips everything already published)
            backfill(s, days=backfill_days)
        except BackfillFailed as exc:
            incomplete = exc.chains
            log.error("backfill incomplete on chain(s) %s (the other chains are served): %s", incomplete, exc)
        if not any(svc.name == "api" for svc in self.services):
            serve()
        return incomplete

    def publish_curation(self) -> None:
        """Publish the curation (CURATION_SOURCE) once every chain has its newest snapshot, through
        Dagster; a failure is logged and the stack goes on (curation routes answer 503 until a
        publication exists)."""
        from ..orchestration.curation import materialize_curation

        try:
            published = materialize_curation(self.settings)
        except Exception as exc:  # noqa: BLE001 - the rest of the stack serves without it
            log.error("curation not published (%s): %s", self.settings.curation_source, exc)
            return
        log.info("%s (Dagster run %s)", published["summary"], published["run_id"])

    def banner(self) -> str:
        s = self.settings
        return "\n".join(
            [
                "",
                "ve-analytics is up, every chain has its newest snapshot (Ctrl-C stops everything);",
                "older snapshots and history keep filling in behind (progress lines below, and in the Dagster UI):",
                f"  API         http://{s.api_host}:{s.api_port}/api/stats/protocol",
                f"  Health      http://{s.api_host}:{s.api_port}/api/stats/health  (per chain: freshness, coverage, lag)",
                f"  OpenAPI     http://{s.api_host}:{s.api_port}/api/stats/openapi.json",
                f"  /v1         http://{s.api_host}:{s.api_port}/v1/chains  (multichain; contract at /openapi.json)",
                f"  Vault API   http://{s.vault_api_host}:{s.vault_api_port}/api/v1/vaults  (also under the API's port)",
                f"  Dagster UI  {s.dagster_url}  (backfills: {s.dagster_url}/overview/backfills)",
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
