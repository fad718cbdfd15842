"""Embedded warehouse: the ClickHouse HTTP interface in front of one chDB instance.

chDB is ClickHouse as a library: it cannot be opened by two processes and does not listen on a
port, so this process owns it and speaks the subset of ClickHouse's HTTP protocol that
clickhouse-connect (and an analyst with curl) uses. It is a transport, not a database: parsing,
planning, formats, parameters, settings, read-only enforcement and storage are all the engine's.

What is implemented, mirroring ClickHouse's HTTPHandler:

- `GET /`, `GET /ping`, `GET /replicas_status` answer `Ok.`.
- The query comes from the `query` URL parameter, the POST body, or both (URL part, a newline,
  then the body), or from a multipart form. One statement per request, as in ClickHouse.
- `{name:Type}` placeholders are bound by the engine from `param_<name>` values (chDB's native
  query parameters, the same substitution ClickHouse's HTTP handler does). Nothing is spliced.
- `INSERT ... FORMAT <fmt>` streams the request body (Content-Length or chunked, optionally
  compressed with lz4, zstd, gzip, deflate or br) into chDB's streaming insert, block by block.
- Every URL parameter that is not part of the transport is a ClickHouse setting for that
  request. Result format: the query's FORMAT clause, else `default_format`, else TabSeparated.
- Errors: ClickHouse's status mapping, `X-ClickHouse-Exception-Code`, and the engine's own
  `Code: N. DB::Exception: ... (NAME)` text.
- Users from Settings: the read-write user and a read-only analyst whose queries run on engine
  connections opened with `readonly=1`, so the engine itself refuses writes (code 164), and with
  the operator's limits (`warehouse.limits`: time, memory, result rows, threads, CPU priority,
  concurrent queries), which readonly=1 keeps the analyst from lifting. Only the read-write user
  may reach files or the network (table functions such as file() and url(), INTO OUTFILE):
  `warehouse.access` refuses them to every reader.
- It listens on 127.0.0.1 unless told otherwise (WAREHOUSE_HOST, --host).

Concurrency: chDB runs queries from different connections of one process in parallel; one
connection runs one statement at a time and keeps session state (current database, SET
settings). The server therefore keeps a pool of engine connections per read-only level, hands one
to each request for its duration and records what database and settings it carries, so a request
only pays a `USE`/`SET` when it differs from the previous user of that connection. Nothing else
is serialized.

Where each part lives: `warehouse.handler` (HTTP front), `warehouse.protocol` (one request, one
statement), `warehouse.request` and `warehouse.request_body` (reading it), `warehouse.responses`,
`warehouse.engine` (connections and their session state), `warehouse.users`, `warehouse.limits`,
`warehouse.errors`.
This module starts and stops the whole. Every part logs as `warehouse.server`.
"""
from __future__ import annotations

import argparse
import logging
import signal
import threading
from pathlib import Path

from ..core.config import Settings
from .access import guard_for
from .engine import ChdbEngine
from .handler import WarehouseHTTPServer
from .limits import limit_analyst
from .protocol import Warehouse
from .query_log import QueryLog
from .users import users_from_settings

log = logging.getLogger("warehouse.server")

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8123


class WarehouseServer:
    """The embedded warehouse serving from a background thread: `start()`, `.port`, `.url`, `stop()`.

    `serve()` runs one in the foreground. chDB allows one data directory per process: while a
    server is open, another one in the same process must use the same directory (stop it first).
    """

    def __init__(
        self,
        settings: Settings,
        host: str | None = None,
        port: int | None = None,
        data_dir: Path | None = None,
        *,
        max_connections: int = 32,
        compress_responses: bool = False,
    ):
        self.settings = settings
        self.host = host if host is not None else (settings.warehouse_host or DEFAULT_HOST)
        self._requested_port = port if port is not None else settings.warehouse_port
        self.data_path = Path(data_dir if data_dir is not None else settings.data_dir) / "warehouse"
        self.max_connections = max_connections
        self.compress_responses = compress_responses
        self.engine: ChdbEngine | None = None
        self._httpd: WarehouseHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        if self._httpd is None:
            return self._requested_port
        return self._httpd.server_address[1]

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    def open(self) -> WarehouseServer:
        """Open the engine and bind the socket (start() serves)."""
        if self._httpd is not None:
            return self
        self.engine = ChdbEngine(self.data_path, self.max_connections)
        warehouse = Warehouse(
            self.engine,
            users_from_settings(self.settings),
            compress_responses=self.compress_responses,
            limited=limit_analyst(self.settings, self.engine),
            query_log=QueryLog(Path(self.settings.warehouse_query_log)) if self.settings.warehouse_query_log else None,
            guard=guard_for(self.engine),
        )
        try:
            self._httpd = WarehouseHTTPServer((self.host, self._requested_port), warehouse)
        except OSError:
            self.engine.close()
            self.engine = None
            raise
        log.info(
            "warehouse (chDB %s) listening on %s, data in %s",
            self.engine.version,
            self.url,
            self.data_path.resolve(),
        )
        return self

    def start(self) -> WarehouseServer:
        """Serve in a background thread; returns once the socket accepts connections."""
        self.open()
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="warehouse-http", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 10.0) -> None:
        httpd, self._httpd = self._httpd, None
        if httpd is None:
            return
        if self._thread is not None:
            httpd.shutdown()
            self._thread.join(timeout)
            self._thread = None
        httpd.server_close()
        httpd.close_connections(timeout)
        if self.engine is not None:
            self.engine.close(timeout)
            self.engine = None
        log.info("warehouse stopped")

    def __enter__(self) -> WarehouseServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def serve(settings: Settings, host: str | None = None, port: int | None = None, data_dir: Path | None = None) -> None:
    """Run the embedded warehouse until SIGTERM or SIGINT. `data_dir` replaces settings.data_dir;
    the data lives in `<data_dir>/warehouse`."""
    server = WarehouseServer(settings, host=host, port=port, data_dir=data_dir)
    server.start()
    stopping = threading.Event()

    def _stop(signum: int, frame: object) -> None:
        stopping.set()

    previous = {sig: signal.signal(sig, _stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        while not stopping.wait(1.0):
            pass
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        server.stop()


def main(argv: list[str] | None = None) -> int:
    """`python -m warehouse.server [--host H] [--port P] [--data-dir D]`"""
    parser = argparse.ArgumentParser(prog="python -m warehouse.server", description="embedded ClickHouse-HTTP warehouse (chDB)")
    parser.add_argument("--host")
    parser.add_argument("--port", type=int)
    parser.add_argument("--data-dir")
    args = parser.parse_args(argv)
    from ..core.logs import setup_logging

    setup_logging()
    serve(Settings.from_env(), host=args.host, port=args.port, data_dir=Path(args.data_dir) if args.data_dir else None)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
