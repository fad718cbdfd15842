"""DEVNET_WORKERS: several processes answer one port from one built history (forked copies)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

NOW = 1_750_000_000 - 1_750_000_000 % 3600


def children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    out.append(int(entry.name))
            except (OSError, ValueError, IndexError):
                pass
    return out


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_health(url: str, proc: subprocess.Popen, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, "the devnet exited"
        try:
            if httpx.get(url, timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise TimeoutError(url)


def test_two_workers_share_the_port_and_answer_the_same(tmp_path):
    port = free_port()
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("DEVNET_")}, "DEVNET_WORKERS": "2", "DEVNET_CHAINS": "56", "DEVNET_HISTORY_DAYS": "2",
           "DEVNET_PORT": str(port), "DEVNET_DATA_DIR": str(tmp_path)}
    proc = subprocess.Popen([sys.executable, "-m", "devnet", "--manual-clock", "--now", str(NOW)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        wait_health(f"http://127.0.0.1:{port}/health", proc, timeout=120)
        deadline = time.monotonic() + 10
        while len(children(proc.pid)) < 1 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert len(children(proc.pid)) == 1  # the parent and one forked worker
        body = {"jsonrpc": "2.0", "id": 1, "method": "eth_getBlockByNumber", "params": ["latest", False]}
        answers = {httpx.post(f"http://127.0.0.1:{port}/chains/56/rpc", json=body, timeout=10).text
                   for _ in range(20)}  # new connections: the kernel spreads them over both
        assert len(answers) == 1 and '"result"' in next(iter(answers))
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(20)
