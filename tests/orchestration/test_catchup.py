"""Catch-up on real parts: a warehouse server, a devnet of chain 8453 on the session's clock
(twelve hours of history before it; support/instant.py), and a Dagster webserver and daemon
whose schedules are stopped, so only the chain's catch-up sensor launches runs. The test writes
the chain's history while its subgraph lags three hours (its newest hours are missing), publishes
some of its boundaries and skips the others; /v1/health/chains and /v1/chains must name exactly
the missing boundaries and hours (set arithmetic over the windows) and say `filling: ["snapshots",
"history"]`. With the chain's upstream erroring, the sensor's ticks launch nothing and say why;
once the fault is cleared, the daemon fills every hole, the coverage lists none, and the filled
snapshots and hours equal the devnet's truth.
"""
from __future__ import annotations

import dataclasses
import time
from pathlib import Path

import httpx
import pytest

from support import instant
from support.api_server import ApiServer
from support.chains import with_devnet_book
from support.warehouse import start_warehouse
from support.contract_check import CheckedClient
from ve_analytics.cli.processes import free_port
from ve_analytics.cli.dagster_services import DagsterServices
from ve_analytics.core.config import Settings
from ve_analytics.core.epochs import DAY, HOUR, QUARTER_HOUR, iso
from ve_analytics.core.partition_keys import day_key
from ve_analytics.core.pipeline_names import catchup_sensor, snapshot_job

CHAIN = 8453
SEED = 2031
HISTORY_DAYS = 0.5  # twelve hours: a window of a few dozen boundaries after the first activity
FILL_TIMEOUT = 900
CATCHUP_INTERVAL = 10  # seconds between the sensor's ticks (the default's 60 would make the rounds wait)
REL = 1e-9


@dataclasses.dataclass
class CatchupStack:
    settings: Settings
    devnet: object
    dagster: DagsterServices

    def query(self, sql: str, **params):
        from ve_analytics.warehouse.client import get_client

        with get_client(self.settings) as c:
            return c.query(sql, parameters=params).result_rows

    def published(self) -> set[int]:
        return {r[0] for r in self.query(
            "SELECT DISTINCT toInt64(toUnixTimestamp(snapshot_at)) FROM snapshot_runs FINAL "
            "WHERE chain_id = {c:UInt32} AND status = 'success'", c=CHAIN)}

    def hours(self) -> set[int]:
        return {r[0] for r in self.query(
            "SELECT DISTINCT toInt64(toUnixTimestamp(hour_start)) FROM protocol_hourly FINAL WHERE chain_id = {c:UInt32}",
            c=CHAIN)}

    def fault(self, mode: str, target: str = "all", **extra) -> None:
        r = httpx.post(f"{self.devnet.url}/control/faults",
                       json={"chainId": CHAIN, "target": target, "mode": mode, **extra}, timeout=10)
        r.raise_for_status()
        faults = {(f["chainId"], f["target"]): f["mode"] for f in r.json()["faults"]}
        targets = ("rpc", "subgraph") if target == "all" else (target,)
        assert faults == ({} if mode == "ok" else {(CHAIN, t): mode for t in targets}), faults

    def catchup_runs(self) -> list:
        from dagster import RunsFilter

        from ve_analytics.orchestration.instance import dagster_instance

        with dagster_instance(self.settings) as instance:
            return list(instance.get_runs(filters=RunsFilter(tags={"trigger": "catchup_sensor"})))

    def run_records(self, runs: list) -> list:
        from ve_analytics.orchestration.instance import dagster_instance

        with dagster_instance(self.settings) as instance:
            return [instance.get_run_record_by_id(r.run_id) for r in runs]

    def ticks(self) -> list:
        from dagster._core.scheduler.instigation import InstigatorType

        from ve_analytics.orchestration.instance import dagster_instance

        with dagster_instance(self.settings) as instance:
            (state,) = [s for s in instance.all_instigator_state(instigator_type=InstigatorType.SENSOR)
                        if s.instigator_name == catchup_sensor(CHAIN)]
            return list(instance.get_ticks(state.instigator_origin_id, state.selector_id, limit=20))


@pytest.fixture(scope="module")
def cs(tmp_path_factory) -> CatchupStack:
    from devnet.server import DevnetServer
    from ve_analytics.warehouse.migrate import migrate

    data_dir: Path = tmp_path_factory.mktemp("catchup")
    warehouse, base, warehouse_url = start_warehouse(data_dir)
    devnet = DevnetServer(seed=SEED, history_days=HISTORY_DAYS, chains=(CHAIN,), manual_clock=False).start()
    settings = with_devnet_book(dataclasses.replace(
        base, data_dir=data_dir, clickhouse_url=warehouse_url, clickhouse_database="vea_catchup_test",
        dagster_home=data_dir / "dagster", catchup_interval_seconds=CATCHUP_INTERVAL), devnet.url, data_dir)
    dagster = DagsterServices(settings, data_dir / "logs", port=free_port(), schedules=False, catchup=False)
    try:
        migrate(settings)
        yield CatchupStack(dagster.start().settings, devnet, dagster)
    finally:
        dagster.stop()
        devnet.stop()
        warehouse.stop()


