"""What goes back: the Response, the content type of each format, ClickHouse's X-ClickHouse-*
headers, and the optional compression of a result body (Accept-Encoding).

The result itself is the engine's, already in the requested format: it is sent as it is, from
the engine's own buffer (no copy) unless it is compressed.
"""
from __future__ import annotations

import gzip
import json
import re
import zlib
from dataclasses import dataclass
from typing import Any

from .errors import ClickHouseError

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


def header_safe(value: str) -> str:
    return re.sub(r"[^\x20-\x7e]", "_", value)[:256]


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


def result_response(
    result: Any,
    fmt: str | None,
    *,
    display_name: str,
    query_id: str,
    timezone: str,
    accept_encoding: str | None = None,
) -> Response:
    """200 with the engine's `result`: its body in `fmt`, or no body when `fmt` is None (a
    statement that returns nothing). `accept_encoding` only when compression is enabled."""
    out = [
        ("X-ClickHouse-Server-Display-Name", display_name),
        ("X-ClickHouse-Query-Id", header_safe(query_id)),
        ("X-ClickHouse-Timezone", timezone),
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
    if body and accept_encoding:
        compressed, encoding = _compress(bytes(body), accept_encoding)
        if encoding:
            body, keep = compressed, None
            out.append(("Content-Encoding", encoding))
    return Response(200, out, body, keep)


def error_response(exc: ClickHouseError, *, display_name: str, version: str, query_id: str | None = None) -> Response:
    headers = [
        ("Content-Type", "text/plain; charset=UTF-8"),
        ("X-ClickHouse-Server-Display-Name", display_name),
        ("X-ClickHouse-Exception-Code", str(exc.code)),
    ]
    if query_id:
        headers.append(("X-ClickHouse-Query-Id", header_safe(query_id)))
    return Response(exc.status, headers, exc.render(version))
