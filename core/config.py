"""Runtime configuration, read once from the environment.

Every default points at the embedded local stack (chDB warehouse, devnet upstream); production
is a matter of setting variables, never of editing code. `Settings.from_env()` is the only
place that reads os.environ.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from core.chains import CHAINS, FOUNDATION_WALLET, STATS_CHAIN_ID


def _env(name: str, default: str) -> str:
    value = os.environ.get(name)
    return default if value is None or value == "" else value


@dataclass(frozen=True)
class ChainEndpoints:
    chain_id: int
    subgraph_url: str
    rpc_url: str


@dataclass(frozen=True)
class Settings:
    data_dir: Path
    # warehouse: every component speaks clickhouse-connect over HTTP to this URL
    clickhouse_url: str
    clickhouse_user: str
    clickhouse_password: str
    clickhouse_database: str
    analyst_user: str
    analyst_password: str
    warehouse_host: str
    warehouse_port: int
    # devnet simulator (the default upstream)
    devnet_host: str
    devnet_port: int
    devnet_seed: int
    devnet_history_days: int
    # API
    api_host: str
    api_port: int
    api_workers: int
    response_cache_entries: int  # 0 disables the per-snapshot response cache (bench uses it)
    cron_token: str
    production_host: str
    # orchestration
    dagster_home: Path
    dagster_port: int
    snapshot_partition_days: int
    history_start: str  # YYYY-MM-DD of the first daily partition; empty: the snapshot window's start
    stale_after_minutes: int
    chains: dict[int, ChainEndpoints] = field(default_factory=dict)
    foundation_wallet: str = FOUNDATION_WALLET[STATS_CHAIN_ID]
    live_cache_seconds: float = 15.0  # server-side cache of the /live/ routes' chain reads
    # vault API (/api/v1): its own service, and its best-effort per-client token bucket
    vault_api_host: str = "127.0.0.1"
    vault_api_port: int = 8100
    vault_api_rate_per_second: float = 20.0
    vault_api_rate_burst: int = 60

    @property
    def devnet_url(self) -> str:
        return f"http://{self.devnet_host}:{self.devnet_port}"

    def chain(self, chain_id: int = STATS_CHAIN_ID) -> ChainEndpoints:
        return self.chains[chain_id]

    def contracts(self, chain_id: int = STATS_CHAIN_ID) -> dict[str, str]:
        """Contract address book; CHAIN_<id>_<NAME> (e.g. CHAIN_56_VOTER) overrides one entry."""
        book = dict(CHAINS[chain_id].contracts)
        for name in book:
            override = os.environ.get(f"CHAIN_{chain_id}_{name.upper()}")
            if override:
                book[name] = override
        return book

    @classmethod
    def from_env(cls) -> "Settings":
        data_dir = Path(_env("VEA_DATA_DIR", ".data")).resolve()
        devnet_host = _env("DEVNET_HOST", "127.0.0.1")
        devnet_port = int(_env("DEVNET_PORT", "8545"))
        devnet_url = f"http://{devnet_host}:{devnet_port}"
        chains = {
            cid: ChainEndpoints(
                chain_id=cid,
                subgraph_url=_env(f"SUBGRAPH_URL_{cid}", f"{devnet_url}/chains/{cid}/subgraph"),
                rpc_url=_env(f"RPC_URL_{cid}", f"{devnet_url}/chains/{cid}/rpc"),
            )
            for cid in CHAINS
        }
        warehouse_host = _env("WAREHOUSE_HOST", "127.0.0.1")
        warehouse_port = int(_env("WAREHOUSE_PORT", "8123"))
        return cls(
            data_dir=data_dir,
            clickhouse_url=_env("CLICKHOUSE_URL", f"http://{warehouse_host}:{warehouse_port}"),
            clickhouse_user=_env("CLICKHOUSE_USER", "default"),
            clickhouse_password=_env("CLICKHOUSE_PASSWORD", ""),
            clickhouse_database=_env("CLICKHOUSE_DATABASE", "ve_analytics"),
            analyst_user=_env("CLICKHOUSE_ANALYST_USER", "analyst"),
            analyst_password=_env("CLICKHOUSE_ANALYST_PASSWORD", "analyst"),
            warehouse_host=warehouse_host,
            warehouse_port=warehouse_port,
            devnet_host=devnet_host,
            devnet_port=devnet_port,
            devnet_seed=int(_env("DEVNET_SEED", "56")),
            devnet_history_days=int(_env("DEVNET_HISTORY_DAYS", "90")),
            api_host=_env("API_HOST", "127.0.0.1"),
            api_port=int(_env("API_PORT", "8000")),
            api_workers=int(_env("API_WORKERS", "1")),
            response_cache_entries=int(_env("API_RESPONSE_CACHE_ENTRIES", "4096")),
            cron_token=_env("CRON_TOKEN", ""),
            production_host=_env("PRODUCTION_HOST", "https://api.example.org"),
            dagster_home=Path(_env("DAGSTER_HOME", str(data_dir / "dagster"))).resolve(),
            dagster_port=int(_env("DAGSTER_PORT", "3000")),
            snapshot_partition_days=int(_env("SNAPSHOT_PARTITION_DAYS", "92")),
            history_start=os.environ.get("HISTORY_START", ""),
            stale_after_minutes=int(_env("STALE_AFTER_MINUTES", "45")),
            chains=chains,
            live_cache_seconds=float(_env("LIVE_CACHE_SECONDS", "15")),
            vault_api_host=_env("VAULT_API_HOST", "127.0.0.1"),
            vault_api_port=int(_env("VAULT_API_PORT", "8100")),
            vault_api_rate_per_second=float(_env("VAULT_API_RATE_PER_SECOND", "20")),
            vault_api_rate_burst=int(_env("VAULT_API_RATE_BURST", "60")),
        )
