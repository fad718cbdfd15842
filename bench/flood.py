"""Flood bench: one API worker flooded with distinct large answers, its resident memory against
its stated bound, and what the flood costs a cached route.

    python -m bench.flood [--days 2] [--requests 4400] [--seconds 240] [--codings identity,gzip,br] [--keep DIR]

The stack (embedded warehouse, devnet with every chain, the API with one worker serving
/api/stats and /v1) starts on free loopback ports; its history is backfilled through Dagster
(`--keep DIR` keeps the backfilled data in DIR and reuses it on the next run). Then:

1. idle: the p99 of a cached route (`/api/stats/protocol`, sequential keep-alive requests), and
   the worker's baseline resident memory after it;
2. flood: wrk (one thread, 8 connections) sends each of `--requests` distinct paths once,
   cycling identity, gzip and br Accept-Encoding: `/api/stats/protocol/history?days=1..365`,
   `/v1/protocol/history` and `/v1/protocol/daily` over every subset of the public chains, both
   alignments, many day counts; it stops at the count or after `--seconds`, whichever is first.
   Meanwhile the worker's RSS is sampled every 20 ms and the cached route is timed again.

Both times the cached route is also timed, in turn, on a second API worker that is not flooded
(the control): on a small machine the warehouse, wrk and the probe share the cores with the
flooded worker, and the control's p99 shows what that contention alone costs.

Printed: baseline RSS, peak RSS, the bound (baseline + API_CACHE_MAX_BYTES), peak / bound
(goal <= 1.2), the flood's answers by kind (2xx, 503 `overloaded`, any other status or socket
error: goal 0), the cached route's p99 idle and during the flood (goal: ratio <= 2), the
control's, and the CPU the worker, the warehouse and the machine used during the flood.
"""
from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from bench.load import cpu_seconds, ensure_wrk, machine_busy_seconds, rss_bytes

CONNECTIONS = 8
PROBE_PATH = "/api/stats/protocol"
PROBE_IDLE_REQUESTS = 1000
PROBE_WARM_UP = 20  # rounds not counted: the first request of a route computes its answer
SAMPLE_SECONDS = 0.02
CODINGS = ("identity", "gzip", "br")
GOAL_PEAK, GOAL_P99 = 1.2, 2.0
DEFAULT_BOUND = 256 * 2**20  # what the bound is taken as when the API does not state one (API_CACHE_MAX_BYTES)


def flood_paths(chains: list[int], count: int, codings: tuple[str, ...] = CODINGS, seed: int = 24) -> list[tuple[str, str]]:
    """`count` distinct (path, Accept-Encoding) pairs of large answers, in a seeded random order."""
    subsets = [s for n in range(1, len(chains) + 1) for s in itertools.combinations(sorted(chains), n)]
    paths = [f"/api/stats/protocol/history?days={d}" for d in range(1, 366)]
    for alignment in ("rolling", "utc"):
        for subset in subsets:
            ids = ",".join(map(str, subset))
            paths += [f"/v1/protocol/history?chainIds={ids}&alignment={alignment}&days={d}" for d in range(30, 91)]
            paths += [f"/v1/protocol/daily?chainIds={ids}&alignment={alignment}&days={d}" for d in range(1000, 3661, 20)]
    random.Random(seed).shuffle(paths)
    if len(paths) < count:
        raise SystemExit(f"only {len(paths)} distinct paths for {count} requests")
    return [(path, codings[i % len(codings)]) for i, path in enumerate(paths[:count])]


