"""Scale benchmark: one 15-minute snapshot of every chain at devnet scale, and backfill throughput.

    python -m bench.scale [--chains 56,4663,8453,1,5042] [--pools 1000] [--tokens 200]
                          [--history-days 2] [--backfill-hours 6] [--profile]

Starts its own warehouse (`ve-analytics warehouse`) and devnet (`python -m devnet`, every chain
grown to --pools pools and --tokens tokens, --history-days of history) on free ports in a
temporary folder, writes the devnet's chain book, migrates, then:

1. history: the history job of every chain (in process, one process per chain, concurrently)
   over the days the measured snapshots' 24-hour flow windows read;
2. one snapshot: every chain's snapshot job for its newest 15-minute boundary, the five runs
   started together in fresh processes as the schedules would (a launched run is a new process
   that loads the code location): the wall time until all are published, as a fraction of the
   900 s between two snapshots (goal <= 0.05), and per chain its own seconds and its assets';
3. backfill throughput: the --backfill-hours before that boundary on every chain, one run per
   chain, concurrently: snapshots per second;
4. the dataset: pools and tokens per chain, rows per table and chain, bytes on disk per table;
   the tick capture's storage over the backfill, per chain and extrapolated to a day, beside
   storing the full tick table at every snapshot (bench/ticks.py);
5. discovery (bench/discovery.py): the curation published, /v1/pools and /v1/tokens uncached
   against their SQL, and page 50 of a /v1/pools traversal against page 1.

The newest boundary is taken per chain from its upstream's "now" (the older of the chain head
and the subgraph's indexed head): chain 5042's subgraph lags 36 hours by design, so its boundary
is 36 hours behind the others'. Everything started here is stopped on exit, Ctrl-C included.
"""
from __future__ import annotations

import argparse
import concurrent.futures as cf
import multiprocessing
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import httpx

GOAL = 0.05  # one snapshot of every chain, as a fraction of the 15 minutes between two
INTERVAL = 900
DEFAULT_CHAINS = "56,4663,8453,1,5042"


def say(text: str) -> None:
    print(text, flush=True)


def hm(ts: int) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.gmtime(ts))


# -- run in worker processes (spawned: a fresh interpreter, as a launched Dagster run) -----------

def run_job(job_name: str, partition_key: str | None, tags: dict[str, str], profile: str | None = None) -> dict:
    """Execute one run of `job_name` in this process on the instance at DAGSTER_HOME (settings from
    the environment); its phases' seconds and each step's seconds from the instance."""
    t0 = time.perf_counter()
    from ve_analytics.core.config import Settings
    from ve_analytics.core.logs import setup_logging
    from ve_analytics.orchestration.backfill import QUIET_RUN_CONFIG
    from ve_analytics.orchestration.definitions import build_defs
    from ve_analytics.orchestration.instance import dagster_instance

    setup_logging("WARNING")
    t1 = time.perf_counter()
    settings = Settings.from_env()
    job = build_defs(settings).resolve_job_def(job_name)
    t2 = time.perf_counter()
    profiler = None
    if profile:
        import cProfile

        profiler = cProfile.Profile(time.process_time)  # CPU time: wall time is shared with the other processes
    with dagster_instance(settings) as instance:
        t3 = time.perf_counter()
        c3 = time.process_time()
        if profiler:
            profiler.enable()
        try:
            result = job.execute_in_process(instance=instance, partition_key=partition_key, tags=tags,
                                            run_config=QUIET_RUN_CONFIG, raise_on_error=True)
        finally:
            if profiler:
                profiler.disable()
                profiler.dump_stats(profile)
        t4 = time.perf_counter()
        run_cpu = time.process_time() - c3
        steps = {s.step_key: (s.end_time or 0) - (s.start_time or 0) for s in instance.get_run_step_stats(result.run_id)}
    return {"job": job_name, "run_id": result.run_id, "import_s": t1 - t0, "defs_s": t2 - t1,
            "instance_s": t3 - t2, "run_s": t4 - t3, "run_cpu_s": run_cpu, "total_s": time.perf_counter() - t0,
            "cpu_s": time.process_time(), "steps": steps, "done_at": time.time()}


def concurrently(calls: list[tuple], workers: int) -> tuple[float, list[dict]]:
    """Each call's run_job(*call) in its own fresh process, all started together; (wall seconds
    until the last ended, results in order). Raises the first failure."""
    ctx = multiprocessing.get_context("spawn")
    t0 = time.time()
    with cf.ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
        futures = [pool.submit(run_job, *call) for call in calls]
        results = [f.result() for f in futures]
    wall = max(r["done_at"] for r in results) - t0
    for r in results:
        r["wall_s"] = r["done_at"] - t0
    return wall, results


