"""One request read as ClickHouse's HTTPHandler reads it: the statement and what surrounds it.

- `parse_request`: the URL parameters split into query parameters (`param_<name>`), settings
  (every parameter the transport does not consume) and the transport's own (database, format,
  credentials...); the query text from the URL, the POST body, both, or a multipart form.
- `read_statement`: the statement assembled from the URL part and the body. `INSERT INTO <target>
  FORMAT <fmt>` is recognised from its first bytes and its data left streaming; anything else is
  read whole (up to MAX_QUERY_BODY) before an engine connection is taken.
"""
from __future__ import annotations

import email.parser
import email.policy
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from .engine import DEFAULT_DATABASE
from .errors import ClickHouseError
from .request_body import RequestBody, decoded

DEFAULT_FORMAT = "TabSeparated"
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


@dataclass
class Request:
    """What a request asks besides its user: the query text outside the body, and the body."""

    query: str  # from the URL or a multipart form; the body, if any, continues it
    body: Iterable[bytes]  # decompressed pieces (empty for GET and forms)
    query_params: dict[str, str]
    settings: dict[str, str]
    database: str
    default_format: str


def parse_request(method: str, params: dict[str, str], headers: dict[str, str], body: RequestBody) -> Request:
    """`headers` has lower-case names. A multipart form is read whole here, as ClickHouse does."""
    if params.get("compress") in ("1", "true") or params.get("decompress") in ("1", "true"):
        raise ClickHouseError(48, "NOT_IMPLEMENTED", "ClickHouse's internal compression (compress/decompress=1) is not supported")
    query = params.get("query", "")
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
            query = _read_form(content_type, body, query, query_params)
        else:
            chunks = decoded(body, headers.get("content-encoding", ""))
    return Request(query, chunks, query_params, settings, database, default_format)


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


@dataclass
class Insert:
    """`INSERT INTO <target> FORMAT <fmt>` and its data, still streaming from the body."""

    sql: str  # `INSERT INTO <target>`: the statement without its FORMAT clause and data
    format: str
    data: Iterator[bytes]


@dataclass
class Query:
    """Any other statement, read whole."""

    sql: str | bytes  # bytes when not valid UTF-8: the engine reports that, not the server
    text: str  # the same, decoded for inspection
    keyword: str  # the first keyword, upper-case ("(" for a parenthesised SELECT)
    start: int  # where it starts in `text`, past comments

    @property
    def changes_session(self) -> bool:
        """SET, USE, a transaction or a temporary table: state that would outlive the request."""
        return self.keyword in _SESSION_KEYWORDS or bool(_TEMPORARY.match(self.text, self.start))

    @property
    def maybe_multi_statement(self) -> bool:
        """A cheap pre-check: only then is the engine asked to count statements."""
        return ";" in self.text.rstrip().rstrip(";")

    @property
    def format(self) -> str | None:
        """The trailing FORMAT clause's format, if any."""
        m = _FORMAT_TAIL.search(self.text[-256:])
        return m.group(1) if m else None

    @property
    def returns_rows(self) -> bool:
        return self.keyword in _RESULT_KEYWORDS or self.keyword == "("


def read_statement(query: str, body: Iterable[bytes]) -> Insert | Query:
    """The statement: the URL part, a newline, then the body."""
    head = bytearray(query.encode("utf-8"))
    it = iter(body)
    exhausted = False
    if head:
        head += b"\n"
    insert = None
    while _could_be_insert(head):  # look for `INSERT INTO <target> FORMAT <fmt>\n` at the start
        m = _INSERT_HEAD.match(head, 0, INSERT_HEAD_LIMIT)
        if m and (m.group("nl") == b"\n" or exhausted):
            if _is_insert_target(m.group("target")):
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
        return Insert(sql, insert.group("fmt").decode("ascii"), _prepend(bytes(head[insert.end() :]), it))

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
    return Query(sql_text, text, keyword, start)


def _first_keyword(sql: str) -> tuple[str, int]:
    pos = _LEADING_NOISE.match(sql).end()
    m = _KEYWORD.match(sql, pos)
    if m:
        return m.group(0).upper(), pos
    return ("(" if sql[pos : pos + 1] == "(" else ""), pos


def _could_be_insert(head: bytes | bytearray) -> bool:
    stripped = bytes(head[:64]).lstrip()
    if not stripped and len(head) >= 64:
        stripped = bytes(head[:4096]).lstrip()
    probe = stripped[:6].upper()
    return b"INSERT".startswith(probe) if len(probe) < 6 else probe == b"INSERT"


def _is_insert_target(target: bytes) -> bool:
    return not _NOT_A_TARGET.search(_QUOTED.sub(b"x", target))


def _prepend(first: bytes, rest: Iterator[bytes]) -> Iterator[bytes]:
    if first:
        yield first
    yield from rest
