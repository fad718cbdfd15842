"""A worker's compute child (api/compute_process.py), over real HTTP on the real warehouse (the
`fresh` scenario's rows): the answers computed there are the answers the worker computes itself
(API_COMPUTE_PROCESS=0), errors included, and a child that dies is replaced while the worker
keeps answering, and the child of a worker killed outright exits and leaves no socket folder behind.
"""
from __future__ import annotations

import ctypes
import dataclasses
import os
import pickle
import select
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from support import instant
from support.api_server import ApiServer
from ve_analytics.api.compute_process import CHILD_MODULE

PATHS = [
    "/api/stats/protocol",
    "/api/stats/protocol/history?days=3",
    "/api/stats/protocol/daily?days=365",
    "/api/stats/pools/0x" + "9" * 40,  # a 404 the handler raises after its query
]
SAME_HEADERS = ("etag", "cache-control", "content-type", "access-control-allow-origin")


def children(pid: int, depth: int = 1) -> list[int]:
    """The compute children (processes running api.compute_child) among the descendants of `pid`
    up to `depth` generations down."""
    found, level = [], [pid]
    for _ in range(depth):
        level = [int(c) for p in level for c in Path(f"/proc/{p}/task/{p}/children").read_text().split()]
        found += [c for c in level if CHILD_MODULE.encode() in Path(f"/proc/{c}/cmdline").read_bytes()]
    return found


def comparable(response) -> tuple:
    body = response.json()
    body["meta"].pop("generatedAt", None)
    return response.status_code, body, {h: response.headers.get(h) for h in SAME_HEADERS}


@pytest.fixture(scope="module")
def in_worker(fresh_settings, fresh_data, tmp_path_factory):
    """The same API computing every answer in its worker."""
    limits = dataclasses.replace(fresh_settings.api_limits, compute_process=False)
    settings = dataclasses.replace(fresh_settings, api_limits=limits)
    server = ApiServer(settings, log_path=tmp_path_factory.mktemp("in_worker") / "api.log", env=instant.frozen_env()).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def with_child(fresh_settings, fresh_data, tmp_path_factory):
    assert fresh_settings.api_limits.compute_process  # the default
    server = ApiServer(fresh_settings, log_path=tmp_path_factory.mktemp("with_child") / "api.log", env=instant.frozen_env()).start()
    wait_ready(server)
    yield server
    server.stop()


READY = "ready (uncached answers computed there"


def wait_ready(server: ApiServer, children_: int = 1) -> None:
    """Until the worker(s) logged that many children ready (the log line is the event's only trace)."""
    deadline = time.monotonic() + 60
    while server.log().count(READY) < children_ and time.monotonic() < deadline:
        time.sleep(0.1)
    assert server.log().count(READY) == children_, server.log()[-3000:]


def test_each_worker_of_several_has_its_child(fresh_settings, fresh_data, tmp_path, http):
    """Under Sanic's worker manager too (the default: one worker per core); stopped, they leave no
    socket folder in the temp dir (the manager's process builds an app too, and never serves)."""
    settings = dataclasses.replace(fresh_settings, api_workers=2)
    # a temp dir of its own, short: a Unix socket's path has at most 107 bytes (pytest's tmp_path is longer)
    with tempfile.TemporaryDirectory(prefix="t-") as short:
        temp = Path(short)
        two_workers_each_with_a_child(settings, tmp_path, temp, http)
        assert list(temp.glob("ve-compute-*")) == []


def two_workers_each_with_a_child(settings, tmp_path: Path, temp: Path, http) -> None:
    env = {**instant.frozen_env(), "TMPDIR": str(temp)}
    with ApiServer(settings, log_path=tmp_path / "api.log", env=env) as server:
        wait_ready(server, 2)
        assert len(children(server.proc.pid, depth=2)) == 2  # the manager's workers' children
        assert "not ready" not in server.log()
        assert http.get(server.url + "/api/stats/protocol/history?days=6").status_code == 200
        assert len(list(temp.glob("ve-compute-*"))) == 2  # one per worker's child


def test_the_child_computes_what_the_worker_would(with_child, in_worker, http):
    assert len(children(with_child.proc.pid)) == 1
    for path in PATHS:
        ours, theirs = http.get(with_child.url + path), http.get(in_worker.url + path)
        assert comparable(ours) == comparable(theirs), path
    assert http.get(with_child.url + PATHS[-1]).json()["error"]["code"] == "pool_not_found"
    assert children(in_worker.proc.pid) == []