def group_cpu_seconds(pgid: int) -> float:
    """User + system CPU seconds of every living process of the process group `pgid` (Linux /proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid:  # fields after the command: state ppid pgrp ... utime(12) stime(13)
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def machine_busy_seconds() -> float:
    """CPU-seconds every CPU of the machine has been busy (user, nice, system, irq, softirq, steal)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return (sum(fields[:3]) + sum(fields[5:8])) / os.sysconf("SC_CLK_TCK")


# -- the parent --------------------------------------------------------------------------------

def dataset(client, settings, chain_ids: list[int], deployments: dict[int, dict]) -> list[str]:
    lines = ["dataset:"]
    for cid in chain_ids:
        d = deployments.get(cid, {})
        lines.append(f"  chain {cid:>5}: {len(d.get('pools', [])):,} pools, {len(d.get('tokens', [])):,} tokens, "
                     f"{len(d.get('vaults') or []):,} vaults")
    tables = [name for (name,) in client.query(
        "SELECT name FROM system.tables WHERE database = currentDatabase() AND engine NOT LIKE '%View' ORDER BY name"
    ).result_rows]
    with_chain = {t for (t,) in client.query(
        "SELECT DISTINCT table FROM system.columns WHERE database = currentDatabase() AND name = 'chain_id'"
    ).result_rows}
    try:
        parts = {t: (rows, size) for t, rows, size in client.query(
            "SELECT table, sum(rows), sum(bytes_on_disk) FROM system.parts WHERE active AND database = currentDatabase() "
            "GROUP BY table").result_rows}
    except Exception as exc:  # noqa: BLE001 - the embedded warehouse may not expose it
        parts = None
        lines.append(f"  (system.parts not available: {type(exc).__name__}; no on-disk bytes)")
    head = f"  {'rows per table / chain':<26}" + "".join(f"{c:>12}" for c in chain_ids) + f"{'total':>12}" + ("  on disk" if parts is not None else "")
    lines.append(head)
    total_bytes, total_rows = 0, 0
    for t in tables:
        total = client.command(f"SELECT count() FROM `{t}`")
        total = int(total)
        if not total:
            continue
        per = {}
        if t in with_chain:
            per = {int(c): n for c, n in client.query(f"SELECT chain_id, count() FROM `{t}` GROUP BY chain_id").result_rows}
        cells = "".join(f"{per.get(c, 0):>12,}" if t in with_chain else f"{'':>12}" for c in chain_ids)
        size = ""
        if parts is not None and t in parts:
            size = f"  {parts[t][1] / 1e6:8.2f} MB"
            total_bytes += parts[t][1]
        total_rows += total
        lines.append(f"  {t:<26}{cells}{total:>12,}{size}")
    if parts is not None:
        lines.append(f"  all tables: {total_rows:,} rows, {total_bytes / 1e6:.1f} MB on disk (system.parts, active parts)")
    return lines


