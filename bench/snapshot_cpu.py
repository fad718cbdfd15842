"""Benchmark: CPU per 15-minute snapshot, in the run process and in the processes answering it.

    python -m bench.snapshot_cpu [-n 192] [--profile] [--workers N] [--history-days D]

Starts a warehouse and a devnet (chain 56 only) on free ports in a temporary folder, writes the
devnet's chain book, migrates, backfills the last 30 days of chain 56's history once, then times
`n` snapshots of chain 56 (the `n` 15-minute boundaries ending two days before upstream "now")
in one in-process Dagster run of the snapshot job. Prints wall seconds, snapshots/s and CPU
milliseconds per snapshot of this process (time.process_time), of the devnet process and of the
warehouse process (utime + stime from /proc/<pid>/stat, children included), and each asset's
seconds. The devnet keeps its default depth (420 days on chain 56, as `make up` runs it) unless
`--history-days` says otherwise: the governance reads grow with the number of locks.

`--profile` runs the snapshot job under cProfile with the fetch workers at 1 (so the reads run
on the profiled thread) and prints the top of the list by own time and by cumulative time.
"""
from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import shutil
import sys
import tempfile
import time
from pathlib import Path

from ve_analytics.cli.processes import Service, cli, free_port, unwind_on_signals

QUARTER_HOUR = 900
DAY = 86400


def proc_cpu(pid: int) -> float:
    """CPU seconds (user + system, waited-for children included) of a process."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    # after the ")": state is fields[0]; utime, stime, cutime, cstime are stat fields 14-17
    ticks = sum(int(fields[i]) for i in (11, 12, 13, 14))
    return ticks / os.sysconf("SC_CLK_TCK")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=192, help="snapshots to time (default 192: two days)")
    ap.add_argument("--profile", action="store_true", help="cProfile the snapshot run (fetch workers at 1)")
    ap.add_argument("--top", type=int, default=45, help="rows of the profile listing")
    ap.add_argument("--workers", type=int, default=None, help="fetch workers (default: the product's)")
    ap.add_argument("--history-days", type=int, default=None,
                    help="devnet history days (default: the devnet's, as `make up` runs it)")
    ap.add_argument("--keep", action="store_true", help="leave the temporary folder")
    args = ap.parse_args(argv)
    unwind_on_signals()  # an interrupt or kill stops the services started below

    work = Path(tempfile.mkdtemp(prefix="ve-snapcpu-"))
    ports = {"warehouse": free_port(), "devnet": free_port()}
    env = {
        "VEA_DATA_DIR": str(work),
        "WAREHOUSE_PORT": str(ports["warehouse"]),
        "DEVNET_PORT": str(ports["devnet"]),
        "DEVNET_CHAINS": "56",
        "DEVNET_DATA_DIR": str(work),
        "DAGSTER_HOME": str(work / "dagster"),
        "LOG_LEVEL": "WARNING",
    }
    if args.history_days is not None:
        env["DEVNET_HISTORY_DAYS"] = str(args.history_days)
    os.environ.update(env)
    (work / "dagster").mkdir(parents=True, exist_ok=True)

    from ve_analytics.core.config import Settings
    from ve_analytics.core.logs import setup_logging

    setup_logging("WARNING")
    services: list[Service] = []
    try:
        for name, argv_, ready in (
            ("warehouse", cli("warehouse"), f"http://127.0.0.1:{ports['warehouse']}/ping"),
            ("devnet", [sys.executable, "-m", "devnet"], f"http://127.0.0.1:{ports['devnet']}/health"),
        ):
            print(f"starting {name} ...", flush=True)
            services.append(Service(name, argv_, ready, env=env, log_path=work / f"{name}.log").start(600))
        warehouse_pid, devnet_pid = services[0].proc.pid, services[1].proc.pid

        from ve_analytics.assets import upstream
        from ve_analytics.cli.stack import write_devnet_book
        from ve_analytics.core.partition_keys import day_key, snapshot_day_key, snapshot_tags
        from ve_analytics.orchestration.backfill import QUIET_RUN_CONFIG, upstream_now
        from ve_analytics.orchestration.definitions import build_defs
        from ve_analytics.orchestration.instance import dagster_instance
        from ve_analytics.warehouse.migrate import migrate

        settings = Settings.from_env()
        write_devnet_book(f"http://127.0.0.1:{ports['devnet']}", settings.chain_book)
        settings = Settings.from_env()
        migrate(settings)
        now, _ = upstream_now(settings, 56)
        defs = build_defs(settings)

        with dagster_instance(settings) as inst:
            # history: the last 30 UTC days, once
            days = [day_key(now - DAY * k) for k in range(30, 0, -1)]
            print(f"history {days[0]} .. {days[-1]} ...", flush=True)
            t0 = time.monotonic()
            defs.resolve_job_def("history_job_56").execute_in_process(
                instance=inst, run_config=QUIET_RUN_CONFIG,
                tags={"dagster/asset_partition_range_start": days[0], "dagster/asset_partition_range_end": days[-1]})
            print(f"history: {time.monotonic() - t0:.1f} s", flush=True)

            last_t = (now - 2 * DAY) // QUARTER_HOUR * QUARTER_HOUR
            first_t = last_t - (args.n - 1) * QUARTER_HOUR
            tags = {**snapshot_tags(first_t, last_t),
                    "dagster/asset_partition_range_start": snapshot_day_key(first_t),
                    "dagster/asset_partition_range_end": snapshot_day_key(last_t)}
            if args.profile:
                upstream.fetch_each.__kwdefaults__["workers"] = 1
            elif args.workers is not None:
                upstream.fetch_each.__kwdefaults__["workers"] = args.workers
            job = defs.resolve_job_def("snapshot_job_56")
            print(f"{args.n} snapshots ...", flush=True)
            profiler = cProfile.Profile() if args.profile else None
            cpu0, dev0, wh0, wall0 = time.process_time(), proc_cpu(devnet_pid), proc_cpu(warehouse_pid), time.monotonic()
            if profiler:
                profiler.enable()
            result = job.execute_in_process(instance=inst, tags=tags, run_config=QUIET_RUN_CONFIG)
            if profiler:
                profiler.disable()
            wall = time.monotonic() - wall0
            cpu, dev, wh = time.process_time() - cpu0, proc_cpu(devnet_pid) - dev0, proc_cpu(warehouse_pid) - wh0
            if not result.success:
                raise SystemExit("snapshot run failed")
            inst_steps = [(st.step_key, (st.end_time or 0) - (st.start_time or 0))
                          for st in inst.get_run_step_stats(result.run_id)]

        n = args.n
        print(f"\nsnapshots: {n} of chain 56 ({'profiled, workers 1' if args.profile else 'workers ' + str(upstream.fetch_each.__kwdefaults__['workers'])})")
        print(f"wall: {wall:.2f} s  ({n / wall:.2f} snapshots/s)")
        steps = sorted(inst_steps, key=lambda s: s[1], reverse=True)
        print("per asset: " + ", ".join(f"{key.split('__', 1)[-1]} {sec:.1f} s" for key, sec in steps if sec >= 0.05))
        print(f"CPU per snapshot: run process {1000 * cpu / n:.1f} ms, devnet {1000 * dev / n:.1f} ms, "
              f"warehouse {1000 * wh / n:.1f} ms")
        if profiler:
            stats = pstats.Stats(profiler).strip_dirs()
            stats.sort_stats("tottime").print_stats(args.top)
            stats.sort_stats("cumulative").print_stats(args.top)
        return 0
    finally:
        for svc in reversed(services):
            svc.stop()
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
