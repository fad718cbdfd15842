"""Flood bench: one API worker flooded with distinct large answers, its resident memory against
its stated bound, its admission gate past its limit, and what both cost cached answers.

    python -m bench.flood [--days 2] [--requests 4400] [--seconds 240] [--codings identity,gzip,br]
                          [--layout separate|shared] [--keep DIR]

The stack (embedded warehouse, devnet with every chain, the API with one worker serving
/api/stats and /v1) starts on free loopback ports; its history is backfilled through Dagster
(`--keep DIR` keeps the backfilled data in DIR and reuses it on the next run). Then:

1. idle: the p99 of a cached route and of a 304 (`/api/stats/protocol`, keep-alive requests paced
   at 200 a second), and the worker's baseline resident memory (with its compute child) after it;
2. flood: wrk (one thread, 8 connections) sends each of `--requests` distinct paths once,
   cycling identity, gzip and br Accept-Encoding: `/api/stats/protocol/history?days=1..365`,
   `/v1/protocol/history` and `/v1/protocol/daily` over every subset of the public chains, both
   alignments, many day counts; it stops at the count or after `--seconds`, whichever is first.
   Meanwhile the worker's RSS is sampled every 20 ms and the cached route and the 304 are timed;
3. overload: wrk sends 3,000 more distinct paths over 16 connections more than the worker's gate
   admits (API_WAREHOUSE_CONCURRENCY + API_WAREHOUSE_QUEUE), ignoring Retry-After as a hostile
   client would, for at most 20 s; the cached route and the 304 are timed again;
4. slow readers (bench/slow_readers.py): 200 connections ask for the largest answer of the flood
   and read none of it; the worker's memory growth per connection.

Throughout, the cached route is also timed, in turn, on a second API worker that is not flooded
(the control): its p99 shows what the machine's contention alone costs.

Layout (`--layout`): a production warehouse runs on hosts of its own, and a serving worker is
best given a core that no CPU-heavy work shares. On the bench machine `separate` (the default with
2 cores or more) gives the first core to the flooded worker, the control and the probe, and the
other cores to the workers' compute children (api/compute_process.py), the warehouse, the devnet,
wrk and the memory sampler. `shared` leaves every process on every core, where the warehouse's
threads, the compute child and wrk compete with the serving loop for the same two cores.

Printed: baseline RSS, peak RSS, the bound (baseline + API_CACHE_MAX_BYTES), peak / bound
(goal <= 1.2), each phase's answers by kind (2xx, 503 `overloaded`, any other status or socket
error: goal 0), each p99 idle, during the flood and during the overload (goal: ratio <= 2), the
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
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

from bench import slow_readers
from bench.load import cpu_seconds, descendants, ensure_wrk, machine_busy_seconds, rss_bytes

CONNECTIONS = 8
OVERLOAD_REQUESTS, OVERLOAD_SECONDS = 3000, 20  # the overload phase: distinct answers, time limit
OVERLOAD_EXTRA = 16  # connections beyond what the gate admits
PROBE_PATH = "/api/stats/protocol"
PROBE_IDLE_REQUESTS = 1000
PROBE_PACE = 0.005  # seconds between rounds: 200 per second per probed worker
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


def largest_path(chains: list[int]) -> str:
    """The largest answer `flood_paths` can ask for: the longest daily series of every chain."""
    return f"/v1/protocol/daily?chainIds={','.join(map(str, sorted(chains)))}&alignment=utc&days=3660"


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


SAMPLER = """
import select, sys
from bench.load import rss_bytes
pid, peak, samples = int(sys.argv[1]), 0, 0
while not select.select([sys.stdin], [], [], float(sys.argv[2]))[0]:  # until its stdin closes
    peak, samples = max(peak, rss_bytes([pid])), samples + 1
