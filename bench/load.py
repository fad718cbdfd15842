"""Load figures with a real load generator (`wrk`), for `make bench` (bench/run.py calls `report`).

At one worker count and one concurrency, in one run: requests/s of a Sanic hello-world with as
many workers as the API, then of cached 200s (`/api/stats/protocol`, a route of several hundred
rows, the 365-day history, the latter also brotli-coded as a browser asks) and of 304s, each as a ratio to
the hello-world's (goals: cached 200 at least 0.8, 304 at least 1.0), with the errors wrk saw
(goal 0). A body of more than a few KB costs its bytes whatever serves it, so such a route is
also measured against the hello-world sending a body of the same size (bench/hello.py). Then a soak of mixed requests (wrk
cycling through every measured path, 200s and 304s) with the resident memory of the warehouse
and of the API (all its processes) before and after (goal: growth at most 10%) and its errors.
Warehouse queries are counted from the embedded warehouse's query log (WAREHOUSE_QUERY_LOG,
warehouse/query_log.py): during the cached measurements (only the pointers' background
refreshes are expected), and under load on parameters no one asked before (goal: at most one
query per route, parameters, snapshot and worker).

`wrk` comes from the OS packages; `ensure_wrk` installs it with apt-get when it is missing.
"""
from __future__ import annotations

import os
import re
import shutil
import statistics
import subprocess
import tempfile
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from ve_analytics.warehouse.query_log import read_log

THREADS = 1
CONNECTIONS = 16
SECONDS = 5
ROUNDS = 3
SOAK_REQUESTS = 20_000
GOAL_CACHED, GOAL_304, GOAL_MEMORY = 0.8, 1.0, 0.10
FLOOR_MIN_BYTES = 8192  # a body this large costs its bytes: also measured against a hello-world of its size


def ensure_wrk() -> str | None:
    """The wrk binary, installed from the OS packages when missing; None when that is impossible."""
    found = shutil.which("wrk")
    if found:
        return found
    if shutil.which("apt-get"):
        print("installing wrk (apt-get) ...", flush=True)
        env = {"DEBIAN_FRONTEND": "noninteractive", "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"}
        subprocess.run(["apt-get", "install", "-y", "-q", "wrk"], env=env, capture_output=True)
        if not shutil.which("wrk"):
            subprocess.run(["apt-get", "update", "-q"], env=env, capture_output=True)
            subprocess.run(["apt-get", "install", "-y", "-q", "wrk"], env=env, capture_output=True)
    return shutil.which("wrk")


