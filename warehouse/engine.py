"""The engine: one chDB instance on disk, pools of its connections, and their session state.

A chDB connection runs one statement at a time and keeps session state (current database, SET
settings), so each request borrows a connection for its duration. A pool per read-only level
(0 read-write, 1 read-only, 2 a read-write user's GET) hands them out; each records the database
and settings it carries, so a request only pays a `USE`/`SET` when it differs from the previous
user of that connection. A connection whose state cannot be reset is closed instead of reused.
`add_pool` adds a named pool whose connections open with fixed settings (the limited analyst's,
warehouse/limits.py).

Server configuration: the engine opens with a ClickHouse config file it writes into its data folder
at every start (`config.xml`), whose only content is `backups.allowed_path` (the `backups/` folder
beside the data), so `BACKUP ... TO File('<name>')` works (warehouse/backup.py). chDB loads that
file once per process, on the first connection: the pools' connections share it.
"""
from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode
from xml.sax.saxutils import escape as xml_escape

from .errors import ClickHouseError

log = logging.getLogger("warehouse.server")

DEFAULT_DATABASE = "default"
CONFIG_FILE = "config.xml"  # written at each start, in the engine's data folder
BACKUPS_FOLDER = "backups"  # backups.allowed_path: File('<name>') backups land in <data>/backups/<name>

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def quote_identifier(name: str) -> str:
    return "`" + name.replace("\\", "\\\\").replace("`", "\\`") + "`"


def quote_literal(value: str) -> str:
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'").replace("\0", "\\0") + "'"


@dataclass(eq=False)
class _Conn:
    handle: Any
    readonly: int
    database: str = DEFAULT_DATABASE
    settings: dict[str, str] = field(default_factory=dict)
    broken: bool = False  # session state unknown or not resettable: close instead of reusing