print(peak, samples)
"""


class Sampler:
    """The peak resident memory of a process (and its descendants) until stopped, sampled every
    SAMPLE_SECONDS by a process of its own (on `cores`): in this one its reads of /proc would hold
    the GIL the probe's thread waits for, and add to the probe's figures."""

    def __init__(self, pid: int, cores: set[int] | None = None):
        self.pid, self.cores, self.peak, self.samples = pid, cores, 0, 0
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        taskset = ["taskset", "-c", ",".join(map(str, sorted(self.cores)))] if self.cores else []
        self.proc = subprocess.Popen([*taskset, sys.executable, "-c", SAMPLER, str(self.pid), str(SAMPLE_SECONDS)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def stop(self) -> None:
        out, _ = self.proc.communicate("", timeout=60)
        self.peak, self.samples = map(int, out.split())


class Probe(threading.Thread):
    """Times keep-alive requests to cached answers, paced at one round every `PROBE_PACE` seconds,
    until stopped (or `n` rounds). `targets`: name -> (URL, If-None-Match or None); a round asks
    each once, in turn, each on its own connection, so they are timed under the same conditions.
    The pace keeps the probe from being a load of its own (a closed loop would take a core of a
    small machine and time its own contention); the first `PROBE_WARM_UP` rounds are not counted.
    A raw socket keeps the client's own cost small."""

    def __init__(self, targets: dict[str, tuple[str, str | None]], n: int | None = None):
        super().__init__(daemon=True)
        self.targets, self.n = targets, n
        self.times: dict[str, list[float]] = {name: [] for name in targets}
        self.failures = 0
        self.done = threading.Event()

    def run(self) -> None:
        clients = {name: _KeepAlive(url, etag) for name, (url, etag) in self.targets.items()}
        rounds, due = 0, time.perf_counter()
        while not self.done.is_set() and (self.n is None or rounds < self.n + PROBE_WARM_UP):
            for name, client in clients.items():
                t0 = time.perf_counter()
                status, body = client.get()
                elapsed = time.perf_counter() - t0
                if status != (304 if client.etag else 200) or (status == 200 and b'"ok":true' not in body[:64]):
                    self.failures += 1
                if rounds >= PROBE_WARM_UP:
                    self.times[name].append(elapsed)
            rounds += 1
            due += PROBE_PACE
            time.sleep(max(0.0, due - time.perf_counter()))
        for client in clients.values():
            client.close()

    def p99(self, name: str) -> float:
        ordered = sorted(self.times[name])
        return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] if ordered else float("nan")


class _KeepAlive:
    """One keep-alive HTTP/1.1 connection sending the same GET (identity coding) again and again."""

    def __init__(self, url: str, etag: str | None = None):
        parsed = urllib.parse.urlsplit(url)
        self.address, self.etag = (parsed.hostname, parsed.port), etag
        target = parsed.path + (f"?{parsed.query}" if parsed.query else "")
        conditional = f"If-None-Match: {etag}\r\n" if etag else ""
        self.request = f"GET {target} HTTP/1.1\r\nHost: {parsed.netloc}\r\nAccept-Encoding: identity\r\n{conditional}\r\n".encode()
        self.sock: socket.socket | None = None

    def get(self) -> tuple[int, bytes]:
        if self.sock is None:
            self.sock = socket.create_connection(self.address, timeout=60)
            self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock.sendall(self.request)
        data = b""
        while b"\r\n\r\n" not in data:
            data += self._recv()
        head, body = data.split(b"\r\n\r\n", 1)
        status = int(head.split(b" ", 2)[1])
        length = re.search(rb"(?i)\r\ncontent-length:\s*(\d+)", head)
        while status != 304 and len(body) < int(length.group(1)):
            body += self._recv()
        return status, body

    def _recv(self) -> bytes:
        chunk = self.sock.recv(1 << 16)
        if not chunk:
            raise ConnectionError("the API closed a keep-alive connection")
        return chunk

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()


def pin(pids: list[int], cores: set[int]) -> None:
    """Every thread of the processes and their descendants on `cores`."""
    for pid in descendants(pids):
        for task in Path(f"/proc/{pid}/task").iterdir() if Path(f"/proc/{pid}/task").exists() else ():
            try:
                os.sched_setaffinity(int(task.name), cores)
            except OSError:
                pass  # a thread that ended meanwhile


def run_wrk(binary: str, url: str, pairs: list[tuple[str, str]], connections: int, seconds: int,
            cores: set[int] | None) -> dict[str, int]:
    """wrk sending each pair once over `connections` (stopping at the count or after `seconds`);
    its answers by kind and its socket errors."""
    script = flood_script(pairs)
    taskset = ["taskset", "-c", ",".join(map(str, sorted(cores)))] if cores else []
    try:
        out = subprocess.run([*taskset, binary, "-t1", f"-c{connections}", f"-d{seconds}s", "--timeout", "60s", "-s",
                              str(script), url + "/"], capture_output=True, text=True, check=True).stdout
    finally:
        script.unlink(missing_ok=True)
    found = re.search(r"FLOOD ok=(\d+) overloaded=(\d+) other=(\d+)", out).groups()
    counts = dict(zip(("ok", "overloaded", "other"), map(int, found)))
    counts["socket"] = sum(int(n) for n in re.findall(r"(?:connect|read|write|timeout) (\d+)", out))
    return counts


