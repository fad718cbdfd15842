"""API behaviour over real HTTP: a real warehouse, crafted snapshot rows, the API in its own process.

The embedded warehouse runs as a subprocess (`ve-analytics warehouse`), so it can live for the
whole session without holding chDB in the test process (other suites open their own in-process
warehouse). Each scenario is its own database on that warehouse with its own API server:

- fresh: ~100 snapshots over 25 hours up to the latest 15-minute boundary, a failed run among
  them and a newer failed run after them, daily rows with a gap, pools for trackedPairs;
- stale: one successful snapshot two hours old;
- empty: migrated, no snapshot yet;
- unreachable: the API pointed at a port where no warehouse listens.

Every response any test receives through `Api` is validated against the OpenAPI document the
API serves (body schema per path and status, documented headers).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import httpx
import pytest

from support import instant
from support.contract_check import ContractChecker
from support.chains import with_devnet_book
from api_settings import ANALYST_PASSWORD, ANALYST_USER, WRITER_PASSWORD, WRITER_USER, settings_for
from support.api_server import ApiServer
from governance_seed import seed_governance
from market_seed import seed_market_minimal
from ve_analytics.core.config import Settings
from ve_analytics.core.epochs import DAY, HOUR, QUARTER_HOUR, epoch_start
from ve_analytics.cli.processes import Service, cli, free_port
from ve_analytics.warehouse.client import get_client
from ve_analytics.warehouse.migrate import migrate


PROTOCOL_COLUMNS = [
    "chain_id", "snapshot_at", "block_number", "block_timestamp", "tvl_usd", "tvl_v2_usd", "tvl_cl_usd",
    "pool_count", "flow_window_end", "volume_24h_usd", "fees_24h_usd", "hours_24h", "volume_7d_usd",
    "fees_7d_usd", "hours_7d", "volume_30d_usd", "fees_30d_usd", "hours_30d", "active_gauge_count",
    "epoch_start", "emissions_epoch_raw", "ve_locked_raw", "ve_voting_power_raw", "core_price_usd", "ingested_at",
]
RUN_COLUMNS = [
    "chain_id", "snapshot_at", "run_id", "status", "block_number", "block_timestamp", "started_at",
    "finished_at", "rows_written", "sources", "error",
]
POOL_COLUMNS = [
    "chain_id", "snapshot_at", "pool_address", "pool_type", "token0_address", "token1_address", "token0_symbol",
    "token1_symbol", "fee_pips", "is_dynamic_fee", "reserve0", "reserve1", "tvl_usd", "volume_24h_usd",
    "fees_24h_usd", "hours_24h", "gauge_address", "gauge_alive",
]
DAILY_COLUMNS = ["chain_id", "day", "volume_usd", "fees_usd", "hours_covered", "ingested_at"]

SOURCES = ["subgraph", "chain-rpc"]
EMISSIONS_RAW = 123456789012345678901234567  # > 2**64: only a decimal string keeps it exact
VE_LOCKED_RAW = 5 * 10**24


def ts(unix: int) -> datetime:
    return datetime.fromtimestamp(unix, tz=timezone.utc)


# ------------------------------------------------------------------------------ warehouse


@dataclass
class Warehouse:
    data_dir: Path
    port: int
    service: Service | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = {
            "CLICKHOUSE_USER": WRITER_USER,
            "CLICKHOUSE_PASSWORD": WRITER_PASSWORD,
            "CLICKHOUSE_ANALYST_USER": ANALYST_USER,
            "CLICKHOUSE_ANALYST_PASSWORD": ANALYST_PASSWORD,
            "LOG_LEVEL": "WARNING",
        }
        argv = cli("warehouse", "--host", "127.0.0.1", "--port", str(self.port), "--data-dir", str(self.data_dir))
        self.service = Service("warehouse", argv, f"{self.url}/ping", env, self.data_dir / "warehouse.log").start(120)

    def stop(self) -> None:
        if self.service is not None:
            self.service.stop()
            self.service = None


@pytest.fixture(scope="session")
def warehouse(tmp_path_factory):
    wh = Warehouse(tmp_path_factory.mktemp("api-warehouse"), free_port())
    wh.start()
    try:
        yield wh
    finally:
        wh.stop()


# ------------------------------------------------------------------------------ crafted data


def latest_boundary() -> int:
    """The newest boundary at the session's instant, at which the API's clock is frozen."""
    return instant.AT // QUARTER_HOUR * QUARTER_HOUR


def run_row(at: int, run_id: str, status: str, chain_id: int = 56) -> list:
    t = ts(at)
    return [chain_id, t, run_id, status, 1_000_000 + at // 3, t, t, t + timedelta(seconds=40), {"protocol_snap15m": 1}, SOURCES, ""]


def protocol_row(at: int, tvl: float, **overrides: Any) -> list:
    base = {
        "chain_id": 56,
        "snapshot_at": ts(at),
        "block_number": 1_000_000 + at // 3,
        "block_timestamp": ts(at - 2),
        "tvl_usd": tvl,
        "tvl_v2_usd": tvl * 0.6,
        "tvl_cl_usd": tvl * 0.4,
        "pool_count": 3,
        "flow_window_end": None,
        "volume_24h_usd": 500.0,
        "fees_24h_usd": 1.5,
        "hours_24h": 0,
        "volume_7d_usd": None,
        "fees_7d_usd": None,
        "hours_7d": 0,
        "volume_30d_usd": None,
        "fees_30d_usd": None,
        "hours_30d": 0,
        "active_gauge_count": None,
        "epoch_start": ts(epoch_start(at)),
        "emissions_epoch_raw": None,
        "ve_locked_raw": None,
        "ve_voting_power_raw": None,
        "core_price_usd": 2.0,
        "ingested_at": ts(at + 60),
    }
    base.update(overrides)
    return [base[c] for c in PROTOCOL_COLUMNS]


@dataclass
class FreshData:
    latest: int
    published: list[int]  # every successful snapshot of chain 56, ascending
    failed: list[int]
    without_protocol_row: int
    window_end: int
    daily: dict[str, tuple[float, float, int]]  # YYYY-MM-DD -> (volume, fees, hours) as served after FINAL
    emissions_raw: int = EMISSIONS_RAW
    ve_locked_raw: int = VE_LOCKED_RAW
    governance: Any = None  # governance_seed.Gov: the crafted governance rows

    @property
    def snapshot_day(self) -> date:
        return ts(self.latest).date()


def seed_fresh(settings: Settings) -> FreshData:
    latest = latest_boundary()
    client = get_client(settings)
    runs, protocol = [], []
    published, failed = [], []
    without_row = latest - 7 * QUARTER_HOUR
    for k in range(0, 101):  # 25 hours of 15-minute snapshots back from the latest
        at = latest - k * QUARTER_HOUR
        status = "failed" if k == 4 else "success"
        runs.append(run_row(at, f"run-{k}", status))
        (failed if status == "failed" else published).append(at)
        if at != without_row:  # a failed run may have written rows before failing
            protocol.append(protocol_row(at, 1_000_000.0 - k))
    # a newer run that failed: never visible
    newer_failed = latest + QUARTER_HOUR
    runs.append(run_row(newer_failed, "run-newer-failed", "failed"))
    protocol.append(protocol_row(newer_failed, 9.0))
    failed.append(newer_failed)
    # another chain's newer success: ignored by the chain filter
    runs.append(run_row(latest + 2 * QUARTER_HOUR, "run-other-chain", "success", chain_id=1))

    window_end = latest // HOUR * HOUR
    # the latest snapshot's row, written twice: FINAL must serve the newer version
    latest_full = dict(
        flow_window_end=ts(window_end),
        volume_24h_usd=1234.5,
        fees_24h_usd=3.75,
        hours_24h=24,
        volume_7d_usd=8000.25,
        fees_7d_usd=24.0,
        hours_7d=168,
        volume_30d_usd=30000.0,
        fees_30d_usd=90.0,
        hours_30d=700,  # 20 buckets missing: complete is false
        active_gauge_count=7,
        emissions_epoch_raw=EMISSIONS_RAW,
        ve_locked_raw=VE_LOCKED_RAW,
        ve_voting_power_raw=None,
        core_price_usd=2.5,
    )
    protocol = [row for row in protocol if row[1] != ts(latest)]
    protocol.append(protocol_row(latest, 111.0, **{**latest_full, "ingested_at": ts(latest + 10)}))
    protocol.append(protocol_row(latest, 2_000_000.0, **{**latest_full, "ingested_at": ts(latest + 20)}))

    client.insert("snapshot_runs", runs, column_names=RUN_COLUMNS)
    client.insert("protocol_snap15m", protocol, column_names=PROTOCOL_COLUMNS)

    day = ts(latest).date()
    hours_today = (latest % DAY) // HOUR
    daily_rows = [
        [56, day, 10.0, 0.03, hours_today, ts(latest)],
        # day - 1 has no row at all
        [56, day - timedelta(days=2), 999.0, 9.99, 20, ts(latest - 3 * DAY)],  # superseded version
        [56, day - timedelta(days=2), 240.0, 0.72, 24, ts(latest - DAY)],
        [56, day - timedelta(days=3), 480.0, 1.44, 24, ts(latest - DAY)],
        [56, day - timedelta(days=40), 1.0, 0.01, 24, ts(latest - DAY)],
        [56, day + timedelta(days=1), 5.0, 0.01, 1, ts(latest)],  # after the snapshot's day: never served
    ]
    client.insert("protocol_daily", daily_rows, column_names=DAILY_COLUMNS)
    daily = {
        day.isoformat(): (10.0, 0.03, hours_today),
        (day - timedelta(days=2)).isoformat(): (240.0, 0.72, 24),
        (day - timedelta(days=3)).isoformat(): (480.0, 1.44, 24),
        (day - timedelta(days=40)).isoformat(): (1.0, 0.01, 24),
    }

    def pool(at: int, address: str, kind: str, sym0: str, sym1: str) -> list:
        token0, token1 = "0x" + "1" * 40, "0x" + "2" * 40
        return [56, ts(at), address, kind, token0, token1, sym0, sym1, 2500, False, 1.0, 2.0, 10.0, 1.0, 0.1, 24, None, None]

    pools = [
        pool(latest, "0x" + "a" * 40, "v2-volatile", "WBNB", "USDT"),
        pool(latest, "0x" + "b" * 40, "cl", "WBNB", "USDT"),  # same pair twice: listed once
        pool(latest, "0x" + "c" * 40, "v2-stable", "CAKE", "WBNB"),
        pool(latest - QUARTER_HOUR, "0x" + "d" * 40, "cl", "ETH", "USDC"),  # an older snapshot only
    ]
    client.insert("pool_snap15m", pools, column_names=POOL_COLUMNS)
    governance = seed_governance(client, latest)
    seed_market_minimal(client, latest)
    client.close()
    return FreshData(latest, sorted(published), sorted(failed), without_row, window_end, daily, governance=governance)


def seed_stale(settings: Settings) -> int:
    at = latest_boundary() - 2 * HOUR
    client = get_client(settings)
    client.insert("snapshot_runs", [run_row(at, "run-stale", "success")], column_names=RUN_COLUMNS)
    client.insert("protocol_snap15m", [protocol_row(at, 5.0)], column_names=PROTOCOL_COLUMNS)
    client.close()
    return at


class Api:
    """httpx against one API server; every response is checked against the contract."""

    def __init__(self, server: ApiServer, contract: ContractChecker | None, client: httpx.Client):
        self.server = server
        self.contract = contract
        self.client = client

    @property
    def url(self) -> str:
        return self.server.url

    def request(self, method: str, path: str, **kw: Any) -> httpx.Response:
        r = self.client.request(method, self.server.url + path, **kw)
        if self.contract is not None:
            self.contract.check(r)
        return r

    def get(self, path: str, **kw: Any) -> httpx.Response:
        return self.request("GET", path, **kw)


@pytest.fixture(scope="session")
def http():
    with httpx.Client(timeout=30) as client:
        yield client


def _start_api(settings: Settings, log_path: Path) -> ApiServer:
    return ApiServer(settings, log_path=log_path, env=instant.frozen_env()).start()


@pytest.fixture(scope="session")
def api_devnet():
    """A small devnet (manual clock) serving the chain RPC of the /live/ routes."""
    from devnet.server import DevnetServer

    with DevnetServer(seed=56, history_days=1, now=instant.AT, manual_clock=True) as devnet:
        yield devnet


@pytest.fixture(scope="session")
def chains(api_devnet, tmp_path_factory) -> dict:
    """The devnet's chain book, as the product receives it."""
    return with_devnet_book(settings_for("http://unused", "unused", None), api_devnet.url,
                            tmp_path_factory.mktemp("book")).chains