def flood_script(pairs: list[tuple[str, str]]) -> Path:
    """A wrk Lua script sending each pair once, then stopping; it counts answers by kind and
    prints them (`FLOOD ok=.. overloaded=.. other=..`). A 503 is `overloaded` only when its body
    says so (another 503, `chain_unavailable`, is an error here)."""
    entries = ",\n".join(f'{{"{p}", "{c}"}}' for p, c in pairs)
    text = f"""local paths = {{
{entries}
}}
local threads = {{}}
function setup(thread) table.insert(threads, thread) end
function init(args) ok = 0; overloaded = 0; other = 0; i = 0 end
function request()
  i = i % #paths + 1
  return wrk.format("GET", paths[i][1], {{["Accept-Encoding"] = paths[i][2]}})
end
function response(status, headers, body)
  if status >= 200 and status < 300 then ok = ok + 1
  elseif status == 503 and string.find(body, '"overloaded"', 1, true) then overloaded = overloaded + 1
  else other = other + 1 end
  if ok + overloaded + other >= #paths then wrk.thread:stop() end
end
function done(summary, latency, requests)
  for _, t in ipairs(threads) do
    io.write(string.format("FLOOD ok=%d overloaded=%d other=%d\\n", t:get("ok"), t:get("overloaded"), t:get("other")))
  end
end
"""
    handle = tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False)
    handle.write(text)
    handle.close()
    return Path(handle.name)


class Sampler(threading.Thread):
    """The peak resident memory of a process (and its children) until stopped."""

    def __init__(self, pid: int):
        super().__init__(daemon=True)
        self.pid, self.peak, self.samples = pid, 0, 0
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.wait(SAMPLE_SECONDS):
            self.peak = max(self.peak, rss_bytes([self.pid]))
            self.samples += 1


class Probe(threading.Thread):
    """Times sequential keep-alive requests to a cached route until stopped (or `n` rounds). A
    round asks each of `urls` once, in turn, each on its own connection, so they are timed under
    the same conditions; the first `PROBE_WARM_UP` rounds are not counted."""

    def __init__(self, urls: list[str], n: int | None = None):
        super().__init__(daemon=True)
        self.urls, self.n = urls, n
        self.times: dict[str, list[float]] = {url: [] for url in urls}
        self.failures = 0
        self.done = threading.Event()

    def run(self) -> None:
        import urllib3

        pools = {url: urllib3.PoolManager(maxsize=1, retries=False, timeout=60) for url in self.urls}
        rounds = 0
        while not self.done.is_set() and (self.n is None or rounds < self.n + PROBE_WARM_UP):
            for url, http in pools.items():
                t0 = time.perf_counter()
                r = http.request("GET", url)
                elapsed = time.perf_counter() - t0
                if r.status != 200 or b'"ok":true' not in r.data[:64]:
                    self.failures += 1
                if rounds >= PROBE_WARM_UP:
                    self.times[url].append(elapsed)
            rounds += 1

    def p99(self, url: str) -> float:
        ordered = sorted(self.times[url])
        return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] if ordered else float("nan")


