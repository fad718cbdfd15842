"""What reaches outside the warehouse is for the read-write user only.

The engine's read-only levels stop writes, not reads of the machine: under `readonly=1` and
`readonly=2` chDB still runs the scalar `file('/etc/...')`, the table functions that read files,
URLs, object stores and other databases (`file`, `url`, `s3`, `remote`, `mysql`, `filesystem`,
`python`...), and writes `INTO OUTFILE`. Every engine connection is chDB's one internal user, so
ClickHouse's grants (READ ON FILE, URL, S3, REMOTE...) cannot tell the users apart; this does,
before a reader's statement runs:

- table functions: an allow-list of the ones that only make rows (`numbers`, `values`, `view`...);
  every other name the engine lists in `system.table_functions` is refused, whatever its case,
  quoting or the comments around it;
- scalar functions that read files (`file`);
- `INTO OUTFILE`;
- the settings that name a file to read or write (`format_schema`, `output_format_schema`...): the
  engine runs as clickhouse-local does, so their paths are not confined to a schema folder.

Exactness comes from the engine's own parser: the statement's `EXPLAIN AST` names every function
it calls. The verdict is cached by statement text (the API repeats a few parameterized statements:
they pay a dictionary lookup), and a statement whose text names none of the refused functions where
an identifier starts, has no backslash (a backquoted name may hide one in escapes) and is ASCII is
not parsed at all.
A refusal is ClickHouse's ACCESS_DENIED (497, HTTP 403), naming the function.
"""
from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable

from .errors import ClickHouseError

# Table functions that read nothing but the query and the warehouse's own tables.
ALLOWED_TABLE_FUNCTIONS = frozenset(name.lower() for name in (
    "numbers", "numbers_mt", "zeros", "zeros_mt", "generateRandom", "generateSeries", "generate_series",
    "primes", "values", "SQLStandardValues", "null", "view", "viewIfPermitted", "viewExplain", "merge",
    "format",
))
# Scalar functions that read the machine's files.
DENIED_SCALAR_FUNCTIONS = frozenset({"file", "catboostevaluate"})
# The grant a production ClickHouse asks for, by family (README: readers get none of them).
# Settings whose value is a path the engine reads (schemas, templates) or writes.
DENIED_READER_SETTINGS = frozenset({
    "format_schema", "format_template_resultset", "format_template_row", "output_format_schema",
    "input_format_record_errors_file_path",
})
_GRANTS = (("file", "READ ON FILE"), ("filesystem", "READ ON FILE"), ("url", "READ ON URL"),
           ("s3", "READ ON S3"), ("remote", "REMOTE"), ("cluster", "REMOTE"))
_EXPLAIN = "EXPLAIN AST "
_FUNCTION_NODE = re.compile(r"^ *Function (\S+)", re.MULTILINE)
_POSITION = re.compile(r"(position )(\d+)")
CACHE_ENTRIES = 4096


def _grant(name: str) -> str:
    for prefix, grant in _GRANTS:
        if name.lower().startswith(prefix):
            return grant
    return name.upper()


def access_denied(user: str, what: str) -> ClickHouseError:
    return ClickHouseError(
        497, "ACCESS_DENIED",
        f"{user}: Not enough privileges. {what} reaches outside the warehouse (the filesystem or the "
        f"network) and is for the read-write user only",
    )


class ExternalAccessGuard:
    """Refuses a reader's statement that would reach files or the network (see the module)."""

    def __init__(self, table_functions: Iterable[str]):
        names = {name.lower() for name in table_functions}
        self.denied = frozenset(names - ALLOWED_TABLE_FUNCTIONS) | DENIED_SCALAR_FUNCTIONS
        # a name where a function name can start (not inside a longer identifier such as subgraph_url)
        self._mentions = re.compile(r"(?<![\w])(?:%s)" % "|".join(map(re.escape, sorted(self.denied, key=len, reverse=True))))
        self._verdicts: dict[str | bytes, str | None] = {}  # statement -> refused function, or None
        self._lock = threading.Lock()

    def check(self, user: str, sql: str | bytes, text: str, explain: Callable[[str | bytes], str]) -> None:
        """Raise ACCESS_DENIED if the statement reaches outside. `text`: the statement decoded;
        `explain(statement)`: the engine's `EXPLAIN AST` output (TabSeparated) for it."""
        verdict = self._verdicts.get(sql, False)
        if verdict is False:
            verdict = self._judge(sql, text, explain)
            with self._lock:
                if len(self._verdicts) >= CACHE_ENTRIES:
                    self._verdicts.clear()
                self._verdicts[sql] = verdict
        if verdict == "INTO OUTFILE":
            raise access_denied(user, "INTO OUTFILE")
        if verdict is not None:
            raise access_denied(user, f"The function {verdict}() (grant {_grant(verdict)})")

    def check_settings(self, user: str, settings: Iterable[str]) -> None:
        """Raise ACCESS_DENIED if a reader sets a setting that names a file (DENIED_READER_SETTINGS)."""
        for name in settings:
            if name.lower() in DENIED_READER_SETTINGS:
                raise access_denied(user, f"The setting {name} (a file path)")

    def _judge(self, sql: str | bytes, text: str, explain: Callable[[str | bytes], str]) -> str | None:
        lowered = text.lower()
        if "outfile" in lowered:  # a keyword cannot be quoted or escaped: the text is enough
            return "INTO OUTFILE"
        if lowered.isascii() and "\\" not in lowered and not self._mentions.search(lowered):
            return None
        statement = _EXPLAIN + sql if isinstance(sql, str) else _EXPLAIN.encode() + sql
        try:
            tree = explain(statement)
        except ClickHouseError as exc:
            raise _unshifted(exc) from None  # the statement itself does not parse: say why
        for name in _FUNCTION_NODE.findall(tree):
            if name.lower() in self.denied:
                return name
        return None


def _unshifted(exc: ClickHouseError) -> ClickHouseError:
    """The engine's error about `EXPLAIN AST <statement>` as it would be about the statement."""
    def back(m: re.Match) -> str:
        return f"{m.group(1)}{max(0, int(m.group(2)) - len(_EXPLAIN))}"

    text = _POSITION.sub(back, exc._text) if exc._text is not None else None
    return ClickHouseError(exc.code, exc.name, _POSITION.sub(back, exc.message), text=text)


def guard_for(engine) -> ExternalAccessGuard:
    """A guard knowing every table function this engine has (`system.table_functions`)."""
    with engine.connection(0) as conn:
        result = engine.query(conn, "SELECT name FROM system.table_functions", "TabSeparated", {})
    return ExternalAccessGuard(result.bytes().decode().split())
