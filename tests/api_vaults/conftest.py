"""The vault API over real HTTP: a devnet in process (manual clock, fixed genesis), a warehouse
server subprocess (migrated, seeded with one published stats snapshot's token prices and gauge
APRs), and the API (`families=("vaults",)`) in its own process.

The devnet's clock starts inside cl-btcb-wbnb's strategy-pause window (40-47 % of the history), so
the head block has a vault whose deposits are unavailable next to vaults whose deposits are open.
Every response received through `Api` is validated against the served /api/v1/openapi.json.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Callable

import httpx
import pytest

from support import instant
from support.contract_check import ContractChecker
from support.api_server import ApiServer
from ve_analytics.core.config import Settings
from support.chains import with_devnet_book
from ve_analytics.core.epochs import DAY, HOUR, QUARTER_HOUR
from ve_analytics.cli.processes import Service, cli, free_port
from ve_analytics.warehouse.client import get_client
from ve_analytics.warehouse.migrate import migrate
from vault_suite import UNPRICED_GAUGE_VAULT, UNWRAPPED_GAUGE, Api

SEED = 56
HISTORY_DAYS = 2
RUN_COLUMNS = ["chain_id", "snapshot_at", "run_id", "status", "block_number", "block_timestamp", "started_at",
               "finished_at", "rows_written", "sources", "error"]
TOKEN_COLUMNS = ["chain_id", "snapshot_at", "token_address", "symbol", "name", "decimals", "price_usd", "derived_eth", "tvl_usd"]
GAUGE_COLUMNS = ["chain_id", "snapshot_at", "gauge_address", "pool_address", "is_alive", "epoch_start", "votes_raw",
                 "foundation_votes_raw", "foundation_vote_share", "emissions_epoch_raw", "emission_apr", "fee_apr",
                 "bribe_apr", "total_apr", "bribes_epoch_usd", "fees_epoch_usd"]


def ts(unix: int) -> datetime:
    return datetime.fromtimestamp(unix, tz=timezone.utc)


@dataclass
class Seeded:
    prices: dict[str, float]  # lower-case token address -> USD
    aprs: dict[str, float]  # lower-case gauge address -> total APR


@dataclass
class Devnet:
    server: Any

    @property
    def url(self) -> str:
        return self.server.url

    def truth(self, block: int | None = None) -> dict:
        params = {} if block is None else {"block": block}
        r = httpx.get(f"{self.url}/chains/56/truth/vaults", params=params, timeout=30)
        r.raise_for_status()
        return r.json()

    def fault(self, mode: str, **extra: Any) -> None:
        body = {"chainId": 56, "target": "vaults", "mode": mode, **extra}
        httpx.post(f"{self.url}/control/faults", json=body, timeout=10).raise_for_status()

    def advance(self, seconds: int) -> None:
        httpx.post(f"{self.url}/control/clock", json={"advanceSeconds": seconds}, timeout=10).raise_for_status()


@pytest.fixture(scope="session")
def devnet():
    from devnet.server import DevnetServer

    now = instant.AT
    genesis = now - now % DAY - HISTORY_DAYS * DAY
    pause_start = (genesis + int(0.40 * HISTORY_DAYS * DAY)) // HOUR * HOUR + 25 * 60
    with DevnetServer(seed=SEED, history_days=HISTORY_DAYS, genesis_ts=genesis, now=pause_start + 30 * 60, manual_clock=True) as server:
        yield Devnet(server)


@pytest.fixture(scope="session")
def warehouse(tmp_path_factory):
    data_dir: Path = tmp_path_factory.mktemp("vault-api-warehouse")
    port = free_port()
    argv = cli("warehouse", "--host", "127.0.0.1", "--port", str(port), "--data-dir", str(data_dir))
    service = Service("warehouse", argv, f"http://127.0.0.1:{port}/ping", {"LOG_LEVEL": "WARNING"}, data_dir / "warehouse.log").start(120)
    try:
        yield f"http://127.0.0.1:{port}", data_dir
    finally:
        service.stop()


@pytest.fixture(scope="session")
def settings(warehouse, devnet) -> Settings:
    url, data_dir = warehouse
    settings = with_devnet_book(dataclasses.replace(
        Settings.from_env(),
        data_dir=data_dir,
        clickhouse_url=url,
        clickhouse_user="default",  # its password: generated in this process's data folder, which the warehouse inherits
        clickhouse_database="vault_api_test",
        stale_after_minutes=45,
        vault_api_rate_per_second=1000.0,
        vault_api_rate_burst=10_000,
        api_workers=1,  # one worker's memo: repeated answers within a TTL are the same bytes
    ), devnet.server.url, data_dir)
    migrate(settings)
    return settings


@pytest.fixture(scope="session")
def seeded(settings, devnet) -> Seeded:
    """One published stats snapshot: a price for every vault token, an APR for every vault gauge
    but one, and a killed gauge no vault wraps."""
    truth = devnet.truth()
    latest = instant.AT // QUARTER_HOUR * QUARTER_HOUR  # the API's clock is frozen at the instant
    at = ts(latest)
    tokens = sorted({v[k].lower() for v in truth["vaults"] for k in ("token0", "token1")})
    prices = {address: round(1.5 + i * 0.75, 2) for i, address in enumerate(tokens)}
    gauges = {v["gauge"].lower(): v for v in truth["vaults"] if v["gauge"] and v["key"] != UNPRICED_GAUGE_VAULT}
    aprs = {g: 0.1 + i / 10 for i, g in enumerate(sorted(gauges))}
    client = get_client(settings)
    try:
        client.insert("snapshot_runs", [[56, at, "run-1", "success", 1, at, at, at + timedelta(seconds=30), {"token_snap15m": len(tokens)}, ["chain-rpc"], ""]], column_names=RUN_COLUMNS)
        client.insert("token_snap15m", [[56, at, a, "T", "T", 18, p, None, None] for a, p in prices.items()], column_names=TOKEN_COLUMNS)
        rows = [[56, at, g, gauges[g]["pool"].lower(), True, at, None, None, None, None, apr / 2, apr / 4, apr / 4, apr, None, None]
                for g, apr in aprs.items()]
        aprs[UNWRAPPED_GAUGE] = 0.05
        rows.append([56, at, UNWRAPPED_GAUGE, "0x" + "cd" * 20, False, at, None, None, None, None, 0.05, 0.0, 0.0, 0.05, None, None])
        client.insert("gauge_snap15m", rows, column_names=GAUGE_COLUMNS)
    finally:
        client.close()
    return Seeded(prices, aprs)


@pytest.fixture(scope="session")
def http():
    with httpx.Client(timeout=30) as client:
        yield client


@pytest.fixture(scope="session")
def start_api(settings, seeded, tmp_path_factory) -> Callable[..., ApiServer]:
    """Start an API server (its own memo: a fresh read of the chain); stopped at session end."""
    servers: list[ApiServer] = []

    def start(**overrides: Any) -> ApiServer:
        log = tmp_path_factory.mktemp("vault-api") / "api.log"
        server = ApiServer(dataclasses.replace(settings, **overrides), log_path=log, families=("vaults",),
                           env=instant.frozen_env()).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture(scope="session")
def contract(start_api, http) -> ContractChecker:
    server = start_api()
    r = http.get(server.url + "/api/v1/openapi.json")
    assert r.status_code == 200
    return ContractChecker(r.json())


@pytest.fixture(scope="session")
def api(start_api, contract, http) -> Api:
    return Api(start_api(), contract, http)
