"""Start, watch and stop the stack's server processes (used by `up` and by the test suite).

A child's environment is the caller's plus the service's own, with every secret value replaced by
a `NAME_FILE` path (core.secrets.child_environment): no secret is ever in a child's environment or
argv. `Service.secrets` narrows which secret variables a child gets at all.
"""
from __future__ import annotations

import logging
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from ..core.secrets import child_environment

log = logging.getLogger("processes")


def _unwind(signum, frame):  # noqa: ARG001 - signal handler signature
    raise KeyboardInterrupt


def unwind_on_signals() -> None:
    """SIGINT and SIGTERM raise KeyboardInterrupt, so a caller's `finally` stops the services it
    started. A shell's background job starts with SIGINT ignored, and SIGTERM would end the
    process without unwinding: either way the services would be left running."""
    signal.signal(signal.SIGINT, _unwind)
    signal.signal(signal.SIGTERM, _unwind)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_http(url: str, timeout: float = 60.0, proc: subprocess.Popen | None = None) -> None:
    """Wait until `url` answers any HTTP status below 500 (or the process dies)."""
    deadline = time.monotonic() + timeout
    last = "no answer"
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"process exited with code {proc.returncode} before {url} answered")
        try:
            r = httpx.get(url, timeout=2.0)
            if r.status_code < 500:
                return
            last = f"HTTP {r.status_code}"
        except httpx.HTTPError as exc:
            last = type(exc).__name__
        time.sleep(0.2)
    raise TimeoutError(f"{url} did not answer within {timeout:.0f} s ({last})")


@dataclass
class Service:
    name: str
    argv: list[str]
    ready_url: str | None
    env: dict[str, str] = field(default_factory=dict)
    log_path: Path | None = None
    proc: subprocess.Popen | None = None
    secrets: tuple[str, ...] | None = None  # secret variables it may get (as files); None: all

    def start(self, timeout: float = 120.0) -> "Service":
        return self.launch().wait_ready(timeout)

    def launch(self) -> "Service":
        """Start the process without waiting for it (several can then start at once)."""
        env = child_environment(os.environ, self.env, self.secrets)
        out = open(self.log_path, "ab") if self.log_path else subprocess.DEVNULL
        self.proc = subprocess.Popen(
            self.argv, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
        return self

    def wait_ready(self, timeout: float = 120.0) -> "Service":
        """Wait for its ready URL (stopping it if it does not answer in time)."""
        if self.ready_url:
            try:
                wait_http(self.ready_url, timeout=timeout, proc=self.proc)
            except Exception:
                self.stop()
                raise
        return self

    def terminate(self) -> None:
        """Ask the process (and its process group: what it started) to stop, without waiting."""
        if self.proc is None or self.proc.poll() is not None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass

    def stop(self, timeout: float = 15.0) -> None:
        self.terminate()
        if self.proc is None or self.proc.poll() is not None:
            return
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(5)

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None


def cli(*args: str) -> list[str]:
    """argv for a subcommand of this project's console command, in this interpreter."""
    return [sys.executable, "-m", "ve_analytics.cli.main", *args]
