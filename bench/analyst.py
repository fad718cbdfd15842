"""Benchmark: the API's latency while analysts run heavy queries on the same warehouse.

    python -m bench.analyst [-d 8] [-c 8] [--analysts 3] [--days 30]

Starts an embedded warehouse (with the operator's ANALYST_* limits from the environment, or their
defaults, except the time limit: 10 s unless set, so that its errors show within the run) and two
API processes (one with its response cache, one without), each with one worker,
on free ports in a temporary folder; migrates and seeds `--days` of 15-minute protocol snapshots
of chain 56 (snapshot_runs, protocol_snap15m) with server-side INSERT ... SELECT as the
read-write user. Then, with wrk (`-t1 -c<c> --latency`; installed with apt-get when missing),
measures p50/p99 of a cached route (`--cached`, default `/api/stats/protocol` on the cached API:
no warehouse query) and of an uncached one (`--uncached`, default
`/api/stats/protocol/history?days=7` on the API without cache: a warehouse query per request,
672 rows), first idle, then while `--analysts` analyst connections (one more than the
concurrency limit by default) run heavy queries back to back: a full scan with a 1M-key GROUP BY,
a 10M-key GROUP BY (past the result-row limit), an endless scan (stopped by the time limit).
Prints the figures in one block: p50/p99 idle and loaded, the p99 ratio per route (goal: at most
2), the API's errors, and what the analysts got (successes and errors by ClickHouse code).

The APIs read as their own user (CLICKHOUSE_API_USER), which the analysts' limits do not touch.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

from ve_analytics.cli.processes import Service, cli, free_port, unwind_on_signals

WRITER, ANALYST, API = ("bench_writer", "bench-w"), ("bench_analyst", "bench-a"), ("bench_api", "bench-r")
CACHED, UNCACHED = "/api/stats/protocol", "/api/stats/protocol/history?days=7"
HEAVY = (
    "SELECT number % 1000000 AS k, count() FROM numbers(200000000) GROUP BY k",
    "SELECT number % 10000000 AS k, count() FROM numbers(100000000) GROUP BY k",
    "SELECT count() FROM system.numbers WHERE NOT ignore(sipHash64(number))",
)
SEED_RUNS = """INSERT INTO snapshot_runs (chain_id, snapshot_at, run_id, status, block_number, block_timestamp,
    started_at, finished_at, rows_written, sources)
SELECT 56, t, concat('bench-', toString(number)), 'success', 1000000 + number, t, t, t + 40,
    map('protocol_snap15m', 1), ['subgraph']
FROM (SELECT number, toDateTime64({latest:UInt32} - number * 900, 3, 'UTC') AS t FROM numbers({n:UInt32}))"""
SEED_PROTOCOL = """INSERT INTO protocol_snap15m (chain_id, snapshot_at, block_number, block_timestamp, tvl_usd,
    tvl_v2_usd, tvl_cl_usd, pool_count, volume_24h_usd, fees_24h_usd, epoch_start, core_price_usd)
SELECT 56, t, 1000000 + number, t, 1e6 + number, 6e5, 4e5, 3, 500 + number, 1.5,
    toDateTime64(toStartOfWeek(t, 3), 3, 'UTC'), 2.0
