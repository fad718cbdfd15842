"""Benchmark: API latency against the raw SQL it runs and against a framework hello-world.

Every figure is a ratio of two numbers taken in this one run, on this machine, printed with the
size of the dataset behind it:

- uncached API p50 / raw SQL p50: what the API adds over running the route's SQL files through
  clickhouse-connect (same warehouse, same queries: snapshot resolution + data query);
- cached API p50 / hello-world p50: what a per-snapshot cache hit costs over the cheapest
  possible Sanic response.

The stack (embedded warehouse, devnet with 90 days of history, API with and without its response
cache, a hello-world app) starts on free ports in a temporary folder and stops at the end.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

from core.config import Settings
from core.logs import setup_logging
from core.processes import Service, cli, free_port

REPO_ROOT = Path(__file__).resolve().parent.parent
QUERIES = REPO_ROOT / "warehouse_sql" / "queries" / "stats"


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(round(0.99 * (len(ordered) - 1))))]
    return statistics.median(ordered), p99


def time_http(client: httpx.Client, url: str, n: int, headers: dict | None = None) -> list[float]:
    for _ in range(min(20, n)):  # warm-up: connections, caches, JIT-free Python paths
        client.get(url, headers=headers)
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        r = client.get(url, headers=headers)
        out.append(time.perf_counter() - t0)
        if r.status_code not in (200, 304):
            raise RuntimeError(f"{url} answered {r.status_code}: {r.text[:200]}")
    return out


def time_sql(settings: Settings, route_sql: str, params: dict, n: int) -> list[float]:
    """The route's queries through clickhouse-connect: resolve the snapshot, then the data query."""
    from warehouse.client import get_client

    client = get_client(settings)
    latest_sql = (QUERIES / "latest_snapshot.sql").read_text()
    data_sql = (QUERIES / route_sql).read_text()

    def once() -> None:
        row = client.query(latest_sql, parameters={"chain_id": 56}).first_row
        client.query(data_sql, parameters={"chain_id": 56, "snapshot_at": row[0], **params}).result_rows

    for _ in range(min(20, n)):
        once()
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        once()
        out.append(time.perf_counter() - t0)
    return out


def dataset_size(settings: Settings) -> str:
    from warehouse.client import get_client

    client = get_client(settings)
    parts = []
    for table in ("snapshot_runs", "protocol_snap15m", "pool_snap15m", "token_snap15m", "pool_hourly", "protocol_hourly"):
        parts.append(f"{table}={client.command(f'SELECT count() FROM {table}'):,}")
    return ", ".join(parts)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--days", type=int, default=90, help="devnet history (days)")
    ap.add_argument("-n", type=int, default=500, help="requests per measurement")
    args = ap.parse_args(argv)
    setup_logging("WARNING")

    work = Path(tempfile.mkdtemp(prefix="ve-bench-"))
    ports = {name: free_port() for name in ("warehouse", "devnet", "api", "api_nocache", "hello")}
    env = {
        "VEA_DATA_DIR": str(work),
        "WAREHOUSE_PORT": str(ports["warehouse"]),
        "DEVNET_PORT": str(ports["devnet"]),
        "DEVNET_HISTORY_DAYS": str(args.days),
        "SNAPSHOT_PARTITION_DAYS": str(args.days + 2),
        "DAGSTER_HOME": str(work / "dagster"),
        "LOG_LEVEL": "WARNING",
    }
    os.environ.update(env)
    (work / "dagster").mkdir(parents=True, exist_ok=True)
    settings = Settings.from_env()
    services: list[Service] = []

    def start(name: str, argv: list[str], ready: str, extra: dict | None = None) -> None:
        print(f"starting {name} ...", flush=True)
        services.append(Service(name, argv, ready, env={**env, **(extra or {})}, log_path=work / f"{name}.log").start(600))

    try:
        start("warehouse", cli("warehouse"), f"http://127.0.0.1:{ports['warehouse']}/ping")
        start("devnet", cli("devnet"), f"http://127.0.0.1:{ports['devnet']}/health")
        from orchestration.backfill import backfill
        from warehouse.migrate import migrate

        migrate(settings)
        t0 = time.perf_counter()
        backfill(settings)
        backfill_s = time.perf_counter() - t0
        start("api", cli("api", "--port", str(ports["api"])), f"http://127.0.0.1:{ports['api']}/api/stats/openapi.json")
        start(
            "api_nocache",
            cli("api", "--port", str(ports["api_nocache"])),
            f"http://127.0.0.1:{ports['api_nocache']}/api/stats/openapi.json",
            {"API_RESPONSE_CACHE_ENTRIES": "0"},
        )
        start("hello", [sys.executable, "-m", "bench.hello", str(ports["hello"])], f"http://127.0.0.1:{ports['hello']}/hello")

        size = dataset_size(settings)
        print(f"\ndataset: {args.days}-day devnet history, backfilled in {backfill_s:.0f} s; rows: {size}")
        print(f"requests per figure: {args.n}, sequential, keep-alive, one client\n")

        http = httpx.Client(timeout=30)
        hello = percentiles(time_http(http, f"http://127.0.0.1:{ports['hello']}/hello", args.n))
        routes = [
            ("/api/stats/protocol", "protocol.sql", {}),
            ("/api/stats/protocol/history?days=365", "protocol_history.sql", {"days": 365}),
        ]
        header = f"{'route':42} {'uncached p50/p99 ms':>20} {'raw SQL p50/p99 ms':>19} {'cached p50/p99 ms':>18} {'uncached/SQL':>12} {'cached/hello':>12}"
        print(header)
        print("-" * len(header))
        for path, sql_file, params in routes:
            unc = percentiles(time_http(http, f"http://127.0.0.1:{ports['api_nocache']}{path}", args.n))
            sql = percentiles(time_sql(settings, sql_file, params, args.n))
            cached = percentiles(time_http(http, f"http://127.0.0.1:{ports['api']}{path}", args.n))
            print(
                f"{path:42} {unc[0]*1e3:9.2f}/{unc[1]*1e3:<9.2f} {sql[0]*1e3:9.2f}/{sql[1]*1e3:<8.2f} "
                f"{cached[0]*1e3:8.2f}/{cached[1]*1e3:<8.2f} {unc[0]/sql[0]:12.2f} {cached[0]/hello[0]:12.2f}"
            )
        print(f"\nSanic hello-world p50/p99: {hello[0]*1e3:.2f}/{hello[1]*1e3:.2f} ms")
    finally:
        for svc in reversed(services):
            svc.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
