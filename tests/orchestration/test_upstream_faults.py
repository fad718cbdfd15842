"""A chain whose upstream is dead fails its snapshot run fast, with one recorded cause that names
the upstream, while another chain publishes the same boundary; a slow upstream within the timeout
still publishes. Real Dagster runs (one per chain at once, each in its own process) against a real warehouse and
the devnet's fault switches (hung, error, slow).

The stack is this module's own: a warehouse server and a devnet of two chains with two days of
history, on free ports; its manual clock starts an hour behind the wall clock and each test moves
it on by one 15-minute boundary (Dagster's partitions follow the wall clock).
"""
from __future__ import annotations

import dataclasses
import pickle
import re
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from support.api_server import ApiServer
from support import instant
from support.chains import with_devnet_book
from support.warehouse import start_warehouse
from ve_analytics.core.config import Settings
from ve_analytics.core.epochs import QUARTER_HOUR
from ve_analytics.core.run_limits import RunLimits

FAULTY, HEALTHY = 8453, 1
SEED = 2029
# A hung chain's run fails in about 2 x 2 x the upstream timeout (2 timeouts per request, RPC then
# subgraph): 2 minutes at the default 30 s, whose figure `make bench` measures (bench.dead_upstream).
# Here the timeout is HUNG_TIMEOUT; the bound leaves a wide margin for a loaded machine.
HUNG_TIMEOUT = 5.0
HUNG_BOUND_SECONDS = 2 * 2 * HUNG_TIMEOUT + 90
ERROR_BOUND_SECONDS = 120
REL = 1e-9


@dataclasses.dataclass
class FaultStack:
    settings: Settings
    devnet: object

    def query(self, sql: str, **params):
        from ve_analytics.warehouse.client import get_client

        with get_client(self.settings) as client:
            return client.query(sql, parameters=params).result_rows

    def fault(self, chain_id: int, mode: str, **extra) -> None:
        for target in ("rpc", "subgraph"):
            body = {"chainId": chain_id, "target": target, "mode": mode, **extra}
            httpx.post(f"{self.devnet.url}/control/faults", json=body, timeout=10).raise_for_status()

    def next_boundary(self) -> int:
        """Move the devnet on by 15 minutes; the newest boundary its heads have passed."""
        r = httpx.post(f"{self.devnet.url}/control/clock", json={"advanceSeconds": QUARTER_HOUR}, timeout=10)
        now = int(r.raise_for_status().json()["now"])
        return now - now % QUARTER_HOUR

    def runs(self, chain_id: int, at: int) -> list[tuple[str, str, str]]:
        return self.query("SELECT status, run_id, error FROM snapshot_runs FINAL WHERE chain_id = {c:UInt32} "
                          "AND snapshot_at = toDateTime64({t:Int64}, 3, 'UTC')", c=chain_id, t=at)

    def assert_published_as_truth(self, chain_id: int, at: int) -> None:
        assert [s for s, _, _ in self.runs(chain_id, at)] == ["success"]
        tvl, pool_count, block = self.query(
            "SELECT tvl_usd, pool_count, block_number FROM protocol_snap15m FINAL WHERE chain_id = {c:UInt32} "
            "AND snapshot_at = toDateTime64({t:Int64}, 3, 'UTC')", c=chain_id, t=at)[0]
        assert block == self.devnet.sim(chain_id).block_at(at)
        truth = httpx.get(f"{self.devnet.url}/chains/{chain_id}/truth/state", params={"block": block},
                          timeout=30).raise_for_status().json()
        assert abs(tvl - truth["tvlUsd"]) <= REL * truth["tvlUsd"] and pool_count == len(truth["pools"]) > 0


@pytest.fixture(scope="module")
def faults(tmp_path_factory) -> FaultStack:
    from devnet.server import DevnetServer
    from ve_analytics.warehouse.migrate import migrate

    data_dir: Path = tmp_path_factory.mktemp("upstream_faults")
    warehouse, base, warehouse_url = start_warehouse(data_dir)
    now = instant.now() - 3600  # the session's clock (support/instant.py)
    if now % QUARTER_HOUR < 5:
        now += 5  # a snapshot time's block is final only once the head has passed it
    devnet = DevnetServer(seed=SEED, history_days=2, chains=(FAULTY, HEALTHY), now=now, manual_clock=True).start()
    try:
        settings = with_devnet_book(dataclasses.replace(
            base, data_dir=data_dir, clickhouse_url=warehouse_url,
            clickhouse_database="vea_upstream_faults_test", dagster_home=data_dir / "dagster",
        ), devnet.url, data_dir)
        migrate(settings)
        yield FaultStack(settings, devnet)
    finally:
        devnet.stop()
        warehouse.stop()


# The faulty chain's run is a process of its own, as the daemon launches runs: two in-process
# Dagster runs in one process deadlock on the logging lock (each reconfigures logging).
RUN_FAULTY = """
import pickle, sys
from ve_analytics.orchestration.backfill import run_snapshot
settings, at, chain_id = pickle.load(sys.stdin.buffer)
run_snapshot(settings, at, chain_id=chain_id)
"""


