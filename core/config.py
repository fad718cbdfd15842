"""Runtime configuration, read once from the environment.

Every default points at the embedded local stack (chDB warehouse, devnet upstream); production
is a matter of setting variables, never of editing code. `Settings.from_env()` is the only
place that reads os.environ (through core.env_values; core.clock reads its own two test and demo
variables on each call); `Settings.to_env()` is its inverse for the processes the
project starts with these settings (the Dagster webserver and daemon), secrets excepted: those
travel as files (`Settings.secret_env`, core.secrets), never as values.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from .api_limits import ApiLimits
from .chains import STATS_CHAIN_ID, ChainConfig, load_book
from .cursor_secrets import GENERATED_NAME, load_cursor_secrets
from .env_values import env_number as _number, env_text as _env
from .prices import DEFAULT_MAX_AGE_SECONDS
from .run_limits import RunLimits
from .secrets import SecretSources, secret_file_env
from .vaults import VaultConfig


def _replicas() -> int:
    """CLICKHOUSE_REPLICAS: required with CLICKHOUSE_CLUSTER (every write waits for that many)."""
    replicas = _number("CLICKHOUSE_REPLICAS", "0", int, 0, 64)
    if os.environ.get("CLICKHOUSE_CLUSTER") and replicas < 1:
        raise ValueError("CLICKHOUSE_REPLICAS must be set with CLICKHOUSE_CLUSTER: the number of replicas "
                         "of the cluster's shard, each of which every write must reach")
    return replicas


# secret variable -> the Settings field holding it (CURSOR_SECRETS: cursor_secrets, a tuple)
_SECRET_FIELDS = {
    "CLICKHOUSE_PASSWORD": "clickhouse_password",
    "CLICKHOUSE_ANALYST_PASSWORD": "analyst_password",
    "CLICKHOUSE_API_PASSWORD": "api_reader_password",
    "CRON_TOKEN": "cron_token",
}
SECRET_FIELDS_ORDER = (*_SECRET_FIELDS, "CURSOR_SECRETS")


@dataclass(frozen=True)
class Settings:
    data_dir: Path
    # warehouse: every component speaks clickhouse-connect over HTTP to this URL
    clickhouse_url: str
    clickhouse_user: str
    clickhouse_password: str = field(repr=False)  # secrets: never in repr (logs, tracebacks)
    clickhouse_database: str
    analyst_user: str
    analyst_password: str = field(repr=False)
    api_reader_user: str  # the API's own read-only user (readonly=2: may set output settings)
    api_reader_password: str = field(repr=False)
    warehouse_host: str
    warehouse_port: int
    warehouse_query_log: str  # file the embedded warehouse appends a line per query to; "" = off
    # API
    api_host: str
    api_port: int
    api_workers: int
    api_limits: ApiLimits  # each worker's cache bytes and warehouse admission (core/api_limits.py)
    cron_token: str = field(repr=False)
    production_host: str
    # orchestration
    dagster_home: Path
    dagster_port: int
    snapshot_partition_days: int  # 0: per chain, its snapshot depth + 1 day (snapshot_window_days)
    history_start: str  # YYYY-MM-DD of every chain's first daily partition; empty: per chain (deployedAt)
    stale_after_minutes: int
    chain_book: Path  # the chain book file (core.chains); `chains` is what it held at start
    chains: dict[int, ChainConfig] = field(default_factory=dict)
    live_cache_seconds: float = 15.0  # server-side cache of the /live/ routes' chain reads
    catchup_interval_seconds: int = 60  # between two evaluations of a chain's catch-up sensor
    # vault API (/api/v1): its own service, and its best-effort per-client token bucket
    vault_api_host: str = "127.0.0.1"
    vault_api_port: int = 8100
    vault_api_rate_per_second: float = 20.0
    vault_api_rate_burst: int = 60
    # Dagster webserver: where the backfill and the cron trigger reach the instance (GraphQL);
    # DAGSTER_URL names a webserver elsewhere, otherwise http://<dagster_host>:<dagster_port>
    dagster_host: str = "127.0.0.1"
    dagster_webserver_url: str = ""
    backfill_runs: int = 2  # runs of a backfill executing at once (the instance's run queue limit)
    # Limits of the read-only analyst, set by the operator (0: none). The embedded warehouse
    # enforces them (warehouse/limits.py); a production ClickHouse takes them from a settings
    # profile with constraints (README). Defaults leave the API at least one of two cores even
    # where the CPU priority is not honoured (it needs CAP_SYS_NICE): one query of one thread.
    analyst_max_execution_seconds: float = 60.0
    analyst_max_memory_bytes: int = 1 << 30
    analyst_max_result_rows: int = 1_000_000
    analyst_max_concurrent_queries: int = 1
    analyst_max_threads: int = 1
    analyst_os_thread_priority: int = 19  # nice value of the analyst's query threads (19: lowest)
    # keys of the /v1 keyset cursors, the first signing (core.cursor_secrets); out of repr: secret
    cursor_secrets: tuple[str, ...] = field(default=(), repr=False)
    # the reviewed curation source the curation publication reads (CURATION_SOURCE)
    curation_source: Path = Path("curation/curation.json")
    # the oldest a price may be at its boundary to be current or a reference (ADR 0011)
    price_max_age_seconds: int = DEFAULT_MAX_AGE_SECONDS
    # ClickHouse cluster mode (warehouse/cluster.py, ADR 0012): the cluster the migrations run
    # ON CLUSTER with replicated engines ('' = one server), and how many replicas every write
    # must reach before it returns (the insert quorum)
    clickhouse_cluster: str = ""
    clickhouse_replicas: int = 0
    # Dagster instance storage (orchestration/instance.py): PostgreSQL when DAGSTER_PG_HOST or
    # DAGSTER_PG_URL is set, else local sqlite. No password is held here: dagster.yaml names
    # DAGSTER_PG_PASSWORD (or DAGSTER_PG_URL, which carries it) and each Dagster process reads it.
    dagster_pg_host: str = ""
    dagster_pg_port: int = 5432
    dagster_pg_db: str = "dagster"
    dagster_pg_user: str = "dagster"
    dagster_pg_url_set: bool = False
    dagster_run_retries: int = -1  # -1: 2 on PostgreSQL storage, 0 (off) on the local instance
    dagster_group_runs: str = ""  # "group=limit,...": runs of an asset group at once (instance.py)
    run_limits: RunLimits = RunLimits()  # the longest a snapshot or history run may take
    # secret variable -> the file its value was read from (NAME_FILE, or generated): passed on as is
    secret_files: dict[str, Path] = field(default_factory=dict, repr=False, compare=False)

    @property
    def dagster_url(self) -> str:
        return (self.dagster_webserver_url or f"http://{self.dagster_host}:{self.dagster_port}").rstrip("/")

    def chain(self, chain_id: int = STATS_CHAIN_ID) -> ChainConfig:
        try:
            return self.chains[chain_id]
        except KeyError:
            raise LookupError(f"chain {chain_id} is not in the chain book {self.chain_book} "
                              "(set CHAIN_BOOK; the local stack writes it from the devnet)") from None

    def snapshot_window_days(self, chain_id: int = STATS_CHAIN_ID) -> int:
        """Days of daily snapshot partitions before today: SNAPSHOT_PARTITION_DAYS when set, else
        the chain's snapshot depth plus the day its oldest snapshot falls in."""
        return self.snapshot_partition_days or self.chain(chain_id).snapshot_days + 1

    def contracts(self, chain_id: int = STATS_CHAIN_ID) -> dict[str, str]:
        return dict(self.chain(chain_id).contracts)

    def vaults(self, chain_id: int = STATS_CHAIN_ID) -> list[VaultConfig]:
        return list(self.chain(chain_id).vaults)

    @property
    def foundation_wallet(self) -> str:
        return self.chain(STATS_CHAIN_ID).foundation_wallet

    def secret_env(self, names: tuple[str, ...] = SECRET_FIELDS_ORDER) -> dict[str, str]:
        """`NAME_FILE` for each of these secret variables that has a value (core.secrets.secret_file_env)."""
        return secret_file_env(self.data_dir, {name: self._secret_value(name) for name in names}, self.secret_files)

    def _secret_value(self, name: str) -> str:
        if name == "CURSOR_SECRETS":
            return "\n".join(self.cursor_secrets)
        return getattr(self, _SECRET_FIELDS[name])

    @classmethod
    def from_env(cls) -> "Settings":
        data_dir = Path(_env("VEA_DATA_DIR", ".data")).resolve()
        chain_book = Path(_env("CHAIN_BOOK", str(data_dir / "chain-book.json"))).resolve()
        warehouse_host = _env("WAREHOUSE_HOST", "127.0.0.1")
        warehouse_port = int(_env("WAREHOUSE_PORT", "8123"))
        # the embedded warehouse (no CLICKHOUSE_URL): its users' machine passwords are generated
        secrets = SecretSources(os.environ, data_dir, generate=not os.environ.get("CLICKHOUSE_URL"))
        files = secrets.files
        secret = secrets.get
        cursor_secrets = load_cursor_secrets(os.environ, data_dir)
        if os.environ.get("CURSOR_SECRETS_FILE"):
            files["CURSOR_SECRETS"] = Path(os.environ["CURSOR_SECRETS_FILE"]).resolve()
        elif not os.environ.get("CURSOR_SECRETS"):
            files["CURSOR_SECRETS"] = data_dir / GENERATED_NAME
        return cls(
            data_dir=data_dir,
            clickhouse_url=_env("CLICKHOUSE_URL", f"http://{warehouse_host}:{warehouse_port}"),
            clickhouse_user=_env("CLICKHOUSE_USER", "default"),
            clickhouse_password=secret("CLICKHOUSE_PASSWORD", "", generated="clickhouse-password"),
            clickhouse_database=_env("CLICKHOUSE_DATABASE", "ve_analytics"),
            analyst_user=_env("CLICKHOUSE_ANALYST_USER", "analyst"),
            analyst_password=secret("CLICKHOUSE_ANALYST_PASSWORD", "analyst"),
            api_reader_user=_env("CLICKHOUSE_API_USER", "api"),
            api_reader_password=secret("CLICKHOUSE_API_PASSWORD", "api", generated="clickhouse-api-password"),
            warehouse_host=warehouse_host,
            warehouse_port=warehouse_port,
            warehouse_query_log=_env("WAREHOUSE_QUERY_LOG", ""),
            api_host=_env("API_HOST", "127.0.0.1"),
            api_port=int(_env("API_PORT", "8000")),
            api_workers=int(_env("API_WORKERS", str(os.cpu_count() or 1))),  # one per core
            api_limits=ApiLimits.from_env(),
            cron_token=secret("CRON_TOKEN", ""),
            production_host=_env("PRODUCTION_HOST", "https://api.example.org"),
            dagster_home=Path(_env("DAGSTER_HOME", str(data_dir / "dagster"))).resolve(),
            dagster_port=int(_env("DAGSTER_PORT", "3000")),
            snapshot_partition_days=int(_env("SNAPSHOT_PARTITION_DAYS", "0")),
            history_start=os.environ.get("HISTORY_START", ""),
            stale_after_minutes=int(_env("STALE_AFTER_MINUTES", "45")),
            chain_book=chain_book,
            chains=load_book(chain_book, os.environ),
            live_cache_seconds=float(_env("LIVE_CACHE_SECONDS", "15")),
            catchup_interval_seconds=_number("CATCHUP_INTERVAL_SECONDS", 60, int, 5),
            vault_api_host=_env("VAULT_API_HOST", "127.0.0.1"),
            vault_api_port=int(_env("VAULT_API_PORT", "8100")),
            vault_api_rate_per_second=float(_env("VAULT_API_RATE_PER_SECOND", "20")),
            vault_api_rate_burst=int(_env("VAULT_API_RATE_BURST", "60")),
            dagster_host=_env("DAGSTER_HOST", "127.0.0.1"),
            dagster_webserver_url=_env("DAGSTER_URL", ""),
            # one more than the cores: a snapshot run waits on its upstream part of the time
            backfill_runs=int(_env("BACKFILL_RUNS", str(min(4, (os.cpu_count() or 1) + 1)))),
            analyst_max_execution_seconds=_number("ANALYST_MAX_EXECUTION_SECONDS", "60", float, 0, 1e9),
            analyst_max_memory_bytes=_number("ANALYST_MAX_MEMORY_BYTES", str(1 << 30), int, 0),
            analyst_max_result_rows=_number("ANALYST_MAX_RESULT_ROWS", "1000000", int, 0),
            analyst_max_concurrent_queries=_number("ANALYST_MAX_CONCURRENT_QUERIES", "1", int, 0),
            analyst_max_threads=_number("ANALYST_MAX_THREADS", "1", int, 0, 1024),
            analyst_os_thread_priority=_number("ANALYST_OS_THREAD_PRIORITY", "19", int, 0, 19),
            cursor_secrets=cursor_secrets,
            curation_source=Path(_env("CURATION_SOURCE", "curation/curation.json")).resolve(),
            price_max_age_seconds=_number("PRICE_MAX_AGE_SECONDS", str(DEFAULT_MAX_AGE_SECONDS), int, 1, 366 * 86400),
            clickhouse_cluster=os.environ.get("CLICKHOUSE_CLUSTER", ""),
            clickhouse_replicas=_replicas(),
            dagster_pg_host=_env("DAGSTER_PG_HOST", ""),
            dagster_pg_port=_number("DAGSTER_PG_PORT", "5432", int, 1, 65535),
            dagster_pg_db=_env("DAGSTER_PG_DB", "dagster"),
            dagster_pg_user=_env("DAGSTER_PG_USER", "dagster"),
            dagster_pg_url_set=bool(_env("DAGSTER_PG_URL", "")),
            dagster_run_retries=_number("DAGSTER_RUN_RETRIES", "-1", int, -1, 100),
            dagster_group_runs=_env("DAGSTER_GROUP_RUNS", ""),
            run_limits=RunLimits.from_env(),
            secret_files=files,
        )

    def to_env(self) -> dict[str, str]:
        """Environment variables under which `Settings.from_env()` gives these settings back, for a
        process started with them (the Dagster webserver and daemon, whose runs resolve their
        resources from the environment). Secrets are left out (the ClickHouse passwords, the cron
        token, CURSOR_SECRETS): `secret_env` names the files that hold the ones a process needs,
        or such a process takes them from its own, the deployment's, environment. Chains: the chain book's path plus each chain's endpoints and contracts as
        per-entry overrides (a book entry's vault list comes from the file)."""
        env = {
            "VEA_DATA_DIR": str(self.data_dir) if self.data_dir is not None else "",
            "CLICKHOUSE_URL": self.clickhouse_url,
            "CLICKHOUSE_USER": self.clickhouse_user,
            "CLICKHOUSE_DATABASE": self.clickhouse_database,
            "CLICKHOUSE_ANALYST_USER": self.analyst_user,
            "CLICKHOUSE_API_USER": self.api_reader_user,
            "WAREHOUSE_HOST": self.warehouse_host,
            "WAREHOUSE_PORT": str(self.warehouse_port),
            "API_HOST": self.api_host,
            "API_PORT": str(self.api_port),
            "API_WORKERS": str(self.api_workers),
            **self.api_limits.to_env(),
            "PRODUCTION_HOST": self.production_host,
            "DAGSTER_HOME": str(self.dagster_home),
            "DAGSTER_HOST": self.dagster_host,
            "DAGSTER_PORT": str(self.dagster_port),
            "DAGSTER_URL": self.dagster_webserver_url,
            "BACKFILL_RUNS": str(self.backfill_runs),
            "ANALYST_MAX_EXECUTION_SECONDS": repr(self.analyst_max_execution_seconds),
            "ANALYST_MAX_MEMORY_BYTES": str(self.analyst_max_memory_bytes),
            "ANALYST_MAX_RESULT_ROWS": str(self.analyst_max_result_rows),
            "ANALYST_MAX_CONCURRENT_QUERIES": str(self.analyst_max_concurrent_queries),
            "ANALYST_MAX_THREADS": str(self.analyst_max_threads),
            "ANALYST_OS_THREAD_PRIORITY": str(self.analyst_os_thread_priority),
            "SNAPSHOT_PARTITION_DAYS": str(self.snapshot_partition_days),
            "HISTORY_START": self.history_start,
            "STALE_AFTER_MINUTES": str(self.stale_after_minutes),
            "CHAIN_BOOK": str(self.chain_book),
            "LIVE_CACHE_SECONDS": repr(self.live_cache_seconds),
            "CATCHUP_INTERVAL_SECONDS": str(self.catchup_interval_seconds),
            "VAULT_API_HOST": self.vault_api_host,
            "VAULT_API_PORT": str(self.vault_api_port),
            "VAULT_API_RATE_PER_SECOND": repr(self.vault_api_rate_per_second),
            "VAULT_API_RATE_BURST": str(self.vault_api_rate_burst),
            "CURATION_SOURCE": str(self.curation_source),
            "PRICE_MAX_AGE_SECONDS": str(self.price_max_age_seconds),
            "CLICKHOUSE_CLUSTER": self.clickhouse_cluster,
            "CLICKHOUSE_REPLICAS": str(self.clickhouse_replicas),
            "DAGSTER_PG_HOST": self.dagster_pg_host,  # DAGSTER_PG_URL and the password: secrets
            "DAGSTER_PG_PORT": str(self.dagster_pg_port),
            "DAGSTER_PG_DB": self.dagster_pg_db,
            "DAGSTER_PG_USER": self.dagster_pg_user,
            "DAGSTER_RUN_RETRIES": str(self.dagster_run_retries),
            "DAGSTER_GROUP_RUNS": self.dagster_group_runs,
            **self.run_limits.to_env(),
        }
        for cid, chain in self.chains.items():
            env[f"SUBGRAPH_URL_{cid}"] = chain.subgraph_url
            env[f"RPC_URL_{cid}"] = chain.rpc_url
            env.update({f"CHAIN_{cid}_{name.upper()}": address for name, address in chain.contracts.items()})
        return env
