"""The HTTP/1.1 front: the request handler and the threading server that runs it.

One thread per connection, keep-alive, `Content-Length` on every response (the whole result is
in hand before anything is sent). Health checks and unknown paths are answered here; a query on
`/` goes to `Warehouse.execute`. The server counts requests in flight so that stopping can let
them finish before it closes idle keep-alive connections.
"""
from __future__ import annotations

import logging
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from .errors import ClickHouseError
from .protocol import Warehouse
from .request_body import RequestBody
from .responses import Response

log = logging.getLogger("warehouse.server")

KEEP_ALIVE_SECONDS = 30


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "chDB-warehouse"
    disable_nagle_algorithm = True
    timeout = KEEP_ALIVE_SECONDS
    server: WarehouseHTTPServer

    def do_GET(self) -> None:
        self._handle()

    def do_POST(self) -> None:
        self._handle()

    def do_HEAD(self) -> None:
        self._handle()

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def _handle(self) -> None:
        warehouse = self.server.warehouse
        target = self.path
        if not target.startswith("/") and "://" in target:  # absolute-form request target
            target = "/" + target.split("://", 1)[1].partition("/")[2]
        path, _, query_string = target.partition("?")
        headers = {name.lower(): value for name, value in self.headers.items()}
        chunked = "chunked" in headers.get("transfer-encoding", "").lower()
        length_header = headers.get("content-length")
        try:
            length = int(length_header) if length_header else 0
        except ValueError:
            length = 0
        body = RequestBody(self.rfile, length, chunked)
        self.server.active_begin()
        try:
            if path in ("/ping", "/replicas_status") or (path == "/" and not query_string and body.done and self.command != "POST"):
                response = Response(200, [("Content-Type", "text/html; charset=UTF-8")], b"Ok.\n")
            elif path != "/":
                response = Response(
                    404,
                    [("Content-Type", "text/plain; charset=UTF-8")],
                    f"There is no handle {path}\n\nUse / or /ping for health checks.\n".encode(),
                )
            else:
                try:
                    method = "GET" if self.command == "HEAD" else self.command
                    response = warehouse.execute(method, query_string, headers, body)
                except ClickHouseError as exc:
                    response = warehouse.error_response(exc)
                except Exception as exc:
                    log.exception("internal error while serving a query")
                    response = warehouse.error_response(ClickHouseError(1001, "STD_EXCEPTION", f"{type(exc).__name__}: {exc}"))
            if not body.done:
                try:
                    body.drain()
                except ClickHouseError:
                    self.close_connection = True
            self._send(response)
        finally:
            self.server.active_end()

    def _send(self, response: Response) -> None:
        body = response.body
        lines = [f"HTTP/1.1 {response.status} {self.responses.get(response.status, ('Error',))[0]}\r\n"]
        lines.extend(f"{name}: {value}\r\n" for name, value in response.headers)
        lines.append(f"Content-Length: {len(body)}\r\n")
        if self.close_connection:
            lines.append("Connection: close\r\n\r\n")
        else:
            lines.append(f"Connection: Keep-Alive\r\nKeep-Alive: timeout={KEEP_ALIVE_SECONDS}\r\n\r\n")
        head = "".join(lines).encode("latin-1")
        if self.command == "HEAD":
            self.wfile.write(head)
        elif len(body) <= 65536:
            self.wfile.write(head + bytes(body))
        else:
            self.wfile.write(head)
            self.wfile.write(body)


class WarehouseHTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 256

    def __init__(self, address: tuple[str, int], warehouse: Warehouse):
        self.warehouse = warehouse
        self._sockets: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._active = 0
        self._idle = threading.Condition(self._lock)
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        super().__init__(address, _Handler)

    def handle_error(self, request, client_address) -> None:
        exc = sys.exc_info()[1]
        if isinstance(exc, (ConnectionError, TimeoutError)):
            log.debug("client %s went away: %s", client_address, exc)
        else:
            log.exception("unexpected error serving %s", client_address)

    def process_request(self, request, client_address) -> None:
        with self._lock:
            self._sockets.add(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request) -> None:
        with self._lock:
            self._sockets.discard(request)
        super().shutdown_request(request)

    def active_begin(self) -> None:
        with self._lock:
            self._active += 1

    def active_end(self) -> None:
        with self._lock:
            self._active -= 1
            self._idle.notify_all()

    def close_connections(self, timeout: float) -> None:
        """Wait for requests in flight, then disconnect idle keep-alive clients."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while self._active and self._idle.wait(max(0.0, deadline - time.monotonic())):
                pass
            sockets = list(self._sockets)
        for sock in sockets:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
