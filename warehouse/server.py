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
  connections opened with `readonly=1`, so the engine itself refuses writes (code 164).

Concurrency: chDB runs queries from different connections of one process in parallel; one
connection runs one statement at a time and keeps session state (current database, SET
settings). The server therefore keeps a pool of engine connections per read-only level, hands one
to each request for its duration and records what database and settings it carries, so a request
only pays a `USE`/`SET` when it differs from the previous user of that connection. Nothing else
is serialized.
"""
from __future__ import annotations

import argparse
import email.parser
import email.policy
import gzip
import json
import logging
import re
import signal
import socket
import sys
import threading
import time
import uuid
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

from ve_analytics.core.config import Settings
from ve_analytics.warehouse.engine import DEFAULT_DATABASE, ChdbEngine
from ve_analytics.warehouse.errors import ClickHouseError
from ve_analytics.warehouse.request_body import RequestBody, decoded
from ve_analytics.warehouse.users import User, Users, users_from_settings

log = logging.getLogger("warehouse.server")

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8123
DEFAULT_FORMAT = "TabSeparated"
KEEP_ALIVE_SECONDS = 30
INSERT_HEAD_LIMIT = 1 << 16  # an `INSERT INTO ... FORMAT x` header longer than this is not expected
MAX_QUERY_BODY = 256 << 20  # a non-INSERT statement read in full; ClickHouse limits it by max_query_size

# URL parameters that belong to the HTTP transport (ClickHouse's HTTPHandler consumes them itself)
# or only steer ClickHouse's HTTP response writer, which this server replaces. They never reach the
# engine as settings.
TRANSPORT_PARAMS = frozenset(
    {
        "query", "database", "default_format", "user", "password", "quota_key", "query_id",
        "session_id", "session_timeout", "session_check", "close_session", "buffer_size",
        "wait_end_of_query", "client_protocol_version", "role", "stacktrace", "compress", "decompress",
        "enable_http_compression", "http_zlib_compression_level", "send_progress_in_http_headers",
        "http_headers_progress_interval_ms", "cancel_http_readonly_queries_on_client_close",
        "http_wait_end_of_query", "http_response_buffer_size", "add_http_cors_header",
        "http_native_compression_disable_checksumming_on_decompress", "http_write_exception_in_output_format",
        "http_response_headers", "output_format_parallel_formatting_http",
    }
)

_CONTENT_TYPES = {
    "TabSeparated": "text/tab-separated-values; charset=UTF-8",
    "TSV": "text/tab-separated-values; charset=UTF-8",
    "TabSeparatedWithNames": "text/tab-separated-values; charset=UTF-8",
    "TabSeparatedWithNamesAndTypes": "text/tab-separated-values; charset=UTF-8",
    "CSV": "text/csv; charset=UTF-8; header=absent",
    "CSVWithNames": "text/csv; charset=UTF-8; header=present",
    "JSON": "application/json; charset=UTF-8",
    "JSONCompact": "application/json; charset=UTF-8",
    "JSONEachRow": "application/x-ndjson; charset=UTF-8",
    "JSONCompactEachRow": "application/x-ndjson; charset=UTF-8",
    "Native": "application/octet-stream",
    "Arrow": "application/octet-stream",
    "ArrowStream": "application/octet-stream",
    "Parquet": "application/octet-stream",
    "RowBinary": "application/octet-stream",
    "RowBinaryWithNamesAndTypes": "application/octet-stream",
}

# Leading whitespace and comments, then the first keyword of a statement.
_LEADING_NOISE = re.compile(r"(?:\s+|--[^\n]*|#[^\n]*|/\*.*?\*/)*", re.DOTALL)
_KEYWORD = re.compile(r"[A-Za-z]+")
_TEMPORARY = re.compile(r"CREATE\s+(?:OR\s+REPLACE\s+)?TEMPORARY\b", re.IGNORECASE)
_FORMAT_TAIL = re.compile(r"\bFORMAT\s+([A-Za-z_][A-Za-z0-9_]*)\s*;?\s*\Z", re.IGNORECASE)
# INSERT INTO <target> FORMAT <fmt>: the data starts after the format name, past blanks and one
# newline (ClickHouse's ParserInsertQuery rule).
_INSERT_HEAD = re.compile(
    rb"\s*INSERT\s+INTO\s+(?P<target>.+?)\s+FORMAT\s+(?P<fmt>[A-Za-z_][A-Za-z0-9_]*)[ \t\r\f\v]*(?P<nl>\n|\Z)",
    re.IGNORECASE | re.DOTALL,
)
_QUOTED = re.compile(rb"`(?:[^`\\]|\\.)*`|\"(?:[^\"\\]|\\.)*\"", re.DOTALL)
_NOT_A_TARGET = re.compile(rb"['(]\s*SELECT\b|\b(?:VALUES|SELECT|WITH)\b|'", re.IGNORECASE)
_RESULT_KEYWORDS = frozenset({"SELECT", "WITH", "SHOW", "DESC", "DESCRIBE", "EXISTS", "EXPLAIN", "CHECK", "VALUES"})
_SESSION_KEYWORDS = frozenset({"SET", "USE", "BEGIN", "COMMIT", "ROLLBACK"})


# ----------------------------------------------------------------------------------- SQL helpers


def _first_keyword(sql: str) -> tuple[str, int]:
    pos = _LEADING_NOISE.match(sql).end()
    m = _KEYWORD.match(sql, pos)
    if m:
        return m.group(0).upper(), pos
    return ("(" if sql[pos : pos + 1] == "(" else ""), pos


def _tail_format(sql: str) -> str | None:
    m = _FORMAT_TAIL.search(sql[-256:])
    return m.group(1) if m else None


def _maybe_multi_statement(sql: str) -> bool:
    return ";" in sql.rstrip().rstrip(";")


def _could_be_insert(head: bytes | bytearray) -> bool:
    stripped = bytes(head[:64]).lstrip()
    if not stripped and len(head) >= 64:
        stripped = bytes(head[:4096]).lstrip()
    probe = stripped[:6].upper()
    return b"INSERT".startswith(probe) if len(probe) < 6 else probe == b"INSERT"


# ------------------------------------------------------------------------------------ response


def _compress(body: bytes, accept_encoding: str) -> tuple[bytes, str | None]:
    for token in accept_encoding.split(","):
        enc = token.split(";", 1)[0].strip().lower()
        if enc == "lz4":
            import lz4.frame

            return lz4.frame.compress(body), "lz4"
        if enc == "zstd":
            from backports import zstd

            return zstd.compress(body), "zstd"
        if enc == "gzip":
            return gzip.compress(body, compresslevel=3), "gzip"
        if enc == "deflate":
            return zlib.compress(body, 3), "deflate"
    return body, None


# ------------------------------------------------------------------------------- the protocol


@dataclass
class Response:
    status: int
    headers: list[tuple[str, str]]
    body: bytes | memoryview = b""
    keep: Any = None  # owner of a zero-copy body (a chDB result)


def _summary(result: Any) -> str:
    """X-ClickHouse-Summary from the engine's counters (all values strings, as ClickHouse sends)."""
    try:
        return (
            f'{{"read_rows":"{result.storage_rows_read()}","read_bytes":"{result.storage_bytes_read()}",'
            f'"written_rows":"{result.rows_written()}","written_bytes":"{result.bytes_written()}",'
            f'"total_rows_to_read":"0","result_rows":"{result.rows_read()}","result_bytes":"{result.size()}",'
            f'"elapsed_ns":"{int(result.elapsed() * 1e9)}"}}'
        )
    except Exception:  # noqa: BLE001 - an engine without some counter: report what is known
        return json.dumps({"result_bytes": str(result.size())}, separators=(",", ":"))