@pytest.fixture(scope="session")
def fresh_settings(warehouse, chains, tmp_path_factory) -> Settings:
    settings = settings_for(warehouse.url, "api_fresh", tmp_path_factory.mktemp("fresh"), chains)
    migrate(settings)
    return settings


@pytest.fixture(scope="session")
def fresh_data(fresh_settings) -> FreshData:
    return seed_fresh(fresh_settings)


@pytest.fixture(scope="session")
def fresh_server(fresh_settings, fresh_data):
    server = _start_api(fresh_settings, fresh_settings.data_dir / "api.log")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def openapi(fresh_server, http) -> dict:
    r = http.get(fresh_server.url + "/api/stats/openapi.json")
    assert r.status_code == 200
    return r.json()


@pytest.fixture(scope="session")
def contract(openapi) -> ContractChecker:
    return ContractChecker(openapi)


@pytest.fixture(scope="session")
def fresh(fresh_server, contract, http) -> Api:
    return Api(fresh_server, contract, http)


@pytest.fixture(scope="session")
def stale(warehouse, chains, contract, http, tmp_path_factory):
    settings = settings_for(warehouse.url, "api_stale", tmp_path_factory.mktemp("stale"), chains)
    migrate(settings)
    seed_stale(settings)
    server = _start_api(settings, settings.data_dir / "api.log")
    try:
        yield Api(server, contract, http)
    finally:
        server.stop()


@pytest.fixture(scope="session")
def empty(warehouse, chains, contract, http, tmp_path_factory):
    settings = settings_for(warehouse.url, "api_empty", tmp_path_factory.mktemp("empty"), chains)
    migrate(settings)
    server = _start_api(settings, settings.data_dir / "api.log")
    try:
        yield Api(server, contract, http)
    finally:
        server.stop()


@pytest.fixture(scope="session")
def unreachable(chains, contract, http, tmp_path_factory):
    """The API started while no warehouse listens at its URL."""
    data_dir = tmp_path_factory.mktemp("unreachable")
    settings = settings_for(f"http://127.0.0.1:{free_port()}", "api_none", data_dir, chains)
    server = _start_api(settings, data_dir / "api.log")
    try:
        yield Api(server, contract, http)
    finally:
        server.stop()


@pytest.fixture(scope="session")
def v1(warehouse, api_devnet, http, tmp_path_factory):
    """The /v1 family over five chains' crafted rows (v1_stack.py): (client, latest, seed times)."""
    from v1_stack import start_v1

    server, client, latest, times = start_v1(warehouse.url, api_devnet.url, tmp_path_factory.mktemp("v1"), http)
    try:
        yield client, latest, times
    finally:
        server.stop()
