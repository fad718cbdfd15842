"""Test harness: the API in its own process on a free port, exactly as `serve()` runs it.

    with ApiServer(settings) as api:        # or ApiServer(settings).start() ... .stop()
        httpx.get(api.url + "/api/stats/protocol")

The settings object is handed to the child process as-is (pickled over stdin), so tests need
no environment juggling. The child runs this very file by its path (`_main`), so the product
needs no entry point for tests and the child no tests folder on its import path. Its output goes
to `log_path` (default: a temporary file).
"""
from __future__ import annotations

import os
import pickle
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from ve_analytics.api.app import load_family
from ve_analytics.api.catalog import openapi_path
from ve_analytics.api.server import serve
from ve_analytics.cli.processes import free_port, wait_http
from ve_analytics.core.config import Settings
from ve_analytics.core.logs import setup_logging


class ApiServer:
    def __init__(
        self,
        settings: Settings,
        host: str = "127.0.0.1",
        port: int | None = None,
        log_path: Path | None = None,
        families: tuple[str, ...] = ("stats",),
        env: dict[str, str] | None = None,
    ):
        self.settings = settings
        self.env = dict(env or {})  # over this process's, e.g. support.instant.frozen_env()
        self.families = tuple(families)
        self.host = host
        self.port = port or free_port()
        if log_path is None:
            fd, name = tempfile.mkstemp(prefix="api-", suffix=".log")
            os.close(fd)
            log_path = Path(name)
        self.log_path = Path(log_path)
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def start(self, timeout: float = 60.0) -> "ApiServer":
        with open(self.log_path, "ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, __file__, self.host, str(self.port)],
                stdin=subprocess.PIPE,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                env={**os.environ, **self.env},
            )
        assert self.proc.stdin is not None
        self.proc.stdin.write(pickle.dumps((self.settings, self.families)))
        self.proc.stdin.close()
        try:
            wait_http(self.url + openapi_path(load_family(self.families[0])), timeout=timeout, proc=self.proc)
        except Exception:
            self.stop()
            raise RuntimeError(f"the API did not start; its log:\n{self.log()}") from None
        return self

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def stop(self, timeout: float = 15.0) -> None:
        proc, self.proc = self.proc, None
        if proc is None or proc.poll() is not None:
            return
        os.killpg(proc.pid, signal.SIGTERM)  # the child leads its own session: only what we started
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(5)

    def __enter__(self) -> "ApiServer":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _main() -> None:
    setup_logging()
    settings, families = pickle.loads(sys.stdin.buffer.read())
    serve(settings, host=sys.argv[1], port=int(sys.argv[2]), workers=settings.api_workers, families=families)


if __name__ == "__main__":
    _main()
