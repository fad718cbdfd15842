"""Benchmark: how long one chain's snapshot run takes to fail when its upstream is dead.

    python -m bench.dead_upstream [--chain 8453] [--mode hung] [--cap 600] [--history-days 3]

Starts a warehouse and a devnet (that one chain) as processes on free ports in a temporary
folder, writes the devnet's chain book, migrates, switches the chain's rpc and subgraph to the
devnet fault `--mode` (hung: requests accepted and never answered; error: HTTP 500; slow: 2 s
each), then runs the chain's snapshot job for the newest 15-minute boundary in this process with
the product's defaults (timeouts, retries). Prints the run's wall time and status, when each
asset step ended (seconds from the run's start) and how, and the error recorded in snapshot_runs.
A run still going at `--cap` seconds is reported as such (with the steps failed by then) and left
behind: the process exits.
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

from ve_analytics.cli.processes import Service, cli, free_port, unwind_on_signals

QUARTER_HOUR = 900


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--chain", type=int, default=8453)
    ap.add_argument("--mode", choices=("hung", "error", "slow"), default="hung")
    ap.add_argument("--cap", type=float, default=600.0, help="seconds to wait for the run at most")
    ap.add_argument("--history-days", type=float, default=3.0, help="devnet history days")
    args = ap.parse_args(argv)
    unwind_on_signals()  # an interrupt or kill stops the services started below

    work = Path(tempfile.mkdtemp(prefix="ve-deadup-"))
    ports = {"warehouse": free_port(), "devnet": free_port()}
    devnet_url = f"http://127.0.0.1:{ports['devnet']}"
    env = {
        "VEA_DATA_DIR": str(work), "WAREHOUSE_PORT": str(ports["warehouse"]), "DEVNET_PORT": str(ports["devnet"]),
        "DEVNET_CHAINS": str(args.chain), "DEVNET_DATA_DIR": str(work), "DEVNET_HISTORY_DAYS": str(args.history_days),
        "DAGSTER_HOME": str(work / "dagster"), "LOG_LEVEL": "WARNING",
    }
    os.environ.update(env)
    (work / "dagster").mkdir(parents=True, exist_ok=True)

    from ve_analytics.core.logs import setup_logging

    setup_logging("WARNING")
    services: list[Service] = []
    outcome: dict = {}
    try:
        for name, argv_, ready in (
            ("warehouse", cli("warehouse"), f"http://127.0.0.1:{ports['warehouse']}/ping"),
            ("devnet", [sys.executable, "-m", "devnet"], f"{devnet_url}/health"),
        ):
            print(f"starting {name} ...", flush=True)
            services.append(Service(name, argv_, ready, env=env, log_path=work / f"{name}.log").start(600))

        from ve_analytics.cli.stack import write_devnet_book
        from ve_analytics.core.config import Settings
        from ve_analytics.core.partition_keys import snapshot_day_key, snapshot_tags
        from ve_analytics.core.pipeline_names import snapshot_job
        from ve_analytics.orchestration.backfill import QUIET_RUN_CONFIG, upstream_now
        from ve_analytics.orchestration.definitions import build_defs
        from ve_analytics.orchestration.instance import dagster_instance
        from ve_analytics.warehouse.client import get_client
        from ve_analytics.warehouse.migrate import migrate

        settings = Settings.from_env()
        write_devnet_book(devnet_url, settings.chain_book)
        settings = Settings.from_env()
        migrate(settings)
        now, _ = upstream_now(settings, args.chain)
        at = now // QUARTER_HOUR * QUARTER_HOUR
        job = build_defs(settings).resolve_job_def(snapshot_job(args.chain))
        for target in ("rpc", "subgraph"):
            httpx.post(f"{devnet_url}/control/faults", json={"chainId": args.chain, "target": target,
                                                            "mode": args.mode}, timeout=10).raise_for_status()
        print(f"chain {args.chain}: rpc and subgraph {args.mode}; snapshot run for {at} ...", flush=True)

        with dagster_instance(settings) as instance:
            def run() -> None:
                result = job.execute_in_process(instance=instance, partition_key=snapshot_day_key(at),
                                                tags=snapshot_tags(at, at), run_config=QUIET_RUN_CONFIG,
                                                raise_on_error=False)
                outcome.update(run_id=result.run_id, success=result.success)

            started = time.time()
            thread = threading.Thread(target=run, daemon=True)
            thread.start()
            thread.join(args.cap)
            wall = time.time() - started
            runs = instance.get_run_records(limit=1)
            run_id = outcome.get("run_id") or (runs[0].dagster_run.run_id if runs else None)
            steps = sorted(instance.get_run_step_stats(run_id), key=lambda s: s.end_time or 1e18) if run_id else []
        if thread.is_alive():
            print(f"run still going after the cap ({args.cap:.0f} s)")
        else:
            print(f"run {'succeeded' if outcome['success'] else 'failed'} after {wall:.1f} s")
        for st in steps:
            if st.end_time is not None:
                print(f"  {st.end_time - started:7.1f} s  {st.step_key.split('__', 1)[-1]}: {st.status.value}")
        failed = [st for st in steps if st.status is not None and st.status.value == "FAILURE"]
        print(f"asset steps failed: {len(failed)} of {len(job.graph.nodes)} steps "
              f"(first failed after {min((st.end_time - started for st in failed), default=float('nan')):.1f} s)")
        with get_client(settings) as client:
            rows = client.query("SELECT DISTINCT error FROM snapshot_runs FINAL WHERE chain_id = {c:UInt32} "
                                "AND status = 'failed'", parameters={"c": args.chain}).result_rows
        for (error,) in rows:
            print(f"recorded: {error}")
        return 0
    finally:
        for svc in reversed(services):
            svc.stop()
        shutil.rmtree(work, ignore_errors=True)
        if outcome.get("run_id") is None:
            os._exit(0)  # the run's thread is still waiting on the dead upstream


if __name__ == "__main__":
    sys.exit(main())