class _Pool:
    """Engine connections of one read-only level; each serves one request at a time."""

    def __init__(self, connect: Callable[[], _Conn], max_size: int):
        self._connect = connect
        self._max = max_size
        self._idle: list[_Conn] = []
        self._count = 0
        self._closed = False
        self._cond = threading.Condition()

    @contextmanager
    def acquire(self, timeout: float = 300.0) -> Iterator[_Conn]:
        conn = None
        with self._cond:
            deadline = time.monotonic() + timeout
            while not self._idle and self._count >= self._max and not self._closed:
                if not self._cond.wait(max(0.0, deadline - time.monotonic())):
                    raise ClickHouseError(202, "TOO_MANY_SIMULTANEOUS_QUERIES", "Too many simultaneous queries")
            if self._closed:
                raise ClickHouseError(210, "NETWORK_ERROR", "Warehouse server is shutting down")
            if self._idle:
                conn = self._idle.pop()
            else:
                self._count += 1
        if conn is None:
            try:
                conn = self._connect()
            except BaseException:
                with self._cond:
                    self._count -= 1
                    self._cond.notify()
                raise
        try:
            yield conn
        finally:
            with self._cond:
                if conn.broken or self._closed:
                    self._count -= 1
                    _close_quietly(conn.handle)
                else:
                    self._idle.append(conn)
                self._cond.notify()

    def close(self) -> None:
        with self._cond:
            self._closed = True
            for conn in self._idle:
                self._count -= 1
                _close_quietly(conn.handle)
            self._idle.clear()
            self._cond.notify_all()

    def wait_idle(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._count > 0:
                left = deadline - time.monotonic()
                if left <= 0 or not self._cond.wait(left):
                    return self._count == 0
        return True


def write_config(data_path: Path, backups_path: Path) -> Path:
    """The engine's ClickHouse config file (rewritten at each start): `backups.allowed_path`."""
    if "?" in str(data_path) or "&" in str(data_path):
        raise RuntimeError(f"the warehouse data folder may not contain '?' or '&' (chDB's connection string): {data_path}")
    backups_path.mkdir(parents=True, exist_ok=True)
    config = data_path / CONFIG_FILE
    config.write_text(
        "<!-- Written by ve-analytics at each start of the embedded warehouse; edits are lost. -->\n"
        f"<clickhouse>\n  <backups>\n    <allowed_path>{xml_escape(str(backups_path))}/</allowed_path>\n  </backups>\n</clickhouse>\n"
    )
    return config


def _close_quietly(handle: Any) -> None:
    try:
        handle.close()
    except Exception:  # noqa: BLE001 - closing on shutdown or after a failure
        pass


class ChdbEngine:
    """One chDB instance on disk and pools of its connections (read-write, readonly=1, readonly=2)."""

    def __init__(self, path: Path, max_connections: int = 32):
        from chdb import _chdb  # imported here: loading the engine library is not free

        self.path = Path(path)
        self.path.mkdir(parents=True, exist_ok=True)
        self._chdb = _chdb
        self._conn_str = str(self.path.resolve())
        self.backups_path = self.path.resolve() / BACKUPS_FOLDER
        config = write_config(self.path.resolve(), self.backups_path)
        try:
            # chDB reads the config-file value verbatim (it does not percent-decode it)
            self._base = _chdb.connect(f"{self._conn_str}?config-file={config}")
        except RuntimeError as exc:
            raise RuntimeError(f"cannot open the chDB warehouse at {self.path}: {exc}") from None
        row = self._base.query("SELECT version(), timezone()", "TabSeparated").bytes().decode()
        self.version, self.timezone = row.rstrip("\n").split("\t")
        self._max_connections = max_connections
        self._pools: dict[int | str, _Pool] = {
            level: _Pool(self._connector(level), max_connections) for level in (0, 1, 2)
        }

    def add_pool(self, key: str, readonly: int, settings: dict[str, str], max_size: int | None = None) -> None:
        """A pool whose connections open with `settings` and then `readonly` (chDB applies
        connection-string settings in order, as SETs: readonly last, or it would refuse the rest)."""
        self._pools[key] = _Pool(self._connector(readonly, settings), max_size or self._max_connections)

    def _connector(self, readonly: int, settings: dict[str, str] | None = None) -> Callable[[], _Conn]:
        params = {**(settings or {}), **({"readonly": str(readonly)} if readonly else {})}
        conn_str = f"{self._conn_str}?{urlencode(params)}" if params else self._conn_str

        def connect() -> _Conn:
            try:
                return _Conn(self._chdb.connect(conn_str), readonly)
            except RuntimeError as exc:
                raise ClickHouseError.from_engine(exc) from None

        return connect

    def setting_names(self) -> set[str]:
        """Every setting this engine knows (system.settings)."""
        rows = self._base.query("SELECT name FROM system.settings", "TabSeparated").bytes().decode()
        return set(rows.split())

    def connection(self, pool: int | str):
        """A connection of a read-only level (0, 1, 2) or of a pool added by `add_pool`."""
        return self._pools[pool].acquire()

    def close(self, timeout: float = 10.0) -> None:
        for pool in self._pools.values():
            pool.close()
        for pool in self._pools.values():
            if not pool.wait_idle(timeout):
                log.warning("closing the warehouse with queries still running")
        _close_quietly(self._base)

    # -- per-request session state

    def prepare(self, conn: _Conn, database: str, settings: dict[str, str]) -> None:
        if database != conn.database:
            self._run(conn, f"USE {quote_identifier(database)}")
            conn.database = database
        if settings != conn.settings:
            parts = []
            for name, value in settings.items():
                if conn.settings.get(name) != value:
                    if not _IDENTIFIER.match(name):
                        raise ClickHouseError(115, "UNKNOWN_SETTING", f"Unknown setting '{name}'")
                    parts.append(f"{name} = {quote_literal(value)}")
            parts.extend(f"{name} = DEFAULT" for name in conn.settings if name not in settings)
            try:
                self._run(conn, "SET " + ", ".join(parts))
            except BaseException:
                conn.broken = True
                raise
            conn.settings = dict(settings)
            if "readonly" in settings:
                conn.broken = True  # a connection made read-only cannot be reset

    @staticmethod
    def _run(conn: _Conn, sql: str, fmt: str = "TabSeparated", params: dict[str, str] | None = None):
        try:
            if params:
                return conn.handle.query(sql, fmt, params=params)
            return conn.handle.query(sql, fmt)
        except RuntimeError as exc:
            raise ClickHouseError.from_engine(exc) from None

    def query(self, conn: _Conn, sql: str | bytes, fmt: str, params: dict[str, str]):
        return self._run(conn, sql, fmt, params)

    def statement_count(self, conn: _Conn, sql: str | bytes) -> int:
        try:
            return int(conn.handle.classify_query(sql)["statement_count"])
        except Exception:  # noqa: BLE001 - let the engine report the real problem when it runs
            return 1

    def insert(self, conn: _Conn, statement: str, fmt: str, chunks: Iterable[bytes]):
        handle = conn.handle
        try:
            inserter = handle.send_insert(statement, fmt)
        except RuntimeError as exc:
            raise ClickHouseError.from_engine(exc) from None
        try:
            for chunk in chunks:
                if chunk:
                    handle.insert_append(inserter, chunk)
            return handle.insert_done(inserter)
        except BaseException as exc:
            try:
                handle.insert_cancel(inserter)
            except Exception:  # noqa: BLE001
                conn.broken = True
            if isinstance(exc, RuntimeError) and not isinstance(exc, ClickHouseError):
                raise ClickHouseError.from_engine(exc) from None
            raise
