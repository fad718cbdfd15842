"""An API family's queries: `warehouse_sql/queries/<family>/<handler>.sql` from the SQL book.

Each file declares its values as ClickHouse server-side parameters (`{name:Type}`); the book
binds exactly those through the client's `parameters=`, so user text never enters SQL text.
Results come back as dicts keyed by the column aliases (`rows`; `columns`: one list per alias),
with DateTime columns printed by `core.epochs.iso` (read back with `unix_seconds`) and Date
columns as YYYY-MM-DD, or,
for a route that serves a query's rows as they are, as the JSON array ClickHouse itself writes
(`json`): no Python object per row, so a large answer costs about its SQL. JSON_SETTINGS make that
output what `rows` + orjson would write for the same rows: DateTime as `...Z` (a file served this
way prints DateTime64 columns through `toDateTime`), 64-bit integers as numbers, NaN and infinity
as null, named tuples as objects.
"""
from __future__ import annotations

from datetime import date, datetime, timezone
from typing import Any, Callable

import orjson

from ..core.epochs import iso
from ..warehouse import sqlbook
from ..warehouse.sqlbook import SqlFile
from .offload import off_loop


JSON_FORMAT = "JSONEachRow"
JSON_SETTINGS = {
    "output_format_json_array_of_rows": 1,
    "date_time_output_format": "iso",
    "output_format_json_quote_64bit_integers": 0,
    "output_format_json_quote_denormals": 0,
    "output_format_json_escape_forward_slashes": 0,
    "output_format_json_named_tuples_as_objects": 1,
}


# a result this long becomes dicts off the event loop (api/offload.py); a shorter one costs less than the hand-off
OFF_LOOP_ROWS = 256
COMMON = "common"  # queries every family may run (snapshot pointer, chain health)


class QueryBook:
    """All query files of one API family (`warehouse_sql/queries/<family>/`, which a family that
    runs only common queries may lack) and the common ones (`warehouse_sql/queries/common/`),
    keyed by handler name; a family's file named like a common one would be ambiguous: refused."""

    def __init__(self, family: str):
        self.family = family
        own_folder = sqlbook.folder(f"queries/{family}")
        own = {f.name: f for f in sqlbook.files_in(f"queries/{family}")} if family != COMMON and own_folder.is_dir() else {}
        common = {f.name: f for f in sqlbook.files_in(f"queries/{COMMON}")}
        clash = sorted(own.keys() & common.keys())
        if clash:
            raise ValueError(f"queries/{family} repeats common queries: {', '.join(clash)}")
        self.queries: dict[str, SqlFile] = {**common, **own}

    def __getitem__(self, name: str) -> SqlFile:
        return self.queries[name]

    async def rows(self, client: Any, name: str, values: dict[str, Any]) -> list[dict[str, Any]]:
        """Run one query file with server-side parameters; rows as dicts of JSON-ready values."""
        query = self.queries[name]
        result = await client.query(query.text, parameters=query.bind(values))
        rows = result.result_rows
        if len(rows) < OFF_LOOP_ROWS:
            return to_dicts(result.column_names, result.column_types, rows)
        return await off_loop(to_dicts, result.column_names, result.column_types, rows)

    async def columns(self, client: Any, name: str, values: dict[str, Any]) -> dict[str, list[Any]]:
        """What `rows` returns, as one list per column alias: for a long result read column by
        column (no dict per row; the client reads the warehouse's columns as they come)."""
        query = self.queries[name]
        result = await client.query(query.text, parameters=query.bind(values))
        return to_columns(result.column_names, result.column_types, result.result_columns)

    async def json(self, client: Any, name: str, values: dict[str, Any]) -> orjson.Fragment:
        """Run one query file; its rows as one JSON array written by the warehouse, embedded as is
        in the response body (orjson.Fragment)."""
        query = self.queries[name]
        body = await client.raw_query(query.text, parameters=query.bind(values), settings=JSON_SETTINGS, fmt=JSON_FORMAT)
        return orjson.Fragment(body)


def to_columns(names: tuple[str, ...], types: tuple[Any, ...], columns: Any) -> dict[str, list[Any]]:
    """A result's columns by alias, each converted as `to_dicts` converts its values (an empty
    result: each alias with no value)."""
    if not columns:
        columns = [[] for _ in names]
    out = {}
    for name, kind, values in zip(names, types, columns, strict=True):
        conv = _converter(kind.name)
        out[name] = list(values) if conv is None else [conv(v) for v in values]
    return out


def _datetime_text(value: datetime | None) -> str | None:
    if value is None:
        return None
    if value.tzinfo is None:  # clickhouse-connect returns UTC columns as naive UTC
        value = value.replace(tzinfo=timezone.utc)
    return iso(value)


def unix_seconds(text: str) -> int:
    """The Unix seconds of a DateTime value as this module prints it (ISO 8601 with a Z suffix)."""
    return int(datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp())


def _date_text(value: date | None) -> str | None:
    return None if value is None else value.isoformat()


def _converter(type_name: str) -> Callable[[Any], Any] | None:
    base = type_name[len("Nullable(") : -1] if type_name.startswith("Nullable(") else type_name
    if base.startswith("DateTime"):
        return _datetime_text
    if base in ("Date", "Date32"):
        return _date_text
    return None


def to_dicts(names: tuple[str, ...], types: tuple[Any, ...], rows: list[tuple]) -> list[dict[str, Any]]:
    converters = [(i, conv) for i, t in enumerate(types) if (conv := _converter(t.name)) is not None]
    if not converters:
        return [dict(zip(names, row, strict=True)) for row in rows]
    out = []
    for row in rows:
        values = list(row)
        for i, conv in converters:
            values[i] = conv(values[i])
        out.append(dict(zip(names, values, strict=True)))
    return out