FROM (SELECT number, toDateTime64({latest:UInt32} - number * 900, 3, 'UTC') AS t FROM numbers({n:UInt32}))"""
_UNIT = {"us": 1e-3, "ms": 1.0, "s": 1e3, "m": 6e4}


def ensure_wrk() -> str:
    """The wrk binary, installed from the OS packages when missing."""
    found = shutil.which("wrk")
    if found:
        return found
    print("installing wrk (apt-get) ...", flush=True)
    subprocess.run(["apt-get", "install", "-y", "-q", "wrk"], check=True, stdout=subprocess.DEVNULL,
                   env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})
    return shutil.which("wrk") or sys.exit("wrk is not installed and could not be installed")


def wrk(binary: str, url: str, connections: int, seconds: int) -> dict[str, float]:
    """p50/p99 (ms), requests/s and non-2xx/socket errors of one wrk run."""
    out = subprocess.run([binary, "-t1", f"-c{connections}", f"-d{seconds}s", "--latency", url],
                         check=True, capture_output=True, text=True).stdout
    lat = {p: float(v) * _UNIT[u] for p, v, u in re.findall(r"^\s+(50|99)%\s+([\d.]+)(us|ms|s|m)\s*$", out, re.M)}
    errors = sum(int(n) for n in re.findall(r"Non-2xx or 3xx responses: (\d+)", out))
    errors += sum(int(n) for n in re.findall(r"(?:connect|read|write|timeout) (\d+)", out))
    return {"p50": lat["50"], "p99": lat["99"], "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
            "errors": errors}


class Analysts:
    """`n` analyst connections running the heavy queries back to back until stopped."""

    def __init__(self, port: int, n: int):
        import clickhouse_connect

        self.got: Counter[str] = Counter()
        self.stop = threading.Event()
        self.clients = [clickhouse_connect.get_client(
            host="127.0.0.1", port=port, username=ANALYST[0], password=ANALYST[1],
            autogenerate_session_id=False, send_receive_timeout=600) for _ in range(n)]
        self.threads = [threading.Thread(target=self._run, args=(c, i), daemon=True) for i, c in enumerate(self.clients)]

    def _run(self, client, i: int) -> None:
        from clickhouse_connect.driver.exceptions import DatabaseError

        k = i
        while not self.stop.is_set():
            sql = HEAVY[k % len(HEAVY)]
            k += 1
            try:
                client.raw_query(sql, fmt="Native")  # bytes only: no rows parsed in this process
                self.got["ok"] += 1
            except DatabaseError as exc:
                name = re.search(r"\(([A-Z_]+)\)", str(exc))
                self.got[f"{exc.code} {name.group(1) if name else ''}".strip()] += 1
                if exc.code == 202:
                    time.sleep(0.2)  # an analyst told "too many" tries again shortly, not in a tight loop

    def __enter__(self) -> Analysts:
        for t in self.threads:
            t.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()  # a query in flight ends on its own limits; the threads are daemons


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-d", "--duration", type=int, default=8, help="seconds per wrk run (default 8)")
    ap.add_argument("-c", "--connections", type=int, default=8, help="concurrent API clients (default 8)")
    ap.add_argument("--analysts", type=int, default=None, help="analyst connections (default: concurrency limit + 1)")
    ap.add_argument("--days", type=int, default=30, help="days of 15-minute snapshots to seed (default 30)")
    ap.add_argument("--cached", default=CACHED, help=f"route of the cached API (default {CACHED})")
    ap.add_argument("--uncached", default=UNCACHED, help=f"route of the API without cache (default {UNCACHED})")
    ap.add_argument("--keep", action="store_true", help="leave the temporary folder")
    args = ap.parse_args(argv)
    unwind_on_signals()  # an interrupt or kill stops the services started below
    if min(args.duration, args.connections, args.days) < 1 or (args.analysts is not None and args.analysts < 0):
        ap.error("duration, connections and days must be positive, analysts not negative")
    binary = ensure_wrk()

    work = Path(tempfile.mkdtemp(prefix="ve-analyst-bench-"))
    ports = {"warehouse": free_port(), "cached": free_port(), "uncached": free_port()}
    book = work / "chain-book.json"
    book.write_text(json.dumps({"chains": [{"chainId": 56, "subgraphUrl": "http://127.0.0.1:9/subgraph",
                                            "rpcUrl": "http://127.0.0.1:9/rpc"}]}))
    env = {
        "VEA_DATA_DIR": str(work), "CHAIN_BOOK": str(book), "LOG_LEVEL": "WARNING",
        "WAREHOUSE_PORT": str(ports["warehouse"]), "CLICKHOUSE_URL": f"http://127.0.0.1:{ports['warehouse']}",
        "CLICKHOUSE_USER": WRITER[0], "CLICKHOUSE_PASSWORD": WRITER[1],
        "CLICKHOUSE_ANALYST_USER": ANALYST[0], "CLICKHOUSE_ANALYST_PASSWORD": ANALYST[1],
        "CLICKHOUSE_API_USER": API[0], "CLICKHOUSE_API_PASSWORD": API[1],
    }
    # the operator's limits from the environment; the time limit shorter than the default 60 s
    # unless set, so that limit errors (not only 202) show within the run
    env.setdefault("ANALYST_MAX_EXECUTION_SECONDS", os.environ.get("ANALYST_MAX_EXECUTION_SECONDS", "10"))
    os.environ.update(env)
    import logging

    logging.getLogger("clickhouse_connect").setLevel(logging.CRITICAL)  # the analysts' connections cut at the end
    from ve_analytics.core.config import Settings
    from ve_analytics.warehouse.migrate import migrate

    settings = Settings.from_env()
    services: list[Service] = []
    try:
        print("starting the warehouse ...", flush=True)
        services.append(Service("warehouse", cli("warehouse"), f"{settings.clickhouse_url}/ping", env,
                                work / "warehouse.log").start(120))
        migrate(settings)
        import clickhouse_connect

        writer = clickhouse_connect.get_client(host="127.0.0.1", port=ports["warehouse"], username=WRITER[0],
                                               password=WRITER[1], database=settings.clickhouse_database,
                                               autogenerate_session_id=False)
        latest = int(time.time()) // 900 * 900
        for sql in (SEED_RUNS, SEED_PROTOCOL):
            writer.command(sql, parameters={"latest": latest, "n": args.days * 96})
        writer.close()
        api_env = {**env, "API_WORKERS": "1"}
        for name, cache_bytes in (("cached", str(256 * 2**20)), ("uncached", "0")):
            print(f"starting the {name} API ...", flush=True)
            services.append(Service(f"api-{name}", cli("api", "--port", str(ports[name])),
                                    f"http://127.0.0.1:{ports[name]}/api/stats/openapi.json",
                                    {**api_env, "API_PORT": str(ports[name]), "API_CACHE_MAX_BYTES": cache_bytes},
                                    work / f"api-{name}.log").start(120))
        urls = {"cached": f"http://127.0.0.1:{ports['cached']}{args.cached}",
                "uncached": f"http://127.0.0.1:{ports['uncached']}{args.uncached}"}
        import httpx

        for url in urls.values():  # a route that fails idle would measure its error path
            r = httpx.get(url, timeout=30)
            if r.status_code != 200:
                raise SystemExit(f"{url} answers {r.status_code}: {r.text[:500]}")
            wrk(binary, url, args.connections, 1)  # warm up: the cache filled, connections open

        print(f"idle: wrk -t1 -c{args.connections} -d{args.duration}s per route ...", flush=True)
        idle = {name: wrk(binary, url, args.connections, args.duration) for name, url in urls.items()}
        n_analysts = args.analysts if args.analysts is not None else settings.analyst_max_concurrent_queries + 1
        print(f"under load: {n_analysts} analyst connections running heavy queries ...", flush=True)
        with Analysts(ports["warehouse"], n_analysts) as analysts:
            time.sleep(1.0)  # the heavy queries are running
            loaded = {name: wrk(binary, url, args.connections, args.duration) for name, url in urls.items()}
            got = dict(analysts.got)
        alive = all(s.alive for s in services)
        report(settings, args, n_analysts, idle, loaded, got, alive)
        return 0 if alive else 1
    finally:
        for svc in reversed(services):
            svc.stop()
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


def report(settings, args, n_analysts: int, idle: dict, loaded: dict, got: dict, alive: bool) -> None:
    s = settings
    print(f"""