@dataclass
class WrkResult:
    requests: int
    seconds: float
    errors: int  # socket errors, timeouts and non-2xx/3xx answers

    @property
    def rps(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0


def _parse(out: str) -> WrkResult:
    m = re.search(r"(\d+) requests in ([\d.]+)(us|ms|s|m|h)\b", out)
    if not m:
        raise RuntimeError(f"unexpected wrk output:\n{out}")
    seconds = float(m.group(2)) * {"us": 1e-6, "ms": 1e-3, "s": 1, "m": 60, "h": 3600}[m.group(3)]
    errors = sum(int(n) for n in re.findall(r"(?:connect|read|write|timeout) (\d+)", out))
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return WrkResult(int(m.group(1)), seconds, errors + (int(bad.group(1)) if bad else 0))


def wrk(binary: str, url: str, *, seconds: int = SECONDS, headers: dict[str, str] | None = None,
        script: Path | None = None) -> WrkResult:
    argv = [binary, f"-t{THREADS}", f"-c{CONNECTIONS}", f"-d{seconds}s", "--latency"]
    for name, value in (headers or {}).items():
        argv += ["-H", f"{name}: {value}"]
    if script is not None:
        argv += ["-s", str(script)]
    return _parse(subprocess.run(argv + [url], capture_output=True, text=True, check=True).stdout)


POINTER_MARK = "argMaxIf(snapshot_at"  # in latest_snapshots.sql, the pointers' refresh
# the same background refresh follows the curation publication and the hourly valuations
# (common/latest_curation.sql, curation_document.sql, latest_valuations.sql): not requests' queries
FOLLOWER_MARKS = ("FROM curation_publications FINAL", "FROM price_valuation_runs")


def _body_size(url: str, headers: dict[str, str]) -> int:
    """Bytes of the body sent for `url` with `headers` (content-coded if they ask for it)."""
    request = urllib.request.Request(url, headers=dict(headers))
    try:
        with urllib.request.urlopen(request) as response:  # noqa: S310 - the bench's own local API
            return len(response.read())
    except urllib.error.HTTPError as err:
        if err.code == 304:  # a conditional request: no body
            return 0
        raise


def log_size(path: Path | None) -> int:
    return path.stat().st_size if path is not None and path.exists() else 0


def descendants(pids: list[int]) -> list[int]:
    """The processes and all their descendants (those still running)."""
    seen, todo = [], list(pids)
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        try:
            children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        except OSError:
            continue
        seen.append(pid)
        todo.extend(int(c) for c in children)
    return seen


def rss_bytes(pids: list[int]) -> int:
    """Resident memory of the processes and all their descendants."""
    total = 0
    for pid in descendants(pids):
        try:
            m = re.search(r"VmRSS:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text())
        except OSError:
            continue
        total += int(m.group(1)) * 1024 if m else 0
    return total


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (its threads; not its children's)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


def machine_busy_seconds() -> float:
    """CPU seconds every core of the machine spent busy (all processes, not only this bench's)."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + (values[4] if len(values) > 4 else 0)  # idle + iowait
    return (sum(values[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def _soak_script(paths: list[tuple[str, dict[str, str]]]) -> Path:
    """A wrk Lua script cycling through `paths` (with their headers)."""
    entries = ",\n".join(
        "{" + f"path={_lua(path)}, headers={{" + ", ".join(f"[{_lua(k)}]={_lua(v)}" for k, v in headers.items()) + "}}"
        for path, headers in paths)
    text = f"""local paths = {{
{entries}
}}
local i = 0
request = function()
  i = i % #paths + 1
  return wrk.format("GET", paths[i].path, paths[i].headers)
end
"""
    handle = tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False)
    handle.write(text)
    handle.close()
    return Path(handle.name)


def _lua(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _queries(log: Path | None, offset: int, user: str) -> tuple[dict[tuple, int], int, int]:
    """The `user`'s queries logged after `offset`: counts per (statement, parameters) without the
    snapshot pointers' refreshes (and what they follow), the number of those refreshes, and the new
    offset."""
    if log is None:
        return {}, 0, offset
    entries, end = read_log(log, offset)
    counts: dict[tuple, int] = {}
    refreshes = 0
    for e in entries:
        if e["user"] != user:
            continue
        if POINTER_MARK in e["query"]:
            refreshes += 1
            continue
        if any(mark in e["query"] for mark in FOLLOWER_MARKS):
            continue
        key = (e["query"], tuple(sorted(e["parameters"].items())))
        counts[key] = counts.get(key, 0) + 1
    return counts, refreshes, end


def report(*, hello_url: str, api_url: str, routes: dict[str, str], etag_path: str, etag: str,
           workers: int, warehouse_pid: int, api_pid: int, cold: dict[str, str],
           query_log: Path | None, api_user: str) -> None:
    """Print the load figures. `routes`: label -> path of the cached 200s measured; `cold`: label ->
    a path with parameters not asked before (its queries are counted under load)."""
    binary = ensure_wrk()
    if binary is None:
        print("\nload figures skipped: wrk is not installed and could not be installed (apt-get)")
        return
    print(f"\nload (wrk -t{THREADS} -c{CONNECTIONS} -d{SECONDS}s, keep-alive; API and hello-world with "
          f"{workers} worker{'s' if workers != 1 else ''} each; each figure the median of {ROUNDS} runs, each run "
          f"paired with hello-world runs just before it):", flush=True)
    for path in routes.values():
        wrk(binary, api_url + path, seconds=1)  # warm every worker's cache
    offset = log_size(query_log)
    cases = [(f"cached 200 {label}", path, {}, GOAL_CACHED) for label, path in routes.items()]
    if routes:  # the last route measured is also measured brotli-coded
        large_label, large_path = list(routes.items())[-1]
        cases.append((f"cached 200 {large_label}, br", large_path, {"Accept-Encoding": "br"}, GOAL_CACHED))
    cases.append((f"304 {etag_path}", etag_path, {"If-None-Match": etag}, GOAL_304))
    served, hellos = 0, []
    for name, path, headers, goal in cases:
        size = _body_size(api_url + path, headers)
        # this machine's throughput drifts by more than the ratios measured, within a minute: each
        # run is paired with a hello-world run just before it, and (for a body of more than a few
        # KB) with a run of the hello-world sending as many bytes, the framework's floor for it
        ratios, floors, rates, errors = [], [], [], 0
        for _ in range(ROUNDS):
            hello = wrk(binary, hello_url + "/hello")
            floor = wrk(binary, f"{hello_url}/bytes/{size}") if size > FLOOR_MIN_BYTES else None
            r = wrk(binary, api_url + path, headers=headers)
            hellos.append(hello.rps)
            ratios.append(r.rps / hello.rps)
            if floor is not None:
                floors.append(r.rps / floor.rps)
                errors += floor.errors
            rates.append(r.rps)
            served += r.requests
            errors += r.errors + hello.errors
        ratio = statistics.median(ratios)
        verdict = "met" if ratio >= goal else "not met"
        same = f"; {statistics.median(floors):4.2f} x hello sending the same {size:,} bytes" if floors else ""
        print(f"  {name:38s} {statistics.median(rates):9,.0f} req/s = {ratio:4.2f} x hello ({min(ratios):.2f}..{max(ratios):.2f}; "
              f"goal >= {goal}: {verdict}){same}  errors {errors}")
    print(f"  {'hello-world':38s} {statistics.median(hellos):9,.0f} req/s median ({min(hellos):,.0f}..{max(hellos):,.0f})")
    if query_log is not None:
        counts, refreshes, offset = _queries(query_log, offset, api_user)
        print(f"  warehouse queries during those {served:,} cached and 304 requests: {sum(counts.values())} "
              f"(besides {refreshes} snapshot-pointer refreshes, about one per second per worker)")
        for label, path in cold.items():
            r = wrk(binary, api_url + path)
            counts, _, offset = _queries(query_log, offset, api_user)
            most = max(counts.values(), default=0)
            verdict = "met" if most <= workers else "not met"
            print(f"  {'first asked under load ' + label:34s} {r.requests:,} requests: at most {most} queries per "
                  f"(statement, parameters, snapshot) with {workers} workers (goal <= 1 per worker: {verdict}), "
                  f"errors {r.errors}")

    mixed = [(path, {}) for path in routes.values()] + [(etag_path, {"If-None-Match": etag})]
    script = _soak_script(mixed)
    try:
        before = rss_bytes([warehouse_pid]), rss_bytes([api_pid])
        probe = wrk(binary, api_url + "/", seconds=2, script=script)
        # long enough for SOAK_REQUESTS at the probe's rate, with a margin
        soak = wrk(binary, api_url + "/", seconds=max(5, int(1.5 * SOAK_REQUESTS / max(probe.rps, 1.0)) + 1),
                   script=script)
        after = rss_bytes([warehouse_pid]), rss_bytes([api_pid])
    finally:
        script.unlink(missing_ok=True)
    print(f"  soak: {soak.requests:,} mixed requests (goal >= {SOAK_REQUESTS:,}) in {soak.seconds:.1f} s, "
          f"errors {soak.errors}")
    for name, b, a in (("warehouse", before[0], after[0]), ("API", before[1], after[1])):
        growth = (a - b) / b if b else 0.0
        verdict = "met" if growth <= GOAL_MEMORY else "not met"
        print(f"    {name} resident memory {b / 2**20:7.1f} MB -> {a / 2**20:7.1f} MB ({growth:+.1%}; goal <= "
              f"{GOAL_MEMORY:.0%}: {verdict})")
