"""The internal snapshot trigger /api/cron/analytics-snapshot.

Authentication and partition validation are checked directly and over HTTP; the launch runs
against a real stack: the session warehouse, a small in-process devnet, a Dagster webserver and
daemon on a temporary instance, and an API whose settings name a CRON_TOKEN and that webserver.
The run id the API answers must show up in that instance and finish successfully, publishing the
snapshot.
"""
from __future__ import annotations

import dataclasses
import subprocess
import sys
import time

import httpx
import pytest

from ve_analytics.api import cron
from ve_analytics.readers.dagster_webserver import WebserverError
from ve_analytics.api.errors import ApiError
from support import instant
from support.api_server import ApiServer
from support.chains import with_devnet_book
from ve_analytics.cli.processes import free_port
from ve_analytics.core.epochs import DAY, HOUR, QUARTER_HOUR, iso

TOKEN = "cron-test-token-0123456789"
PATH = cron.CRON_PATH
RUN_TIMEOUT = 180


# ------------------------------------------------------------------------------ units


def test_authorized_uses_constant_time_comparison(monkeypatch):
    calls = []
    real = cron.hmac.compare_digest

    def spy(a, b):
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(cron.hmac, "compare_digest", spy)
    assert cron.authorized(f"Bearer {TOKEN}", TOKEN)
    assert cron.authorized(f"bearer  {TOKEN} ", TOKEN)
    assert not cron.authorized(f"Bearer {TOKEN}x", TOKEN)
    assert not cron.authorized("Bearer ", TOKEN)
    assert len(calls) == 4 and all(isinstance(a, bytes) and isinstance(b, bytes) for a, b in calls)
    calls.clear()
    assert not cron.authorized(None, TOKEN)
    assert not cron.authorized(f"Basic {TOKEN}", TOKEN)
    assert not cron.authorized(f"Bearer {TOKEN}", "")  # an empty configured token disables the trigger
    assert not cron.authorized("Bearer ", "")


def test_partition_key_validation(fresh_settings):
    now = 1_763_800_000  # 2025-11-22 08:26:40 UTC
    assert cron.partition_key("", fresh_settings, now) == "2025-11-22-08:00"  # snapshot at 08:15
    assert cron.partition_key("partition=2025-11-22-08:00", fresh_settings, now) == "2025-11-22-08:00"
    assert cron.partition_key("partition=2025-11-21-23%3A45", fresh_settings, now) == "2025-11-21-23:45"
    bad = ["2025-11-22-08:15", "2025-11-22-08:10", "2025-11-22T08:00", "2025-13-01-00:00", "2025-02-30-00:00", "",
           "2024-01-01-00:00"]  # not ended, not a quarter, wrong shape, not a date, outside the window
    for value in bad:
        with pytest.raises(ApiError) as info:
            cron.partition_key(f"partition={value}", fresh_settings, now)
        assert info.value.status == 400 and info.value.code == cron.INVALID_PARTITION, value
    with pytest.raises(ApiError) as info:
        cron.partition_key("partition=2025-11-22-08:00&partition=2025-11-22-07:45", fresh_settings, now)
    assert info.value.code == cron.INVALID_PARTITION
    with pytest.raises(ApiError) as info:
        cron.partition_key("key=1", fresh_settings, now)
    assert info.value.code == "unknown_parameter"


def test_launch_without_a_webserver_fails_loudly(fresh_settings):
    nobody = dataclasses.replace(fresh_settings, dagster_port=free_port(), dagster_webserver_url="")
    with pytest.raises(WebserverError, match="did not answer"):
        cron.launch(nobody, "2025-11-22-08:00", now=1_763_800_000)


