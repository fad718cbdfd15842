"""A whole local stack as `make up` runs it (`ve-analytics up`: warehouse, devnet, Dagster webserver
and daemon with their runs, the APIs), given distinctive secrets partly as values in its
environment and partly as files. While it runs, the secrets are in force (a wrong password or
token is refused, the right one accepted) and no child process has one in its argv or environment;
once it stopped, no file it wrote (logs, the Dagster instance with its run storage and compute
logs, the warehouse's data and query log) holds one. Only `<data>/secrets/` may."""
from __future__ import annotations

import base64
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from ve_analytics.cli.processes import free_port

SECRETS = {  # distinctive values, never a substring of anything else the stack writes
    "CLICKHOUSE_PASSWORD": "adminPw-7Qx9Zk2Lm4Vb",
    "CLICKHOUSE_ANALYST_PASSWORD": "analystPw-3Hd8Wn6Rt1Yc",
    "CLICKHOUSE_API_PASSWORD": "apiPw-5Jg2Ks9Pq7Xe",
    "CRON_TOKEN": "cronTok-8Fv4Bn1Mz6Ud",
    "CURSOR_SECRETS": "cursorKey-2Wy7Tc5Nh3Ra",
}
AS_FILES = ("CLICKHOUSE_API_PASSWORD", "CRON_TOKEN")  # the others are given as values
START_TIMEOUT = 420
BANNER = "ve-analytics is up"


def descendants(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(ppid, []).append(int(entry))
    found, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def exposed_in_processes(root: int) -> list[str]:
    """'<pid> <argv[0..1]>: <what>' for every child that shows a secret in its argv or environment."""
    leaks = []
    for pid in descendants(root):
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes()
            environ = Path(f"/proc/{pid}/environ").read_bytes()
        except OSError:
            continue  # ended meanwhile
        for name, value in SECRETS.items():
            for where, blob in (("argv", argv), ("environment", environ)):
                if value.encode() in blob:
                    leaks.append(f"{pid} {argv.split(bytes(1))[:2]}: {name} in its {where}")
    return leaks


def files_holding_secrets(folder: Path) -> list[str]:
    leaks = []
    for path in folder.rglob("*"):
        if not path.is_file() or (folder / "secrets") in path.parents:
            continue
        data = path.read_bytes()
        leaks += [f"{path.relative_to(folder)}: {name}" for name, value in SECRETS.items() if value.encode() in data]
    return leaks


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    data = tmp_path_factory.mktemp("secrets-stack")
    mounted = tmp_path_factory.mktemp("mounted-secrets")
    ports = {name: free_port() for name in ("WAREHOUSE_PORT", "DEVNET_PORT", "API_PORT", "VAULT_API_PORT", "DAGSTER_PORT")}
    env = {k: v for k, v in os.environ.items()
           if k.removesuffix("_FILE") not in SECRETS and k not in ("CLICKHOUSE_URL", "CHAIN_BOOK", "DAGSTER_URL")}
    env.update({name: str(port) for name, port in ports.items()})
    env.update({"VEA_DATA_DIR": str(data), "DAGSTER_HOME": str(data / "dagster"), "DEVNET_CHAINS": "56",
                "DEVNET_HISTORY_DAYS": "2", "API_WORKERS": "1", "LOG_LEVEL": "DEBUG",
                "WAREHOUSE_QUERY_LOG": str(data / "logs" / "query_log.jsonl")})
    for name, value in SECRETS.items():
        if name in AS_FILES:
            (mounted / name).write_text(value + "\n")
            env[f"{name}_FILE"] = str(mounted / name)
        else:
            env[name] = value
    out = open(data / "up.out", "w")
    proc = subprocess.Popen([sys.executable, "-m", "ve_analytics.cli.main", "up", "--days", "1"], env=env,
                            stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + START_TIMEOUT
    try:
        while BANNER not in (data / "up.out").read_text():
            assert proc.poll() is None, (data / "up.out").read_text()[-3000:]
            assert time.monotonic() < deadline, (data / "up.out").read_text()[-3000:]
            time.sleep(1)
        yield proc, data, ports
    finally:
        stop(proc)
        out.close()


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(120)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)


def query(port: int, user: str, password: str, sql: str) -> httpx.Response:
    auth = base64.b64encode(f"{user}:{password}".encode()).decode()
    return httpx.post(f"http://127.0.0.1:{port}/", content=sql, headers={"Authorization": f"Basic {auth}"}, timeout=30)


def test_secrets_are_in_force_and_never_exposed(stack):
    proc, data, ports = stack
    assert exposed_in_processes(proc.pid) == []
    api = f"http://127.0.0.1:{ports['API_PORT']}"

    # the warehouse's users take exactly the configured passwords
    wh = ports["WAREHOUSE_PORT"]
    assert query(wh, "default", SECRETS["CLICKHOUSE_PASSWORD"], "SELECT count() FROM ve_analytics.snapshot_runs").status_code == 200
    assert query(wh, "default", "", "SELECT 1").status_code == 403
    assert query(wh, "analyst", SECRETS["CLICKHOUSE_ANALYST_PASSWORD"], "SELECT 1").status_code == 200
    assert query(wh, "analyst", "analyst", "SELECT 1").status_code == 403
    assert query(wh, "api", SECRETS["CLICKHOUSE_API_PASSWORD"], "SELECT 1").status_code == 200
    assert query(wh, "analyst", SECRETS["CLICKHOUSE_ANALYST_PASSWORD"], "SELECT file('/etc/hostname')").status_code == 403

    # the API reads through its reader's password
    assert httpx.get(f"{api}/api/stats/protocol", timeout=60).status_code == 200
    assert httpx.get(f"{api}/v1/chains", timeout=60).status_code == 200

    # the cron trigger takes the token from its file, and launches a run through Dagster
    trigger = f"{api}/api/cron/analytics-snapshot"
    assert httpx.post(trigger, headers={"Authorization": "Bearer wrong-token"}, timeout=60).status_code == 401
    launched = httpx.post(trigger, headers={"Authorization": f"Bearer {SECRETS['CRON_TOKEN']}"}, timeout=120)
    assert launched.status_code in (200, 202), launched.text
    for _ in range(20):  # while the run's processes come and go
        assert exposed_in_processes(proc.pid) == []
        time.sleep(1)
    assert len(descendants(proc.pid)) >= 6  # warehouse, devnet, webserver, daemon, APIs (and theirs)


def test_nothing_the_stack_wrote_holds_a_secret(stack):
    """Runs after the one above; stops the stack first, so every log is complete."""
    proc, data, _ = stack
    stop(proc)
    assert proc.returncode == 0, (data / "up.out").read_text()[-3000:]
    written = [p for p in data.rglob("*") if p.is_file()]
    assert any(p.name == "query_log.jsonl" for p in written) and any("dagster" in p.parts for p in written)
    assert (data / "logs" / "query_log.jsonl").stat().st_size > 0
    assert files_holding_secrets(data) == []
    # the given secrets were passed on as files; none was generated in their place
    assert not (data / "secrets" / "clickhouse-password").exists()
    assert not (data / "secrets" / "clickhouse-api-password").exists()