def step_table(results: list[dict], chain_ids: list[int], top: int = 12) -> list[str]:
    """Per asset (step key without the chain prefix), its seconds on each chain."""
    per: dict[str, dict[int, float]] = {}
    for cid, r in zip(chain_ids, results):
        for key, s in r["steps"].items():
            name = key.removeprefix(f"chain_{cid}__")
            per.setdefault(name, {})[cid] = s
    ordered = sorted(per.items(), key=lambda kv: -max(kv[1].values()))[:top]
    width = max([24, *(len(name) for name, _ in ordered)])
    lines = [f"  {'step (asset) seconds':<{width}}" + "".join(f"{c:>9}" for c in chain_ids)]
    for name, by in ordered:
        lines.append(f"  {name:<{width}}" + "".join(f"{by[c]:9.2f}" if c in by else f"{'-':>9}" for c in chain_ids))
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--chains", default=DEFAULT_CHAINS, help=f"devnet chains (default {DEFAULT_CHAINS})")
    ap.add_argument("--pools", type=int, default=1000, help="pools per chain (default 1000)")
    ap.add_argument("--tokens", type=int, default=200, help="tokens per chain (default 200)")
    ap.add_argument("--history-days", type=float, default=2, help="devnet history in days (default 2)")
    ap.add_argument("--backfill-hours", type=int, default=6, help="snapshots per chain for the throughput (default 6 h = 24)")
    ap.add_argument("--profile", action="store_true", help="cProfile the one-snapshot runs; print the top functions per chain")
    ap.add_argument("--no-solo", action="store_true", help="skip the one-chain-alone comparison run")
    ap.add_argument("--keep", action="store_true", help="keep the temporary folder (warehouse, logs, profiles)")
    ap.add_argument("--no-discovery", action="store_true", help="skip the /v1/pools and /v1/tokens figures (bench/discovery.py)")
    args = ap.parse_args(argv)
    chain_ids = [int(c) for c in args.chains.split(",") if c]

    from ve_analytics.cli.processes import Service, cli, free_port, unwind_on_signals
    from ve_analytics.core.config import Settings
    from ve_analytics.core.logs import setup_logging

    unwind_on_signals()  # an interrupt or kill stops the services started below
    setup_logging("WARNING")
    work = Path(tempfile.mkdtemp(prefix="ve-scale-"))
    ports = {name: free_port() for name in ("warehouse", "devnet")}
    env = {
        "VEA_DATA_DIR": str(work),
        "WAREHOUSE_PORT": str(ports["warehouse"]),
        "DEVNET_PORT": str(ports["devnet"]),
        "DEVNET_HISTORY_DAYS": str(args.history_days),
        "DEVNET_CHAINS": ",".join(map(str, chain_ids)),
        "DEVNET_POOLS": str(args.pools),
        "DEVNET_TOKENS": str(args.tokens),
        "DEVNET_DATA_DIR": str(work),
        "DAGSTER_HOME": str(work / "dagster"),
        "LOG_LEVEL": "WARNING",
    }
    os.environ.update(env)  # the worker processes read their settings from it
    (work / "dagster").mkdir(parents=True, exist_ok=True)
    services: list[Service] = []
    devnet_url = f"http://127.0.0.1:{ports['devnet']}"

    def cpu() -> dict[str, float]:
        """CPU-seconds so far of each service, and of the whole machine ("machine")."""
        return {**{svc.name: group_cpu_seconds(svc.proc.pid) for svc in services if svc.alive},
                "machine": machine_busy_seconds()}

    def start(name: str, argv: list[str], ready: str) -> float:
        t0 = time.perf_counter()
        services.append(Service(name, argv, ready, env=env, log_path=work / f"{name}.log").start(1800))
        return time.perf_counter() - t0

    try:
        say(f"scale bench: chains {', '.join(map(str, chain_ids))}, {args.pools:,} pools and {args.tokens:,} tokens each, "
            f"{args.history_days:g}-day devnet history; work folder {work}")
        say("starting warehouse ...")
        start("warehouse", cli("warehouse"), f"http://127.0.0.1:{ports['warehouse']}/ping")
        say("starting devnet ...")
        devnet_s = start("devnet", [sys.executable, "-m", "devnet"], f"{devnet_url}/health")
        say(f"devnet ready in {devnet_s:.1f} s (wall, process start to /health)")

        from ve_analytics.cli.stack import write_devnet_book
        from ve_analytics.core.epochs import DAY, HOUR, QUARTER_HOUR, floor_to
        from ve_analytics.core.partition_keys import RANGE_END_TAG, RANGE_START_TAG, day_key, snapshot_day_key, snapshot_tags
        from ve_analytics.core.pipeline_names import history_job, snapshot_job
        from ve_analytics.assets.publication import published_times
        from ve_analytics.orchestration.backfill import upstream_now
        from ve_analytics.warehouse.client import get_client
        from ve_analytics.warehouse.migrate import migrate
        from bench.ticks import set_counts, step_seconds, storage_lines

        settings = Settings.from_env()
        write_devnet_book(devnet_url, settings.chain_book)
        settings = Settings.from_env()
        migrate(settings)
        from ve_analytics.orchestration.instance import dagster_instance

        with dagster_instance(settings) as instance:  # its storage created once, before the concurrent runs
            instance.get_runs(limit=1)
        deployments = {cid: httpx.get(f"{devnet_url}/chains/{cid}/deployment", timeout=60).json() for cid in chain_ids}
        workers = len(chain_ids)

        # the newest boundary per chain, from its upstream's now (5042: its subgraph's, 36 h behind)
        nows = {cid: upstream_now(settings, cid) for cid in chain_ids}
        newest = {cid: floor_to(now - 1, QUARTER_HOUR) for cid, (now, _) in nows.items()}
        for cid in chain_ids:
            lag = time.time() - nows[cid][0]
            say(f"chain {cid:>5}: upstream now {hm(nows[cid][0])} UTC ({lag / 3600:.1f} h behind the wall clock), "
                f"newest boundary {hm(newest[cid])}" + (" (the subgraph's lag: its newest indexed boundary, not the wall clock's)"
                                                        if lag > HOUR else ""))

        # 1. history over the days the measured snapshots' 24 h windows read
        first = {cid: newest[cid] - args.backfill_hours * HOUR for cid in chain_ids}
        history_calls = []
        for cid in chain_ids:
            deployed = settings.chain(cid).deployed_at or 0
            lo = max(floor_to(first[cid] - DAY, DAY), floor_to(deployed, DAY))
            hi = floor_to(floor_to(nows[cid][0], HOUR) - HOUR, DAY)
            keys = [day_key(t) for t in range(lo, hi + 1, DAY)]
            tags = {RANGE_START_TAG: keys[0], RANGE_END_TAG: keys[-1]} if len(keys) > 1 else {}
            history_calls.append((history_job(cid), keys[0] if len(keys) == 1 else None, tags))
            say(f"chain {cid:>5}: history days {keys[0]}..{keys[-1]} ({len(keys)})")
        say(f"history: {len(chain_ids)} runs, one process per chain, concurrently ...")
        hist_wall, hist = concurrently(history_calls, workers)
        say(f"history done in {hist_wall:.1f} s wall: " + ", ".join(
            f"{cid} {r['run_s']:.1f} s" for cid, r in zip(chain_ids, hist)))

        # 2. one snapshot of every chain, at its newest boundary, concurrently in fresh processes
        say(f"one snapshot: {len(chain_ids)} snapshot runs started together ...")
        profiles = {cid: str(work / f"profile-{cid}.prof") if args.profile else None for cid in chain_ids}
        snap_calls = [(snapshot_job(cid), snapshot_day_key(newest[cid]), snapshot_tags(newest[cid], newest[cid]), profiles[cid])
                      for cid in chain_ids]
        cpu0 = cpu()
        snap_wall, snap = concurrently(snap_calls, workers)
        snap_cpu = {k: v - cpu0.get(k, 0.0) for k, v in cpu().items()}
        with get_client(settings) as client:
            missing = [cid for cid in chain_ids if newest[cid] not in published_times(client, cid, [newest[cid]])]
            tick_sets_before = set_counts(client)  # the tables the backfill need not write again
        if missing:
            raise RuntimeError(f"snapshot not published on chain(s) {missing}")

        # 3. backfill throughput: the hours before that boundary, one run per chain
        ranges = {cid: (first[cid], newest[cid] - QUARTER_HOUR) for cid in chain_ids}
        fill_calls = []
        for cid, (a, b) in ranges.items():
            ka, kb = snapshot_day_key(a), snapshot_day_key(b)
            tags = snapshot_tags(a, b)
            if ka == kb:
                fill_calls.append((snapshot_job(cid), ka, tags))
            else:
                fill_calls.append((snapshot_job(cid), None, {**tags, RANGE_START_TAG: ka, RANGE_END_TAG: kb}))
        n_per_chain = {cid: (b - a) // QUARTER_HOUR + 1 for cid, (a, b) in ranges.items()}
        say(f"backfill throughput: {sum(n_per_chain.values())} snapshots ({args.backfill_hours} h x {len(chain_ids)} chains), "
            "one run per chain, concurrently ...")
        cpu0 = cpu()
        fill_wall, fill = concurrently(fill_calls, workers)
        fill_cpu = {k: v - cpu0.get(k, 0.0) for k, v in cpu().items()}
        with get_client(settings) as client:
            published = {cid: len(published_times(client, cid, list(range(a, b + 1, QUARTER_HOUR))))
                         for cid, (a, b) in ranges.items()}
            tick_lines = storage_lines(client, chain_ids, ranges, published, tick_sets_before)  # OPTIMIZEs first
            size_lines = dataset(client, settings, chain_ids, deployments)

        # 4. the same snapshot work without the contention: the first chain alone, one boundary
        solo = None
        if not args.no_solo:
            cid = chain_ids[0]
            t = first[cid] - QUARTER_HOUR  # not published yet; its windows' history is there
            say(f"one snapshot of chain {cid} alone ({hm(t)}), for comparison ...")
            cpu0 = cpu()
            _, (solo,) = concurrently([(snapshot_job(cid), snapshot_day_key(t), snapshot_tags(t, t))], 1)
            solo["services_cpu"] = {k: v - cpu0.get(k, 0.0) for k, v in cpu().items()}
            solo["chain"] = cid

        # -- the report ----------------------------------------------------------------------
        ncpu = os.cpu_count() or 1

        def cpu_line(wall: float, results: list[dict], services_cpu: dict[str, float]) -> str:
            runs = sum(r["cpu_s"] for r in results)
            ours = {k: v for k, v in services_cpu.items() if k != "machine"}
            used = runs + sum(ours.values())
            others = max(0.0, services_cpu.get("machine", used) - used)
            parts = ", ".join(f"{k} {v:.1f} s" for k, v in ours.items())
            return (f"  CPU-seconds: run processes {runs:.1f} (import+defs included), {parts}; other processes of "
                    f"the machine {others:.1f}; of {wall * ncpu:.1f} available ({ncpu} CPUs x {wall:.1f} s wall; "
                    f"load average {os.getloadavg()[0]:.1f})")

        fraction = snap_wall / INTERVAL
        say("")
        say(f"== scale bench: {len(chain_ids)} chains x {args.pools:,} pools / {args.tokens:,} tokens, "
            f"{args.history_days:g}-day devnet history, {ncpu} CPUs ==")
        say(f"devnet startup: {devnet_s:.1f} s (process start to /health)")
        say(f"history (setup, the days the snapshots' 24 h windows read): {len(history_calls)} runs in {hist_wall:.1f} s wall")
        say("")
        say("one 15-minute snapshot of every chain (runs started together, one fresh process each, as launched runs):")
        say(f"  wall until all {len(chain_ids)} published: {snap_wall:.1f} s = {fraction:.3f} of 15 minutes "
            f"(goal <= {GOAL}: {'met' if fraction <= GOAL else 'MISSED'})")
        say("  chain  boundary (UTC)    process s = import   defs  run (run CPU)  wall s from start")
        for cid, r in zip(chain_ids, snap):
            note = "  <- subgraph lags 36 h: its newest indexed boundary" if time.time() - nows[cid][0] > HOUR else ""
            say(f"  {cid:>5}  {hm(newest[cid])}  {r['total_s']:9.1f} = {r['import_s']:6.1f} {r['defs_s']:6.1f} "
                f"{r['run_s']:5.1f} ({r['run_cpu_s']:5.1f})  {r['wall_s']:8.1f}{note}")
        say(cpu_line(snap_wall, snap, snap_cpu))
        say("\n".join(step_table(snap, chain_ids)))
        say(f"  tick_snapshots (tick capture) seconds per chain: {step_seconds(snap, chain_ids)}")
        if solo is not None:
            say(f"  the same work for chain {solo['chain']} alone (no other run): process {solo['total_s']:.1f} s = import "
                f"{solo['import_s']:.1f} + defs {solo['defs_s']:.1f} + run {solo['run_s']:.1f} (run CPU {solo['run_cpu_s']:.1f}); "
                + ", ".join(f"{k} CPU {v:.1f} s" for k, v in solo["services_cpu"].items() if k != "machine"))
            say("  its steps: " + ", ".join(f"{k.split('__')[-1]} {v:.2f}"
                                         for k, v in sorted(solo["steps"].items(), key=lambda kv: -kv[1])[:6]))
        total_fill = sum(published.values())
        say("")
        say(f"backfill throughput: {total_fill} snapshots published ({', '.join(f'{c} {published[c]}' for c in chain_ids)}) "
            f"in {fill_wall:.1f} s wall = {total_fill / fill_wall:.2f} snapshots/s overall")
        for cid, r in zip(chain_ids, fill):
            say(f"  chain {cid:>5}: {published[cid]} snapshots {hm(ranges[cid][0])}..{hm(ranges[cid][1])}, run {r['run_s']:.1f} s "
                f"(CPU {r['run_cpu_s']:.1f} s), {published[cid] / r['run_s']:.2f} snapshots/s in its run; process {r['total_s']:.1f} s")
        say(cpu_line(fill_wall, fill, fill_cpu))
        say("\n".join(step_table(fill, chain_ids)))
        say(f"  tick_snapshots (tick capture) seconds per chain: {step_seconds(fill, chain_ids)}")
        say("")
        say("\n".join(size_lines))
        say("\n".join(tick_lines))
        if args.profile:
            import pstats

            cid = max(zip(chain_ids, snap), key=lambda cr: cr[1]["run_cpu_s"])[0]
            stats = pstats.Stats(profiles[cid])
            say(f"\ncProfile (CPU time) of chain {cid}'s snapshot run, the costliest; top 25 by own time:")
            stats.sort_stats("tottime").print_stats(25)
            say("the project's functions by cumulative CPU time (top 25):")
            stats.sort_stats("cumulative").print_stats(r"/(assets|readers|core|warehouse|orchestration)/", 25)
            sys.stdout.flush()
        if not args.no_discovery:  # 5. /v1 discovery pages on this warehouse (bench/discovery.py)
            from bench.discovery import discovery_figures

            discovery_figures(work, env, settings, chain_ids, args.pools, services)
    finally:
        for svc in reversed(services):
            svc.stop()
        if args.keep:
            say(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