def _header_safe(value: str) -> str:
    return re.sub(r"[^\x20-\x7e]", "_", value)[:256]


_SECRET = re.compile(r"(\bBY\s+)'(?:[^'\\]|\\.)*'", re.IGNORECASE)


def _one_line(sql: str | bytes, limit: int = 300) -> str:
    """A statement for a log line: one line, shortened, passwords (`... BY '...'`) hidden."""
    if isinstance(sql, bytes):
        sql = sql[: limit * 4].decode("utf-8", "replace")
    text = _SECRET.sub(r"\1'[HIDDEN]'", " ".join(sql[: limit * 4].split()))
    return text if len(text) <= limit else text[: limit - 3] + "..."


class Warehouse:
    """Turns one HTTP request into one engine statement and the engine's answer into a response."""

    def __init__(self, engine: ChdbEngine, users: Iterable[User], *, compress_responses: bool = False):
        self.engine = engine
        self.users = Users(users)
        self.compress_responses = compress_responses
        self.display_name = _header_safe(socket.gethostname())

    # -- one request

    def execute(self, method: str, query_string: str, headers: dict[str, str], body: RequestBody) -> Response:
        """One request; `headers` has lower-case names."""
        params = dict(parse_qsl(query_string, keep_blank_values=True)) if query_string else {}
        query_id = params.get("query_id") or str(uuid.uuid4())
        user_name = "(unauthenticated)"
        sql_for_log: str | bytes = params.get("query", "")
        try:
            user = self.users.authenticate(headers, params)
            user_name = user.name
            response = self._execute(method, params, headers, body, user, query_id)
            return response
        except ClickHouseError as exc:
            sql_for_log = getattr(exc, "sql", None) or sql_for_log
            log.warning(
                "query %s by %s failed: %s | %s",
                query_id,
                user_name,
                exc.render(self.engine.version).decode("utf-8", "replace").strip(),
                _one_line(sql_for_log) or "<no query>",
            )
            return self.error_response(exc, query_id)

    def error_response(self, exc: ClickHouseError, query_id: str | None = None) -> Response:
        headers = [
            ("Content-Type", "text/plain; charset=UTF-8"),
            ("X-ClickHouse-Server-Display-Name", self.display_name),
            ("X-ClickHouse-Exception-Code", str(exc.code)),
        ]
        if query_id:
            headers.append(("X-ClickHouse-Query-Id", _header_safe(query_id)))
        return Response(exc.status, headers, exc.render(self.engine.version))

    def _execute(self, method: str, params: dict[str, str], headers, body: RequestBody, user: User, query_id: str) -> Response:
        if params.get("compress") in ("1", "true") or params.get("decompress") in ("1", "true"):
            raise ClickHouseError(48, "NOT_IMPLEMENTED", "ClickHouse's internal compression (compress/decompress=1) is not supported")
        readonly = user.readonly or (2 if method == "GET" else 0)
        query_head = params.get("query", "")
        query_params: dict[str, str] = {}
        settings: dict[str, str] = {}
        for name, value in params.items():
            if name.startswith("param_"):
                query_params[name[6:]] = value
            elif name not in TRANSPORT_PARAMS:
                settings[name] = value
        database = params.get("database") or headers.get("x-clickhouse-database") or DEFAULT_DATABASE
        default_format = params.get("default_format") or headers.get("x-clickhouse-format") or DEFAULT_FORMAT

        chunks: Iterable[bytes] = ()
        if method == "POST":
            content_type = headers.get("content-type", "")
            if content_type.lower().startswith("multipart/form-data"):
                query_head = self._read_form(content_type, body, query_head, query_params)
            else:
                chunks = decoded(body, headers.get("content-encoding", ""))

        head = bytearray(query_head.encode("utf-8"))
        it = iter(chunks)
        exhausted = False
        if head:
            head += b"\n"
        insert = None
        while _could_be_insert(head):  # look for `INSERT INTO <target> FORMAT <fmt>\n` at the start
            m = _INSERT_HEAD.match(head, 0, INSERT_HEAD_LIMIT)
            if m and (m.group("nl") == b"\n" or exhausted):
                if self._is_insert_target(m.group("target")):
                    insert = m
                break  # FORMAT inside VALUES/SELECT text: an ordinary statement
            if exhausted or len(head) > INSERT_HEAD_LIMIT:
                break
            piece = next(it, None)
            if piece is None:
                exhausted = True
            else:
                head += piece

        if insert is not None:
            statement = head[: insert.start("target")] + insert.group("target")
            sql = bytes(statement).decode("utf-8", "replace").strip()
            data = _prepend(bytes(head[insert.end() :]), it)
            with self.engine.connection(readonly) as conn:
                try:
                    self.engine.prepare(conn, database, settings)
                    result = self.engine.insert(conn, sql, insert.group("fmt").decode("ascii"), data)
                except ClickHouseError as exc:
                    exc.sql = sql  # type: ignore[attr-defined]
                    raise
            return self._ok(result, query_id, None, settings)

        if not exhausted:  # an ordinary statement: read it whole before taking an engine connection
            for piece in it:
                head += piece
                if len(head) > MAX_QUERY_BODY:
                    raise ClickHouseError(229, "QUERY_IS_TOO_LARGE", "Query is too large")
        raw = bytes(head)
        try:
            sql_text: str | bytes = raw.decode("utf-8")
        except UnicodeDecodeError:
            sql_text = raw
        text = sql_text if isinstance(sql_text, str) else raw.decode("utf-8", "replace")
        keyword, start = _first_keyword(text)
        if not keyword:
            raise ClickHouseError(62, "SYNTAX_ERROR", "Empty query")
        changes_session = keyword in _SESSION_KEYWORDS or bool(_TEMPORARY.match(text, start))
        with self.engine.connection(readonly) as conn:
            try:
                if _maybe_multi_statement(text) and self.engine.statement_count(conn, sql_text) > 1:
                    raise ClickHouseError(62, "SYNTAX_ERROR", "Multi-statements are not allowed")
                self.engine.prepare(conn, database, settings)
                if changes_session:
                    conn.broken = True  # a SET/USE/temporary table would leak into later requests
                result = self.engine.query(conn, sql_text, default_format, query_params)
            except ClickHouseError as exc:
                exc.sql = sql_text  # type: ignore[attr-defined]
                raise
        fmt = _tail_format(text) or default_format
        produces = keyword in _RESULT_KEYWORDS or keyword == "(" or result.size() > 0
        return self._ok(result, query_id, fmt if produces else None, settings, headers=headers, params=params)

    @staticmethod
    def _is_insert_target(target: bytes) -> bool:
        return not _NOT_A_TARGET.search(_QUOTED.sub(b"x", target))

    @staticmethod
    def _read_form(content_type: str, body: RequestBody, query_head: str, query_params: dict[str, str]) -> str:
        raw = b"".join(body)
        message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
            b"Content-Type: " + content_type.encode("latin-1") + b"\r\n\r\n" + raw
        )
        form_query = None
        for part in message.iter_parts():
            name = part.get_param("name", header="content-disposition")
            if part.get_filename() is not None:
                raise ClickHouseError(48, "NOT_IMPLEMENTED", "External data tables are not supported by the embedded warehouse")
            value = part.get_payload(decode=True).decode("utf-8")
            if name == "query":
                form_query = value
            elif name and name.startswith("param_"):
                query_params[name[6:]] = value
        if form_query is None:
            return query_head
        return f"{query_head}\n{form_query}" if query_head else form_query

    def _ok(self, result: Any, query_id: str, fmt: str | None, settings: dict[str, str], *, headers=None, params=None) -> Response:
        out = [
            ("X-ClickHouse-Server-Display-Name", self.display_name),
            ("X-ClickHouse-Query-Id", _header_safe(query_id)),
            ("X-ClickHouse-Timezone", settings.get("session_timezone") or self.engine.timezone),
        ]
        body: bytes | memoryview = b""
        keep = None
        if fmt is not None:
            out.append(("Content-Type", _CONTENT_TYPES.get(fmt, "text/plain; charset=UTF-8")))
            out.append(("X-ClickHouse-Format", fmt))
            if result.size():
                wrapper = result.get_memview()
                body = wrapper.view()
                keep = (result, wrapper)
        else:
            out.append(("Content-Type", "text/plain; charset=UTF-8"))
        out.append(("X-ClickHouse-Summary", _summary(result)))
        if (
            body
            and self.compress_responses
            and params is not None
            and params.get("enable_http_compression") in ("1", "true")
            and headers.get("accept-encoding")
        ):
            compressed, encoding = _compress(bytes(body), headers["accept-encoding"])
            if encoding:
                body, keep = compressed, None
                out.append(("Content-Encoding", encoding))
        return Response(200, out, body, keep)


def _prepend(first: bytes, rest: Iterator[bytes]) -> Iterator[bytes]:
    if first:
        yield first
    yield from rest


# ----------------------------------------------------------------------------------- HTTP front


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "chDB-warehouse"
    disable_nagle_algorithm = True
    timeout = KEEP_ALIVE_SECONDS
    server: _HTTPServer

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


class _HTTPServer(ThreadingHTTPServer):
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

    def handleClickHouseError(self, request, client_address) -> None:
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


# ------------------------------------------------------------------------------------- control


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
        self._httpd: _HTTPServer | None = None
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
        warehouse = Warehouse(self.engine, users_from_settings(self.settings), compress_responses=self.compress_responses)
        try:
            self._httpd = _HTTPServer((self.host, self._requested_port), warehouse)
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
    from ve_analytics.core.logs import setup_logging

    setup_logging()
    serve(Settings.from_env(), host=args.host, port=args.port, data_dir=Path(args.data_dir) if args.data_dir else None)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