def runs_of(times: list[int], step: int = QUARTER_HOUR) -> list[tuple[int, int, int]]:
    """Consecutive runs of `times` (one `step` apart), newest first."""
    runs: list[list[int]] = []
    for t in sorted(times):
        if runs and runs[-1][-1] == t - step:
            runs[-1].append(t)
        else:
            runs.append([t])
    return [(r[0], r[-1], len(r)) for r in reversed(runs)]


def served_holes(entry: dict, field: str = "missingSnapshots") -> list[tuple[int, int, int]]:
    missing = entry["coverage"][field]
    return [(unix(r["from"]), unix(r["to"]), r["count"]) for r in missing["ranges"]]


def unix(value: str) -> int:
    from datetime import datetime

    return int(datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp())


def wait_for(what: str, check, timeout: float, poll: float = 2.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(poll)  # polling an outcome, not ordering events
    pytest.fail(f"{what}: not within {timeout:.0f} s")


def test_holes_are_named_nothing_runs_while_the_upstream_errors_and_the_sensor_fills_them_after(cs):
    from ve_analytics.orchestration.backfill import run_history, run_snapshot
    from ve_analytics.readers.dagster_webserver import Webserver

    s = cs.settings
    sim = cs.devnet.sim(CHAIN)
    first_activity = min(p.created_ts for p in sim.pools)
    start = -(-first_activity // QUARTER_HOUR) * QUARTER_HOUR
    # the history the snapshots' rolling windows read, every day from the first activity, while the
    # subgraph lags three hours: its newest hours are left out (a history hole)
    cs.fault("lag", "subgraph", lagBlocks=3 * HOUR // cs.devnet.sim(CHAIN).block_time)
    for key in sorted({day_key(t) for t in range(first_activity - first_activity % DAY, instant.now() + 1, DAY)}):
        run_history(s, key, chain_id=CHAIN)
    cs.fault("ok")
    newest = (instant.now() - 2 * QUARTER_HOUR) // QUARTER_HOUR * QUARTER_HOUR  # the devnet's and the product's clock
    assert (newest - start) // QUARTER_HOUR >= 8, "the devnet's history is too short for holes"
    # publish the first two boundaries, two in the middle and one near the end; skip the others
    middle = start + (newest - start) // QUARTER_HOUR // 2 * QUARTER_HOUR
    published = [start, start + QUARTER_HOUR, middle, middle + QUARTER_HOUR, newest - QUARTER_HOUR]
    for t in published:
        run_snapshot(s, t, chain_id=CHAIN)
    assert cs.published() == set(published)

    with httpx.Client(timeout=60) as http, ApiServer(dataclasses.replace(s, api_workers=1), families=("v1",),
                                                     log_path=s.data_dir / "api.log") as server:
        api = CheckedClient(server.url, http)

        def health() -> tuple[dict, dict, int, int]:
            before = instant.now()
            (entry,), _ = api.data("/v1/health/chains")
            chains, _ = api.data("/v1/chains")
            return entry, chains[0], before, instant.now()

        # 1. the coverage names exactly the skipped boundaries of the window
        entry, chain, before, after = health()
        missing = entry["coverage"]["missingSnapshots"]
        window_end = unix(missing["window"]["to"])
        assert window_end in {(now - 2 * QUARTER_HOUR) // QUARTER_HOUR * QUARTER_HOUR for now in (before, after)}
        assert unix(missing["window"]["from"]) == start  # a young chain: its first activity's boundary
        skipped = sorted(set(range(start, window_end + 1, QUARTER_HOUR)) - set(published))
        assert served_holes(entry) == runs_of(skipped) and missing["count"] == len(skipped) > 0
        assert missing["rangeCount"] == len(runs_of(skipped)) and missing["truncated"] is False
        history = entry["coverage"]["missingHistory"]
        hours = range(unix(history["window"]["from"]), unix(history["window"]["to"]) + 1, HOUR)
        assert unix(history["window"]["from"]) == first_activity // HOUR * HOUR + HOUR
        assert unix(history["window"]["to"]) in {(now - HOUR) // HOUR * HOUR - HOUR for now in (before, after)}
        lost = sorted(set(hours) - cs.hours())
        assert len(lost) >= 2 and served_holes(entry, "missingHistory") == runs_of(lost, HOUR)
        assert entry["filling"] == ["snapshots", "history"] and chain["filling"] == ["snapshots", "history"]
        assert chain["coverage"]["missingSnapshots"] == missing and chain["coverage"]["missingHistory"] == history
        # the published range alone would look seamless: first and last published
        assert entry["coverage"]["snapshots"] == {"from": iso(start), "to": iso(newest - QUARTER_HOUR)}

        # 2. the upstream errors: the sensor's ticks launch nothing and say why
        cs.fault("error")
        started = time.time()
        with Webserver(s.dagster_url) as web:
            web.start_sensor(snapshot_job(CHAIN), catchup_sensor(CHAIN))
        skipped_ticks = wait_for("a skipped catch-up tick", lambda: [
            t for t in cs.ticks() if t.timestamp >= started and t.skip_reason and "does not answer" in t.skip_reason],
            timeout=180)
        assert all(not t.run_ids for t in cs.ticks()) and cs.catchup_runs() == []
        assert f"chain {CHAIN}" in skipped_ticks[0].skip_reason
        assert cs.published() == set(published) and cs.hours() & set(lost) == set()

        # 3. the upstream answers again: the daemon fills every hole (history first), newest first, each once
        cs.fault("ok")

        def filled():
            runs = cs.catchup_runs()
            if not runs or any(not r.is_finished for r in runs):
                return None
            entry, chain, _, _ = health()
            done = entry["coverage"]["missingSnapshots"]["count"] == 0 == entry["coverage"]["missingHistory"]["count"]
            return (entry, chain, runs) if done else None

        entry, chain, runs = wait_for("the holes filled by the catch-up sensor", filled, timeout=FILL_TIMEOUT, poll=5)
        assert all(r.status.value == "SUCCESS" for r in runs), [(r.run_id, r.status) for r in runs]
        assert entry["coverage"]["missingSnapshots"]["ranges"] == [] == entry["coverage"]["missingHistory"]["ranges"]
        assert entry["filling"] == [] == chain["filling"]
        assert chain["coverage"]["missingSnapshots"]["count"] == 0 == chain["coverage"]["missingHistory"]["count"]
        snapshot_runs = [r for r in runs if r.job_name == snapshot_job(CHAIN)]
        history_runs = [r for r in runs if r.job_name != snapshot_job(CHAIN)]
        ranges = [(r.tags["ve/snapshots_from"], r.tags["ve/snapshots_until"]) for r in snapshot_runs]
        assert len(ranges) == len(set(ranges))  # no fill launched twice
        assert day_key(lost[0]) in {r.tags["dagster/partition"] for r in history_runs}
        # history first: every history fill was created before the first snapshot fill
        assert max(r.create_timestamp for r in cs.run_records(history_runs)) < min(
            r.create_timestamp for r in cs.run_records(snapshot_runs))
        rounds = {r.run_id: int(r.tags["dagster/run_key"].rsplit("#", 1)[1]) for r in snapshot_runs}
        first_round = [r for r in snapshot_runs if rounds[r.run_id] == min(rounds.values())]
        assert max(unix(r.tags["ve/snapshots_until"]) for r in first_round) >= max(skipped)  # newest first

    # 4. the filled hours and snapshots equal the devnet's truth
    for h in lost:
        (volume,), = cs.query("SELECT volume_usd FROM protocol_hourly FINAL WHERE chain_id = {c:UInt32} "
                              "AND hour_start = toDateTime64({h:Int64}, 3, 'UTC')", c=CHAIN, h=h)
        truth = httpx.get(f"{cs.devnet.url}/chains/{CHAIN}/truth/flows", params={"from": h, "to": h + HOUR},
                          timeout=30).json()
        assert abs(volume - truth["volumeUsd"]) <= REL * max(abs(volume), abs(truth["volumeUsd"]), 1e-12), (h, volume, truth)
    assert set(skipped) <= cs.published()
    for t in skipped:
        (tvl, block), = cs.query(
            "SELECT tvl_usd, block_number FROM protocol_snap15m FINAL WHERE chain_id = {c:UInt32} "
            "AND snapshot_at = toDateTime64({t:Int64}, 3, 'UTC')", c=CHAIN, t=t)
        assert block == sim.block_at(t)
        truth = httpx.get(f"{cs.devnet.url}/chains/{CHAIN}/truth/state", params={"block": block}, timeout=30).json()
        assert abs(tvl - truth["tvlUsd"]) <= REL * max(abs(tvl), abs(truth["tvlUsd"])), (t, tvl, truth["tvlUsd"])
