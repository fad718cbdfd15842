"""The protocol: one HTTP request to one engine statement, and the engine's answer to a response.

`Warehouse.execute` authenticates, reads the statement (`warehouse.request`), runs it on an
engine connection of the user's read-only level (`warehouse.engine`), or for a limited user (the
analyst, `warehouse.limits`) on its own pool within its concurrency limit, a reader's only once
`warehouse.access` finds it reaches nothing outside the warehouse, and builds the response
(`warehouse.responses`). A failure is logged in one line and answered in ClickHouse's form.
"""
from __future__ import annotations

import logging
import re
import socket
import time
import uuid
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from urllib.parse import parse_qsl

from .access import ExternalAccessGuard
from .engine import ChdbEngine
from .errors import ClickHouseError
from .limits import Limited
from .query_log import QueryLog
from .request import Insert, parse_request, read_statement
from .request_body import RequestBody
from .responses import Response, error_response, header_safe, result_response
from .users import User, Users

log = logging.getLogger("warehouse.server")

# IDENTIFIED [WITH <type>] BY '<password>': the literal, even cut short by a shortened statement
_SECRET = re.compile(r"(\bBY\s+)'(?:[^'\\]|\\.)*(?:'|\\?\Z)", re.IGNORECASE)


def _one_line(sql: str | bytes, limit: int = 300) -> str:
    """A statement for a log line: one line, shortened, passwords (`... BY '...'`) hidden."""
    if isinstance(sql, bytes):
        sql = sql[: limit * 4].decode("utf-8", "replace")
    text = hide_secrets(" ".join(sql[: limit * 4].split()))
    return text if len(text) <= limit else text[: limit - 3] + "..."


def hide_secrets(text: str) -> str:
    return _SECRET.sub(r"\1'[HIDDEN]'", text)


class Warehouse:
    """Turns one HTTP request into one engine statement and the engine's answer into a response."""

    def __init__(
        self,
        engine: ChdbEngine,
        users: Iterable[User],
        *,
        compress_responses: bool = False,
        limited: dict[str, Limited] | None = None,
        query_log: QueryLog | None = None,
        guard: ExternalAccessGuard | None = None,
    ):
        self.engine = engine
        self.users = Users(users)
        self.limited = dict(limited or {})  # user name -> its limited pool and concurrency gate
        self.compress_responses = compress_responses
        self.query_log = query_log
        self.guard = guard  # readers' statements that would reach files or the network are refused
        self.display_name = header_safe(socket.gethostname())

    def execute(self, method: str, query_string: str, headers: dict[str, str], body: RequestBody) -> Response:
        """One request; `headers` has lower-case names."""
        params = dict(parse_qsl(query_string, keep_blank_values=True)) if query_string else {}
        query_id = params.get("query_id") or str(uuid.uuid4())
        user_name = "(unauthenticated)"
        sql_for_log: str | bytes = params.get("query", "")
        started = time.time()
        try:
            user = self.users.authenticate(headers, params)
            user_name = user.name
            response, sql = self._execute(method, params, headers, body, user, query_id)
            if self.query_log is not None:
                self._log(user_name, query_id, params, started, 0, sql)
            return response
        except ClickHouseError as exc:
            sql_for_log = getattr(exc, "sql", None) or sql_for_log
            if self.query_log is not None:
                self._log(user_name, query_id, params, started, exc.code, sql_for_log)
            log.warning(
                "query %s by %s failed: %s | %s",
                query_id,
                user_name,
                hide_secrets(exc.render(self.engine.version).decode("utf-8", "replace").strip()),
                _one_line(sql_for_log) or "<no query>",
            )
            return self.error_response(exc, query_id)

    def _log(self, user: str, query_id: str, params: dict[str, str], started: float, code: int,
             sql: str | bytes) -> None:
        bound = {k[6:]: v for k, v in params.items() if k.startswith("param_")}
        self.query_log.record(user=user, query_id=query_id, query=_one_line(sql, 2000), parameters=bound,
                              started=started, exception_code=code)

    def error_response(self, exc: ClickHouseError, query_id: str | None = None) -> Response:
        return error_response(exc, display_name=self.display_name, version=self.engine.version, query_id=query_id)

    def _execute(self, method: str, params: dict[str, str], headers, body: RequestBody, user: User,
                 query_id: str) -> tuple[Response, str | bytes]:
        """The response and the statement it ran."""
        request = parse_request(method, params, headers, body)
        readonly = user.readonly or (2 if method == "GET" else 0)
        statement = read_statement(request.query, request.body)
        limited = self.limited.get(user.name)
        if limited is not None and not isinstance(statement, Insert):
            limited.check(statement.keyword)

        if isinstance(statement, Insert):
            with self._connection(user, readonly) as conn:
                try:
                    self.engine.prepare(conn, request.database, request.settings)
                    result = self.engine.insert(conn, statement.sql, statement.format, statement.data)
                except ClickHouseError as exc:
                    exc.sql = statement.sql  # type: ignore[attr-defined]
                    raise
            return self._ok(result, query_id, None, request.settings), statement.sql

        with self._connection(user, readonly) as conn:
            try:
                if statement.maybe_multi_statement and self.engine.statement_count(conn, statement.sql) > 1:
                    raise ClickHouseError(62, "SYNTAX_ERROR", "Multi-statements are not allowed")
                if self.guard is not None and user.readonly:
                    self.guard.check_settings(user.name, request.settings)
                    self.guard.check(user.name, statement.sql, statement.text,
                                     lambda sql: self._explain(conn, sql, request.query_params))
                self.engine.prepare(conn, request.database, request.settings)
                if statement.changes_session:
                    conn.broken = True  # a SET/USE/temporary table would leak into later requests
                result = self.engine.query(conn, statement.sql, request.default_format, request.query_params)
            except ClickHouseError as exc:
                exc.sql = statement.sql  # type: ignore[attr-defined]
                raise
        fmt = statement.format or request.default_format
        produces = statement.returns_rows or result.size() > 0
        compressible = self.compress_responses and params.get("enable_http_compression") in ("1", "true")
        return self._ok(
            result, query_id, fmt if produces else None, request.settings,
            accept_encoding=headers.get("accept-encoding") if compressible else None,
        ), statement.sql

    def _explain(self, conn, sql: str | bytes, params: dict[str, str]) -> str:
        return self.engine.query(conn, sql, "TabSeparated", params).bytes().decode("utf-8", "replace")

    @contextmanager
    def _connection(self, user: User, readonly: int) -> Iterator:
        """An engine connection for this user's request: a limited user's comes from its own pool
        (limits fixed at connect, readonly=1) once its concurrency gate lets the query in."""
        limited = self.limited.get(user.name)
        if limited is None:
            with self.engine.connection(readonly) as conn:
                yield conn
            return
        with limited.gate.slot(), self.engine.connection(limited.pool) as conn:
            yield conn

    def _ok(self, result, query_id: str, fmt: str | None, settings: dict[str, str], *, accept_encoding: str | None = None) -> Response:
        return result_response(
            result,
            fmt,
            display_name=self.display_name,
            query_id=query_id,
            timezone=settings.get("session_timezone") or self.engine.timezone,
            accept_encoding=accept_encoding,
        )