def test_the_api_imports_neither_dagster_nor_the_orchestration():
    code = ("import sys, ve_analytics.api.app, ve_analytics.api.cron; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'dagster' "
            "or m.startswith(('ve_analytics.orchestration', 've_analytics.assets'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "[]", out.stdout + out.stderr


# ------------------------------------------------------------------------------ HTTP


def _assert_error(r: httpx.Response, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"ok", "error", "meta"} and body["ok"] is False and body["error"]["code"] == code
    assert r.headers["access-control-allow-origin"] == "*" and r.headers["cache-control"] == "no-store"
    assert "etag" not in r.headers


def test_disabled_without_a_configured_token(fresh):
    """The shared API runs with an empty CRON_TOKEN: nothing is accepted, not even an empty Bearer."""
    for headers in ({}, {"Authorization": "Bearer"}, {"Authorization": f"Bearer {TOKEN}"}):
        r = fresh.client.post(fresh.url + PATH, headers=headers)
        _assert_error(r, 401, "unauthorized")
        assert r.headers["www-authenticate"].startswith("Bearer")


@dataclasses.dataclass
class CronStack:
    url: str
    settings: object
    snapshot_at: int  # a snapshot time the devnet has passed
    dagster: object  # DagsterServices

    @property
    def key(self) -> str:
        """The 15-minute window ending at the snapshot, by its start."""
        return time.strftime("%Y-%m-%d-%H:%M", time.gmtime(self.snapshot_at - QUARTER_HOUR))

    def daemon_log(self) -> str:
        path = self.settings.data_dir / "logs" / "dagster-daemon.log"
        return path.read_text(errors="replace")[-3000:] if path.exists() else ""


@pytest.fixture(scope="module")
def cron_stack(fresh_settings, tmp_path_factory):
    from devnet.server import DevnetServer
    from ve_analytics.cli.dagster_services import DagsterServices
    from ve_analytics.core.partition_keys import day_key
    from ve_analytics.orchestration.backfill import run_history
    from ve_analytics.warehouse.migrate import migrate

    data_dir = tmp_path_factory.mktemp("cron")
    # 20 minutes behind the session's clock (never ahead of the wall clock): the partition of its
    # newest snapshot has ended for Dagster, whose partitions follow the wall clock
    now = instant.now() - 20 * 60
    if now % QUARTER_HOUR < 5:
        now += 5  # a snapshot time's block is final only once the head has passed it
    genesis = now - now % DAY - DAY
    devnet = DevnetServer(seed=7, history_days=1, genesis_ts=genesis, now=now, manual_clock=True).start()
    settings = with_devnet_book(dataclasses.replace(
        fresh_settings,  # the session warehouse, its users; a database of its own
        clickhouse_database="api_cron",
        data_dir=data_dir,
        dagster_home=data_dir / "dagster",
        cron_token=TOKEN,
    ), devnet.url, data_dir)
    # The Dagster deployment: its code location gets the settings through the environment, the
    # warehouse password from its own environment (here: given by the suite, as an operator would);
    # the schedules stay off (the devnet runs behind the wall clock).
    dagster = DagsterServices(settings, data_dir / "logs", port=free_port(), schedules=False,
                              env={"CLICKHOUSE_PASSWORD": settings.clickhouse_password})
    server = None
    try:
        migrate(settings)
        settings = dagster.start().settings
        # hourly history only (snapshots depend on it), in this process; no snapshot: the trigger
        # publishes the first
        with pytest.MonkeyPatch.context() as env:  # resources read the password from the environment
            env.setenv("CLICKHOUSE_PASSWORD", settings.clickhouse_password)
            for day in range(genesis, now - now % HOUR, DAY):
                run_history(settings, day_key(day))
        server = ApiServer(settings, log_path=data_dir / "api.log").start()
        yield CronStack(server.url, settings, now - now % QUARTER_HOUR, dagster)
    finally:
        if server is not None:
            server.stop()
        dagster.stop()
        devnet.stop()


def test_wrong_or_missing_token_is_refused(cron_stack, http):
    for method in ("GET", "POST"):
        for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": f"Bearer {TOKEN}-"},
                        {"Authorization": TOKEN}, {"Authorization": f"Basic {TOKEN}"}):
            r = http.request(method, cron_stack.url + PATH, headers=headers)
            _assert_error(r, 401, "unauthorized")
            assert r.headers["www-authenticate"].startswith("Bearer")