def measure(api_url: str, api_pid: int, requests: int, seconds: int, bound_bytes: int | None,
            codings: tuple[str, ...] = CODINGS, warehouse_pid: int | None = None, control_url: str | None = None,
            load_cores: set[int] | None = None, gate: int = 36) -> dict:
    """Run the idle probe, the flood and the overload against a running one-worker API whose gate
    admits `gate` computations (running and waiting); print and return the figures (with the CPU
    the worker, the warehouse and the whole machine used during the flood, as cores).
    `control_url`: another worker of the same API, not flooded, probed in turn with the flooded one:
    what its p99 does meanwhile is what the machine's contention alone costs."""
    binary = ensure_wrk()
    if binary is None:
        raise SystemExit("the flood needs wrk (apt-get install wrk)")
    with urllib.request.urlopen(api_url + "/v1/chains") as r:  # noqa: S310 - the bench's own local API
        chains = [c["chainId"] for c in json.loads(r.read())["data"]]  # the public chains
    with urllib.request.urlopen(api_url + PROBE_PATH) as r:  # noqa: S310
        etag = r.headers["ETag"]
    pairs = flood_paths(chains, requests + OVERLOAD_REQUESTS, codings)
    flood_pairs, overload_pairs = pairs[:requests], pairs[requests:]
    targets = {"cached": (api_url + PROBE_PATH, None), "304": (api_url + PROBE_PATH, etag)}
    if control_url:
        targets["control"] = (control_url + PROBE_PATH, None)
    idle = Probe(targets, PROBE_IDLE_REQUESTS)
    idle.run()
    baseline = rss_bytes([api_pid])
    bound = baseline + (DEFAULT_BOUND if bound_bytes is None else bound_bytes)
    sampler, probe = Sampler(api_pid, load_cores), Probe(targets)
    watched = {"worker": api_pid, **({"warehouse": warehouse_pid} if warehouse_pid else {})}

    def cpu(pid: int) -> float:
        return sum(cpu_seconds(p) for p in descendants([pid]))

    cpu0 = {name: cpu(pid) for name, pid in watched.items()}
    busy0 = machine_busy_seconds()
    sampler.start()
    probe.start()
    t0 = time.perf_counter()
    try:
        counts = run_wrk(binary, api_url, flood_pairs, CONNECTIONS, seconds, load_cores)
    finally:
        elapsed = time.perf_counter() - t0
        cores = {name: (cpu(pid) - cpu0[name]) / elapsed for name, pid in watched.items()}
        cores["machine"] = (machine_busy_seconds() - busy0) / elapsed
        probe.done.set()
        sampler.stop()
        probe.join()
    # past the gate: more connections asking distinct uncached answers than it admits
    overload_probe = Probe(targets)
    overload_probe.start()
    try:
        overload = run_wrk(binary, api_url, overload_pairs, gate + OVERLOAD_EXTRA, OVERLOAD_SECONDS, load_cores)
    finally:
        overload_probe.done.set()
        overload_probe.join()
    failures = idle.failures + probe.failures + overload_probe.failures
    errors = counts["other"] + counts["socket"] + overload["other"] + overload["socket"] + failures
    peak = max(sampler.peak, baseline)
    phases = (("idle", idle), ("flood", probe), ("overload", overload_probe))
    p99 = {phase: {name: p.p99(name) for name in targets} for phase, p in phases}
    figures = {"baseline": baseline, "peak": peak, "bound": bound, "peak_over_bound": peak / bound,
               "requests": counts["ok"] + counts["overloaded"] + counts["other"], "seconds": elapsed, **counts,
               "errors": errors, "overload": overload, "cores": cores, "p99": p99}
    mb = 2**20
    stated = "API_CACHE_MAX_BYTES" if bound_bytes is not None else f"{DEFAULT_BOUND // mb} MiB, not set by this API"
    print(f"\nflood: {figures['requests']:,} of {requests:,} distinct large answers in {elapsed:.1f} s (wrk -t1 "
          f"-c{CONNECTIONS}, cap {seconds} s; {', '.join(codings)} in turn), {sampler.samples:,} RSS samples")
    print(f"  worker RSS (with its compute child) baseline {baseline / mb:.1f} MB, peak {peak / mb:.1f} MB, bound "
          f"{bound / mb:.1f} MB (baseline + {(bound - baseline) / mb:.0f} MB, {stated}): peak/bound "
          f"{figures['peak_over_bound']:.2f} (goal <= {GOAL_PEAK}: {'met' if figures['peak_over_bound'] <= GOAL_PEAK else 'not met'})")
    print(f"  answers: 2xx {counts['ok']:,}, 503 overloaded {counts['overloaded']:,}; other statuses {counts['other']}, "
          f"socket errors {counts['socket']}")
    asked = overload["ok"] + overload["overloaded"] + overload["other"]
    print(f"overload: {asked:,} distinct uncached answers asked over {gate + OVERLOAD_EXTRA} connections for at most "
          f"{OVERLOAD_SECONDS} s (the gate admits {gate}): 2xx {overload['ok']:,}, 503 overloaded {overload['overloaded']:,}; "
          f"other statuses {overload['other']}, socket errors {overload['socket']}")
    print(f"errors in all: {errors} (cached-route failures {failures}; goal 0)")
    names = {"cached": f"cached {PROBE_PATH}", "304": f"304 {PROBE_PATH}", "control": "cached, a second worker not flooded"}
    for name in targets:
        ratios = [p99[phase][name] / p99["idle"][name] for phase in ("flood", "overload")]
        goal = "" if name == "control" else f" (goal <= {GOAL_P99}: {'met' if max(ratios) <= GOAL_P99 else 'not met'})"
        print(f"  {names[name]:<36} p99 idle {p99['idle'][name] * 1e3:6.2f} ms, flood {p99['flood'][name] * 1e3:6.2f} ms "
              f"({ratios[0]:.2f} x), overload {p99['overload'][name] * 1e3:6.2f} ms ({ratios[1]:.2f} x){goal}")
    if control_url:
        print(f"  flooded / not flooded worker, cached p99: {p99['flood']['cached'] / p99['flood']['control']:.2f} x during the "
              f"flood, {p99['overload']['cached'] / p99['overload']['control']:.2f} x during the overload (the control's own "
              f"ratios are the machine's contention)")
    print(f"  CPU during the flood, in cores of {os.cpu_count()}: "
          + ", ".join(f"{name} {used:.2f}" for name, used in cores.items())
          + " (worker: with its compute child; machine: every process on it)", flush=True)
    figures["slow_readers"] = slow_readers.run(api_url, api_pid, largest_path(chains))
    return figures