def measure(api_url: str, api_pid: int, requests: int, seconds: int, bound_bytes: int | None,
            codings: tuple[str, ...] = CODINGS, warehouse_pid: int | None = None, control_url: str | None = None) -> dict:
    """Run the idle probe and the flood against a running one-worker API; print and return the figures
    (with the CPU the worker, the warehouse and the whole machine used during the flood, as cores).
    `control_url`: another worker of the same API, not flooded, probed in turn with the flooded one:
    what its p99 does during the flood is what the machine's contention alone costs."""
    binary = ensure_wrk()
    if binary is None:
        raise SystemExit("the flood needs wrk (apt-get install wrk)")
    with urllib.request.urlopen(api_url + "/v1/chains") as r:  # noqa: S310 - the bench's own local API
        chains = [c["chainId"] for c in json.loads(r.read())["data"]]  # the public chains
    pairs = flood_paths(chains, requests, codings)
    target, control = api_url + PROBE_PATH, control_url and control_url + PROBE_PATH
    urls = [target] + ([control] if control else [])
    idle = Probe(urls, PROBE_IDLE_REQUESTS)
    idle.run()
    baseline = rss_bytes([api_pid])
    bound = baseline + (DEFAULT_BOUND if bound_bytes is None else bound_bytes)
    script = flood_script(pairs)
    sampler, probe = Sampler(api_pid), Probe(urls)
    watched = {"worker": api_pid, **({"warehouse": warehouse_pid} if warehouse_pid else {})}
    cpu0 = {name: cpu_seconds(pid) for name, pid in watched.items()}
    busy0 = machine_busy_seconds()
    sampler.start()
    probe.start()
    t0 = time.perf_counter()
    try:
        out = subprocess.run([binary, "-t1", f"-c{CONNECTIONS}", f"-d{seconds}s", "--timeout", "60s", "-s", str(script),
                              api_url + "/"], capture_output=True, text=True, check=True).stdout
    finally:
        elapsed = time.perf_counter() - t0
        cores = {name: (cpu_seconds(pid) - cpu0[name]) / elapsed for name, pid in watched.items()}
        cores["machine"] = (machine_busy_seconds() - busy0) / elapsed
        probe.done.set()
        sampler.done.set()
        probe.join()
        sampler.join()
        script.unlink(missing_ok=True)
    counts = dict(zip(("ok", "overloaded", "other"), map(int, re.search(r"FLOOD ok=(\d+) overloaded=(\d+) other=(\d+)", out).groups())))
    socket = sum(int(n) for n in re.findall(r"(?:connect|read|write|timeout) (\d+)", out))
    errors = counts["other"] + socket + idle.failures + probe.failures
    peak = max(sampler.peak, baseline)
    figures = {"baseline": baseline, "peak": peak, "bound": bound, "peak_over_bound": peak / bound,
               "requests": sum(counts.values()), "seconds": elapsed, **counts, "socket_errors": socket, "errors": errors,
               "p99_idle": idle.p99(target), "p99_flood": probe.p99(target), "probe_requests": len(probe.times[target])}
    figures["p99_ratio"] = figures["p99_flood"] / figures["p99_idle"]
    mb = 2**20
    stated = "API_CACHE_MAX_BYTES" if bound_bytes is not None else f"{DEFAULT_BOUND // mb} MiB, not set by this API"
    print(f"\nflood: {figures['requests']:,} of {requests:,} distinct large answers in {elapsed:.1f} s (wrk -t1 "
          f"-c{CONNECTIONS}, cap {seconds} s; {', '.join(codings)} in turn), {sampler.samples:,} RSS samples")
    print(f"  worker RSS baseline {baseline / mb:8.1f} MB, peak {peak / mb:8.1f} MB, bound {bound / mb:8.1f} MB "
          f"(baseline + {(bound - baseline) / mb:.0f} MB, {stated}): peak/bound {figures['peak_over_bound']:.2f} "
          f"(goal <= {GOAL_PEAK}: {'met' if figures['peak_over_bound'] <= GOAL_PEAK else 'not met'})")
    print(f"  answers: 2xx {counts['ok']:,}, 503 overloaded {counts['overloaded']:,}; errors {errors} (other statuses "
          f"{counts['other']}, socket errors {socket}, cached-route failures {idle.failures + probe.failures}; goal 0)")
    verdict = "met" if figures["p99_ratio"] <= GOAL_P99 else "not met"
    print(f"  cached {PROBE_PATH} p99: idle {figures['p99_idle'] * 1e3:.2f} ms ({len(idle.times[target])} requests), during the "
          f"flood {figures['p99_flood'] * 1e3:.2f} ms ({len(probe.times[target])} requests): {figures['p99_ratio']:.2f} x "
          f"(goal <= {GOAL_P99}: {verdict})")
    if control:
        figures["control_p99_idle"], figures["control_p99_flood"] = idle.p99(control), probe.p99(control)
        print(f"  the same route on a second worker, not flooded, probed in turn: p99 idle "
              f"{figures['control_p99_idle'] * 1e3:.2f} ms, during the flood {figures['control_p99_flood'] * 1e3:.2f} ms "
              f"({figures['control_p99_flood'] / figures['control_p99_idle']:.2f} x: the machine's contention); flooded / "
              f"not flooded during the flood: {figures['p99_flood'] / figures['control_p99_flood']:.2f} x")
    figures["cores"] = cores
    print(f"  CPU during the flood, in cores of {os.cpu_count()}: "
          + ", ".join(f"{name} {used:.2f}" for name, used in cores.items()) + " (machine: every process on it)", flush=True)
    return figures


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--days", type=int, default=2, help="devnet history in days (default 2)")
    ap.add_argument("--requests", type=int, default=4400, help="distinct requests of the flood (default 4,400)")
    ap.add_argument("--seconds", type=int, default=240, help="the flood's time limit (default 240)")
    ap.add_argument("--codings", default=",".join(CODINGS), help="Accept-Encoding values sent in turn (default identity,gzip,br)")
    ap.add_argument("--keep", type=Path, help="keep the backfilled stack's data here and reuse it on the next run")
    args = ap.parse_args(argv)

    from ve_analytics.cli.processes import Service, cli, free_port
    from ve_analytics.core.config import Settings
    from ve_analytics.core.logs import setup_logging

    setup_logging("WARNING")
    work = args.keep.resolve() if args.keep else Path(tempfile.mkdtemp(prefix="ve-flood-"))
    work.mkdir(parents=True, exist_ok=True)
    ports = {name: free_port() for name in ("warehouse", "devnet", "api", "control")}
    env = {"VEA_DATA_DIR": str(work), "WAREHOUSE_PORT": str(ports["warehouse"]), "DEVNET_PORT": str(ports["devnet"]),
           "DEVNET_HISTORY_DAYS": str(args.days), "SNAPSHOT_PARTITION_DAYS": str(args.days + 2),
           "DAGSTER_HOME": str(work / "dagster"), "DEVNET_DATA_DIR": str(work), "LOG_LEVEL": "WARNING",
           "API_WORKERS": "1"}
    os.environ.update(env)
    (work / "dagster").mkdir(parents=True, exist_ok=True)
    services: list[Service] = []

    def start(name: str, argv_: list[str], ready: str) -> Service:
        print(f"starting {name} ...", flush=True)
        services.append(Service(name, argv_, ready, env=env, log_path=work / f"{name}.log").start(600))
        return services[-1]

    try:
        start("warehouse", cli("warehouse"), f"http://127.0.0.1:{ports['warehouse']}/ping")
        start("devnet", [sys.executable, "-m", "devnet"], f"http://127.0.0.1:{ports['devnet']}/health")
        from ve_analytics.cli.dagster_services import DagsterServices
        from ve_analytics.cli.stack import write_devnet_book
        from ve_analytics.orchestration.backfill import backfill
        from ve_analytics.warehouse.migrate import migrate

        settings = Settings.from_env()
        write_devnet_book(f"http://127.0.0.1:{ports['devnet']}", settings.chain_book)
        settings = Settings.from_env()
        migrate(settings)
        marker = work / "flood-backfilled"
        if not marker.exists():
            print("backfilling (dagster-webserver and dagster-daemon) ...", flush=True)
            t0 = time.perf_counter()
            with DagsterServices(settings, work / "logs", port=free_port(), schedules=False) as dagster:
                backfill(dagster.settings, progress=None)
            print(f"  backfilled {args.days} days of every chain in {time.perf_counter() - t0:.0f} s", flush=True)
            marker.touch()
        api = start("api", cli("api", "--port", str(ports["api"]), "--families", "stats,v1"),
                    f"http://127.0.0.1:{ports['api']}/api/stats/openapi.json")
        start("control", cli("api", "--port", str(ports["control"]), "--families", "stats"),
              f"http://127.0.0.1:{ports['control']}/api/stats/openapi.json")
        measure(f"http://127.0.0.1:{ports['api']}", api.proc.pid, args.requests, args.seconds,
                getattr(getattr(settings, "api_limits", None), "cache_max_bytes", None), tuple(args.codings.split(",")),
                warehouse_pid=services[0].proc.pid, control_url=f"http://127.0.0.1:{ports['control']}")
    finally:
        for svc in reversed(services):
            svc.stop()
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