def test_invalid_partition_is_refused(cron_stack, http):
    auth = {"Authorization": f"Bearer {TOKEN}"}
    r = http.post(cron_stack.url + PATH, params={"partition": "2020-01-01-00:07"}, headers=auth)
    _assert_error(r, 400, cron.INVALID_PARTITION)
    r = http.post(cron_stack.url + PATH, params={"partition": "2999-01-01-00:00"}, headers=auth)
    _assert_error(r, 400, cron.INVALID_PARTITION)


def test_launches_a_dagster_run_that_publishes_the_snapshot(cron_stack, http):
    from dagster import DagsterRunStatus

    from ve_analytics.orchestration.instance import dagster_instance
    from ve_analytics.warehouse.client import get_client

    started = time.monotonic()
    r = http.post(cron_stack.url + PATH, params={"partition": cron_stack.key}, headers={"Authorization": f"Bearer {TOKEN}"})
    assert r.status_code == 202, r.text
    assert time.monotonic() - started < 60  # answered at launch, not at the end of the run
    body = r.json()
    assert body["ok"] is True and set(body["data"]) == {"runId", "partitionKey", "status", "chains"}
    assert body["data"]["chains"] == [{"chainId": 56, "runId": body["data"]["runId"], "status": "started"}]
    assert body["data"]["partitionKey"] == cron_stack.key and body["data"]["status"] == "started"
    assert body["meta"]["cacheTtlSeconds"] == 0 and "snapshotAt" not in body["meta"]
    assert r.headers["cache-control"] == "no-store" and "etag" not in r.headers
    assert r.headers["access-control-allow-origin"] == "*"
    run_id = body["data"]["runId"]

    # the same partition again while it runs: the running run is reported, no second run
    again = http.get(cron_stack.url + PATH, params={"partition": cron_stack.key}, headers={"Authorization": f"Bearer {TOKEN}"})
    assert again.status_code in (200, 202), again.text
    run_ids = [run_id]
    if again.status_code == 200:
        assert again.json()["data"] == {"runId": run_id, "partitionKey": cron_stack.key, "status": "already_running",
                                        "chains": [{"chainId": 56, "runId": run_id, "status": "already_running"}]}
    else:  # the first run finished before the second launcher looked: a second run, waited for as well
        run_ids.append(again.json()["data"]["runId"])

    with dagster_instance(cron_stack.settings) as instance:
        for rid in run_ids:
            deadline = time.monotonic() + RUN_TIMEOUT
            status = run = None
            while time.monotonic() < deadline:
                run = instance.get_run_by_id(rid)
                status = run.status if run else None
                if status in (DagsterRunStatus.SUCCESS, DagsterRunStatus.FAILURE, DagsterRunStatus.CANCELED):
                    break
                time.sleep(1)
            assert status == DagsterRunStatus.SUCCESS, (status, cron_stack.daemon_log())
            assert run.tags["dagster/partition"] == time.strftime("%Y-%m-%d", time.gmtime(cron_stack.snapshot_at - 1))
            assert run.tags["ve/snapshots_from"] == run.tags["ve/snapshots_until"] == iso(cron_stack.snapshot_at)
    with get_client(cron_stack.settings) as client:
        rows = client.query(
            "SELECT run_id, status FROM snapshot_runs FINAL WHERE chain_id = 56 AND snapshot_at = fromUnixTimestamp({t:Int64})",
            parameters={"t": cron_stack.snapshot_at},
        ).result_rows
    # published once: a second run finds it published and leaves it alone
    assert rows == [(run_ids[0], "success")]


def test_webserver_down_is_a_launch_failure(cron_stack, http):
    """Last in the module: stops the stack's webserver."""
    webserver = next(svc for svc in cron_stack.dagster.services if svc.name == "dagster-webserver")
    webserver.stop()
    r = http.post(cron_stack.url + PATH, headers={"Authorization": f"Bearer {TOKEN}"})
    _assert_error(r, 500, cron.LAUNCH_FAILED)
    message = r.json()["error"]["message"]
    assert message.startswith("the snapshot run could not be launched: the Dagster webserver at") and "did not answer" in message