def wait_for_children(pid: int, seconds: float = 60) -> None:
    """Until the API worker has started its compute child (API_COMPUTE_PROCESS=0: not at all)."""
    if os.environ.get("API_COMPUTE_PROCESS", "1") == "0":
        return
    deadline = time.monotonic() + seconds
    while len(descendants([pid])) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--days", type=int, default=2, help="devnet history in days (default 2)")
    ap.add_argument("--requests", type=int, default=4400, help="distinct requests of the flood (default 4,400)")
    ap.add_argument("--seconds", type=int, default=240, help="the flood's time limit (default 240)")
    ap.add_argument("--codings", default=",".join(CODINGS), help="Accept-Encoding values sent in turn (default identity,gzip,br)")
    ap.add_argument("--layout", choices=("separate", "shared"), default="separate" if (os.cpu_count() or 1) >= 2 else "shared",
                    help="separate: the API on the first core, the warehouse, devnet and wrk on the others (default "
                         "with 2 cores or more); shared: every process on every core")
    ap.add_argument("--keep", type=Path, help="keep the backfilled stack's data here and reuse it on the next run")
    args = ap.parse_args(argv)

    from ve_analytics.cli.processes import Service, cli, free_port, unwind_on_signals
    from ve_analytics.core.config import Settings
    from ve_analytics.core.logs import setup_logging

    unwind_on_signals()  # an interrupt or kill stops the services started below

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
        load_cores = None
        if args.layout == "separate":
            api_cores, load_cores = {0}, set(range(1, os.cpu_count() or 2))
            wait_for_children(api.proc.pid)
            pin([svc.proc.pid for svc in services if svc.name in ("api", "control")] + [os.getpid()], api_cores)
            # every other process, the API workers' compute children included
            pin([svc.proc.pid for svc in services if svc.name not in ("api", "control")]
                + [c for svc in services if svc.name in ("api", "control") for c in descendants([svc.proc.pid])[1:]], load_cores)
            print(f"layout: the API worker, the control and the probe on core 0; the workers' compute children, the "
                  f"warehouse, the devnet, wrk and the memory sampler on cores {min(load_cores)}-{max(load_cores)}", flush=True)
        measure(f"http://127.0.0.1:{ports['api']}", api.proc.pid, args.requests, args.seconds,
                getattr(getattr(settings, "api_limits", None), "cache_max_bytes", None), tuple(args.codings.split(",")),
                warehouse_pid=services[0].proc.pid, control_url=f"http://127.0.0.1:{ports['control']}", load_cores=load_cores,
                gate=settings.api_limits.warehouse_concurrency + settings.api_limits.warehouse_queue)
    finally:
        for svc in reversed(services):
            svc.stop()
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