def run_both(settings: Settings, at: int) -> tuple[dict, str]:
    """The faulty chain's snapshot run of `at` in a process of its own and, meanwhile, the healthy
    chain's in this one: (the faulty run's outcome: seconds, status, step errors, tags; the
    healthy run's id)."""
    from dagster import DagsterEventType, RunsFilter

    from ve_analytics.core.pipeline_names import snapshot_job
    from ve_analytics.orchestration.backfill import run_snapshot
    from ve_analytics.orchestration.instance import dagster_instance

    started = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-c", RUN_FAULTY], stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    proc.stdin.write(pickle.dumps((settings, at, FAULTY)))
    proc.stdin.close()
    try:
        healthy_run = run_snapshot(settings, at, chain_id=HEALTHY)
        proc.wait(HUNG_BOUND_SECONDS * 2)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    faulty: dict = {"seconds": time.monotonic() - started}
    with dagster_instance(settings) as instance:  # the faulty chain's newest run: this one
        run = instance.get_run_records(RunsFilter(job_name=snapshot_job(FAULTY)), limit=1)[0].dagster_run
        faulty["status"], faulty["tags"] = run.status.value, run.tags
        # what the Dagster UI shows for each failed step: the asset's error under Dagster's wrapper
        errors = [e.dagster_event.step_failure_data.error for e in
                  instance.all_logs(run.run_id, of_type=DagsterEventType.STEP_FAILURE)]
        faulty["step_errors"] = [(e.cause or e).message.strip() for e in errors]
    return faulty, healthy_run


def failure_line(faults: FaultStack, at: int) -> str:
    """The one cause recorded for the faulty chain's snapshot at `at` (one failed row per run)."""
    rows = faults.runs(FAULTY, at)
    assert rows and {s for s, _, _ in rows} == {"failed"}
    lines = {error for _, _, error in rows}
    assert len(lines) == 1, lines
    return lines.pop()


def run_faulted(faults, settings: Settings, at: int, mode: str, **extra) -> dict:
    """`run_both` with the faulty chain's upstream in `mode` (cleared after): the faulty run's outcome."""
    faults.fault(FAULTY, mode, **extra)
    try:
        return run_both(settings, at)[0]
    finally:
        faults.fault(FAULTY, "ok")


def test_a_hung_chain_fails_fast_with_its_cause_while_another_chain_publishes(faults):
    at = faults.next_boundary()
    settings = dataclasses.replace(faults.settings, run_limits=RunLimits(upstream_timeout_seconds=HUNG_TIMEOUT))
    outcome = run_faulted(faults, settings, at, "hung")
    assert outcome["status"] == "FAILURE" and outcome["seconds"] < HUNG_BOUND_SECONDS, outcome
    faults.assert_published_as_truth(HEALTHY, at)
    rpc = faults.settings.chain(FAULTY).rpc_url
    line = failure_line(faults, at)
    assert re.fullmatch(rf"chain {FAULTY} rpc {re.escape(rpc)} timed out after 2 attempts of {HUNG_TIMEOUT:g} s at "
                        r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ; circuit open, not read again in this run", line), line
    # every failed step says the same in the Dagster UI, and so does the run's tag in its run list
    assert outcome["step_errors"] and set(outcome["step_errors"]) == {f"ve_analytics.readers.jsonrpc.RpcDown: {line}"}
    assert outcome["tags"]["ve/upstream_down"] == line
    # the chain's health names the upstream and its cause
    with ApiServer(faults.settings, families=("v1",)) as api:
        chains = httpx.get(f"{api.url}/v1/health/chains", timeout=30).raise_for_status().json()["data"]
    entry = next(c for c in chains if c["chainId"] == FAULTY)
    assert entry["lastRun"]["status"] == "failed" and entry["lastRun"]["error"] == line
    assert entry["healthy"] is False


def test_an_erroring_chain_fails_fast_with_one_cause_while_another_chain_publishes(faults):
    at = faults.next_boundary()
    outcome = run_faulted(faults, faults.settings, at, "error", status=500)
    assert outcome["status"] == "FAILURE" and outcome["seconds"] < ERROR_BOUND_SECONDS, outcome
    faults.assert_published_as_truth(HEALTHY, at)
    rpc = faults.settings.chain(FAULTY).rpc_url
    line = failure_line(faults, at)
    assert line.startswith(f"chain {FAULTY} rpc {rpc} failed after 5 attempts: HTTPError('500 Server Error"), line
    assert line.endswith("; circuit open, not read again in this run")
    assert set(outcome["step_errors"]) == {f"ve_analytics.readers.jsonrpc.RpcDown: {line}"}


def test_a_slow_chain_within_the_timeout_publishes(faults):
    at = faults.next_boundary()
    # requests take 0.2 s against a 1.5 s timeout: slow, not dead
    settings = dataclasses.replace(faults.settings, run_limits=RunLimits(upstream_timeout_seconds=1.5))
    outcome = run_faulted(faults, settings, at, "slow", delayMs=200)
    assert outcome["status"] == "SUCCESS" and not outcome["step_errors"], outcome
    faults.assert_published_as_truth(FAULTY, at)
    faults.assert_published_as_truth(HEALTHY, at)
