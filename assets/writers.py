"""The one shared warehouse worker behind every asset: load SQL files, insert columns, run transforms.

- SQL lives in `warehouse_sql/transforms/` as one statement per file with ClickHouse
  `{name:Type}` parameters; values never enter SQL text. Times are passed as Unix seconds
  (`{x_ts:Int64}`) so no client/server time-zone conversion can shift them.
- An insert is one columnar (Native format) batch per table per run, carrying an
  `insert_deduplication_token` derived from asset + partition range + a hash of the payload:
  a retried identical insert is dropped by the server (the tables set
  `non_replicated_deduplication_window`), a changed payload gets a new token and replaces the old
  rows through ReplacingMergeTree (reads use FINAL).
- ClickHouse settings for these writes are in `WRITE_SETTINGS`, here and nowhere else.
"""
from __future__ import annotations

import hashlib
from collections import defaultdict
from typing import Any, Mapping, Sequence

from ..warehouse import sqlbook

# Every insert and INSERT ... SELECT of the assets runs with these settings.
WRITE_SETTINGS: dict[str, Any] = {
    "insert_deduplicate": 1,  # honour insert_deduplication_token (tables set a dedup window)
    "async_insert": 0,  # the asset's success means the rows are stored
}
# Reads of the assets and checks (FINAL reads of ReplacingMergeTree tables).
READ_SETTINGS: dict[str, Any] = {}


def load_sql(name: str) -> str:
    """Text of `warehouse_sql/transforms/<name>` (e.g. "rollups/protocol_daily.sql")."""
    return sqlbook.sql(f"transforms/{name}").text


def payload_hash(columns: Mapping[str, Sequence[Any]]) -> str:
    h = hashlib.blake2b(digest_size=16)
    for name in sorted(columns):
        h.update(name.encode())
        h.update(b"\x00")
        h.update(repr(list(columns[name])).encode())
        h.update(b"\x01")
    return h.hexdigest()


def dedup_token(asset: str, partition_range: str, table: str, columns: Mapping[str, Sequence[Any]]) -> str:
    """`<asset>/<table>/<range>/<payload hash>`: same data for the same range -> same token."""
    return f"{asset}/{table}/{partition_range}/{payload_hash(columns)}"


def insert_columns(
    client,
    table: str,
    columns: Mapping[str, Sequence[Any]],
    *,
    asset: str,
    partition_range: str,
) -> int:
    """Insert a columnar batch (dict of equal-length lists) in one request; returns row count."""
    names = list(columns)
    if not names:
        return 0
    lengths = {len(columns[n]) for n in names}
    if len(lengths) != 1:
        raise ValueError(f"{table}: columns of different lengths {sorted(lengths)}")
    rows = lengths.pop()
    if rows == 0:
        return 0
    settings = {
        **WRITE_SETTINGS,
        "insert_deduplication_token": dedup_token(asset, partition_range, table, columns),
    }
    client.insert(
        table,
        [list(columns[n]) for n in names],
        column_names=names,
        column_oriented=True,
        settings=settings,
    )
    return rows


def run_transform(client, name: str, params: Mapping[str, Any], *, dedup_token: str | None = None):
    """Run one INSERT ... SELECT file with server-side parameters; returns the query summary
    (clickhouse-connect QuerySummary: written_rows etc.). With `dedup_token` (derived from the
    asset, the range and a fingerprint of the source rows) a repeated identical run is dropped."""
    settings = dict(WRITE_SETTINGS)
    if dedup_token:
        settings["insert_deduplication_token"] = dedup_token
    return client.command(load_sql(name), parameters=dict(params), settings=settings)


def query_rows(client, name: str, params: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Run one SELECT file; rows as dicts."""
    result = client.query(load_sql(name), parameters=dict(params), settings=dict(READ_SETTINGS))
    return list(result.named_results())


def query_columns(client, name: str, params: Mapping[str, Any]) -> dict[str, list[Any]]:
    """Run one SELECT file; columns as lists (for range loads of thousands of rows)."""
    result = client.query(load_sql(name), parameters=dict(params), settings=dict(READ_SETTINGS))
    # An empty result may arrive without a header block (no column names at all), so any
    # column of an empty result reads as an empty list.
    columns: dict[str, list[Any]] = defaultdict(list)
    columns.update((col_name, list(col)) for col_name, col in zip(result.column_names, result.result_columns))
    return columns