== analysts vs the API: {os.cpu_count()} cores, one API worker per API, wrk -t1 -c{args.connections} -d{args.duration}s ==
analyst limits: max_execution_time {s.analyst_max_execution_seconds:g} s, max_memory_usage {s.analyst_max_memory_bytes} B,
  max_result_rows {s.analyst_max_result_rows}, {s.analyst_max_concurrent_queries} concurrent queries, max_threads {s.analyst_max_threads}, os_thread_priority {s.analyst_os_thread_priority}
dataset: {args.days * 96} snapshots of chain 56 (snapshot_runs, protocol_snap15m)
route                                   idle p50/p99 ms    loaded p50/p99 ms   p99 ratio (goal <= 2)  req/s idle/loaded  API errors""")
    for name, path in (("cached", args.cached), ("uncached", args.uncached)):
        i, l = idle[name], loaded[name]
        print(f"{name + ' ' + path:<40}{i['p50']:>7.2f} / {i['p99']:<8.2f}  {l['p50']:>7.2f} / {l['p99']:<8.2f}  "
              f"{l['p99'] / i['p99']:>6.2f}                 {i['rps']:>6.0f} / {l['rps']:<6.0f}      {i['errors'] + l['errors']}")
    print(f"analysts ({n_analysts} connections): " + (", ".join(f"{k}: {v}" for k, v in sorted(got.items())) or "nothing finished"))
    print(f"every server still running: {'yes' if alive else 'NO'}")


if __name__ == "__main__":
    raise SystemExit(main())