def test_a_dead_child_is_replaced_and_the_worker_answers_meanwhile(with_child, in_worker, http):
    (first,) = children(with_child.proc.pid)
    os.kill(first, signal.SIGKILL)
    days = 4
    # the next uncached answers: computed in the worker while the child is gone (a child younger than
    # RESTART_SECONDS is not replaced at once), then by a new child
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        path = f"/api/stats/protocol/history?days={days}"
        assert comparable(http.get(with_child.url + path)) == comparable(http.get(in_worker.url + path))
        days += 1
        now = children(with_child.proc.pid)
        if now and now != [first] and with_child.log().count(READY) >= 2:
            break
        time.sleep(0.2)
    else:
        pytest.fail(f"no new compute child within 60 s; the worker's log:\n{with_child.log()[-3000:]}")
    assert "compute process did not answer" in with_child.log() or "exited with code" in with_child.log()
    assert first not in children(with_child.proc.pid)


def socket_folder(child: int) -> Path:
    """The folder of the Unix socket a compute child serves on (its command line's last argument)."""
    return Path(Path(f"/proc/{child}/cmdline").read_bytes().rstrip(b"\0").split(b"\0")[-1].decode()).parent


def test_a_worker_killed_outright_leaves_no_socket_folder(fresh_settings, fresh_data, tmp_path):
    """The kernel signals the child of a worker killed with SIGKILL (which runs no clean-up of its
    own), and the child removes its socket's folder and exits, even when the worker dies just as
    its child starts serving (when Sanic would ignore a SIGTERM)."""
    server = ApiServer(fresh_settings, log_path=tmp_path / "api.log", env=instant.frozen_env()).start()
    try:
        wait_ready(server)
        (child,) = children(server.proc.pid)
        folder = socket_folder(child)
        assert (folder / "socket").exists()
        exited = os.pidfd_open(child)  # readable once the child exits (Linux): its exit is awaited, not polled
        try:
            os.kill(server.proc.pid, signal.SIGKILL)
            server.proc.wait(10)
            readable, _, _ = select.select([exited], [], [], 30)
        finally:
            os.close(exited)
        assert readable, "the child outlived its worker"
        assert not folder.exists()
    finally:
        server.stop()


IN_MOVED_TO = 0x80  # inotify: a name moved into the watched folder (Sanic renames a bound socket into place)


class FolderWatch:
    """The names moved into a folder, as the kernel reports them (Linux inotify): a test waits on the
    event itself instead of polling for the path."""

    def __init__(self, folder: str):
        self.libc = ctypes.CDLL("libc.so.6", use_errno=True)
        self.fd = self.libc.inotify_init1(os.O_CLOEXEC)
        assert self.fd >= 0 and self.libc.inotify_add_watch(self.fd, folder.encode(), IN_MOVED_TO) >= 0

    def wait_for(self, name: str, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while True:
            readable, _, _ = select.select([self.fd], [], [], max(deadline - time.monotonic(), 0))
            assert readable, f"{name} did not appear within {timeout} s"
            data, at = os.read(self.fd, 4096), 0
            while at < len(data):  # struct inotify_event: wd, mask, cookie, len, name[len]
                _wd, _mask, _cookie, size = struct.unpack_from("iIII", data, at)
                if data[at + 16:at + 16 + size].rstrip(b"\0") == name.encode():
                    return
                at += 16 + size

    def close(self) -> None:
        os.close(self.fd)


def test_a_request_sent_as_the_childs_socket_appears_is_answered(fresh_settings, fresh_data):
    """Its worker polls the child from the moment it starts, so a connection can arrive as soon as
    the socket's path exists: it must reach the socket that serves (a socket bound, then replaced
    by another before serving, would hold that connection unanswered)."""
    with tempfile.TemporaryDirectory(prefix="t-") as short:
        path = os.path.join(short, "socket")
        watch = FolderWatch(short)  # before the child starts: its first socket is not missed
        child = subprocess.Popen([sys.executable, "-m", CHILD_MODULE, path], stdin=subprocess.PIPE)
        try:
            child.stdin.write(pickle.dumps((fresh_settings, ("stats",))))
            child.stdin.close()
            watch.wait_for("socket", 60)
            with socket.socket(socket.AF_UNIX) as conn:
                conn.connect(path)
                conn.settimeout(30)
                conn.sendall(b"GET /api/stats/openapi.json HTTP/1.1\r\nhost: compute\r\nconnection: close\r\n\r\n")
                assert conn.recv(12) == b"HTTP/1.1 200"
        finally:
            watch.close()
            child.kill()
            child.wait(10)
