"""Uncached computations of an API worker, run in a child process at a lower CPU priority.

A cached answer costs the worker's event loop a fraction of a millisecond; an uncached one costs
milliseconds to hundreds of milliseconds of Python (rows, shaping, JSON). In the worker, even on
threads (api/offload.py), that work holds the GIL and pauses the loop: under a flood of distinct
large answers a cached route's p99 went from about 0.3 ms to 13-50 ms (bench/flood.py). In a child
process the worker only forwards the request and keeps the answer, and the operating system, not
the GIL, shares the cores; the child runs at a lower priority (API_COMPUTE_NICE), so a cached
request wakes the worker ahead of it.

The child is the same application (api/app.py: the same families and routes) serving its worker
alone on a Unix socket. It validates, resolves its own snapshot, computes and answers. Its snapshot
pointer is not polled (a poll a second per child doubled the warehouse's pointer reads) but read
again when the basis its worker sends (WORKER_BASIS) is not its own (api/pipeline.py
`child_basis`). It keeps no
answers (its worker does, so a memoized answer's age is its worker's TTL, not twice that), only its
own memos (upstream reads, coverages) in a small store (CHILD_CACHE_BYTES), and has no rate limit
(its worker applied its own). The worker:
- forwards a computation, after its own gate (api/admission.py), as a GET of the same target with
  the ETag of the basis it resolved;
- takes a 200 as its answer when it rests on the same snapshot (the same ETag), else (a snapshot
  was published between the two) computes it itself; relays any other status as it is;
- computes in process until the child answers, and while it restarts the child when it exits;
  the child is stopped with the server, in its own session (a signal to the worker's process
  group reaches it through its worker only), and exits with its worker (PR_SET_PDEATHSIG).
API_COMPUTE_PROCESS=0 computes in the worker.

The child's side is api/compute_child.py.
"""
from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
import pickle
import shutil
import subprocess
import sys
import tempfile
import time
from typing import Any, Mapping

import aiohttp
from yarl import URL

log = logging.getLogger("api")

CHILD_MODULE = "ve_analytics.api.compute_child"  # by name: the child's module imports the whole app
CHILD_CACHE_BYTES = 32 * 2**20  # the child's store: its memos of upstream reads and coverages, not answers
READY_SECONDS = 120  # how long a starting child may take to answer before it is restarted
# a forwarded computation's limit: its queries have their own (the warehouse's), so this only ends a stuck child's
ANSWER_SECONDS = 600
# one readiness poll's limit: a poll that hangs must not outlast READY_SECONDS (one did for 10 minutes)
POLL_TIMEOUT = aiohttp.ClientTimeout(total=10)
RESTART_SECONDS = 5  # at most one start per this many seconds (a child that cannot start)
WORKER_BASIS = "x-worker-basis"  # request header: the ETag of the basis the worker resolved
HOP_HEADERS = frozenset({"connection", "keep-alive", "transfer-encoding", "content-length", "date", "server"})


class ComputeProcess:
    """The worker's side: start, forward, restart, stop."""

    def __init__(self, settings: Any, families: tuple[str, ...], ready_path: str):
        limits = settings.api_limits
        # the worker's own settings (not the environment's: a worker may be started with others)
        self.settings = dataclasses.replace(settings, api_limits=dataclasses.replace(
            limits, cache_max_bytes=min(limits.cache_max_bytes, CHILD_CACHE_BYTES)))
        self.families, self.ready_path, self.nice = families, ready_path, limits.compute_nice
        # made by `start`, not here: an app is also built where it never serves (the process of
        # Sanic's worker manager), and a folder made there would be left behind
        self.directory = self.socket = ""
        self.proc: subprocess.Popen | None = None
        self.session: Any = None
        self.ready = False
        self.started_at = 0.0
        self._watch: asyncio.Future | None = None

    async def start(self) -> None:
        self.directory = tempfile.mkdtemp(prefix="ve-compute-")  # short: a socket path has 107 bytes at most
        self.socket = os.path.join(self.directory, "socket")
        self.session = aiohttp.ClientSession(connector=aiohttp.UnixConnector(path=self.socket, limit=0),
                                             timeout=aiohttp.ClientTimeout(total=ANSWER_SECONDS, sock_connect=5))
        self._spawn()

    def _spawn(self) -> None:
        if os.path.exists(self.socket):
            os.unlink(self.socket)
        # in its own session: a signal to the worker's process group reaches it through its worker only
        # without the names Sanic's worker manager gives its workers: the child serves on its own
        env = {k: v for k, v in os.environ.items() if not k.startswith("SANIC_WORKER_")}
        self.proc = subprocess.Popen([sys.executable, "-m", CHILD_MODULE, self.socket], stdin=subprocess.PIPE,
                                     env=env, start_new_session=True)
        assert self.proc.stdin is not None
        self.proc.stdin.write(pickle.dumps((self.settings, self.families)))
        self.proc.stdin.close()
        self.ready, self.started_at = False, time.monotonic()
        self._watch = asyncio.ensure_future(self._until_ready(self.proc))

    async def _until_ready(self, proc: subprocess.Popen) -> None:
        while proc.poll() is None and time.monotonic() - self.started_at < READY_SECONDS:
            try:
                async with self.session.get("http://compute" + self.ready_path, timeout=POLL_TIMEOUT) as response:
                    if response.status == 200:
                        self.ready = True
                        log.info("compute process %d ready (uncached answers computed there, at nice %d)", proc.pid, self.nice)
                        return
            except (aiohttp.ClientError, OSError, asyncio.TimeoutError):
                pass  # not listening yet, or a poll the child never took: the next one may be
            await asyncio.sleep(0.1)
        log.warning("compute process %d not ready after %.0f s (exit code %s); computing in the worker",
                    proc.pid, time.monotonic() - self.started_at, proc.poll())

    def _restart_if_exited(self) -> None:
        if self.proc is not None and self.proc.poll() is not None and time.monotonic() - self.started_at >= RESTART_SECONDS:
            log.warning("compute process %d exited with code %s; starting another", self.proc.pid, self.proc.returncode)
            self._spawn()

    async def answer(self, target: str, basis: str | None = None) -> tuple[int, bytes, Mapping[str, str]] | None:
        """The child's status, identity body and headers for GET `target` (the raw path and query
        string), `basis` the ETag of the basis the worker resolved for it (the child catches up
        with it); None when the child cannot answer (not ready, exited): compute in the worker."""
        if not self.ready:
            self._restart_if_exited()
            return None
        try:
            headers = {"accept-encoding": "identity", **({} if basis is None else {WORKER_BASIS: basis})}
            async with self.session.get(URL("http://compute" + target, encoded=True),
                                        headers=headers, allow_redirects=False) as response:
                return response.status, await response.read(), response.headers
        except (aiohttp.ClientConnectionError, OSError) as exc:  # the child went away (a timeout is raised)
            self.ready = self.proc is not None and self.proc.poll() is None
            log.warning("compute process did not answer (%s: %s); computing in the worker", type(exc).__name__, exc)
            self._restart_if_exited()
            return None

    async def stop(self) -> None:
        if self._watch is not None:
            self._watch.cancel()
        if self.session is not None:
            await self.session.close()
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                await asyncio.get_running_loop().run_in_executor(None, self.proc.wait, 10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        if self.directory:
            shutil.rmtree(self.directory, ignore_errors=True)


def relayed_headers(headers: Mapping[str, str]) -> dict[str, str]:
    """The child's response headers a relayed answer keeps (not the hop-by-hop ones)."""
    return {k.lower(): v for k, v in headers.items() if k.lower() not in HOP_HEADERS}
