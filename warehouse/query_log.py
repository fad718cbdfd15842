"""The embedded warehouse's query log: one JSON line per query, the fields named as ClickHouse's
`system.query_log` names them (chDB has no system.query_log).

Off by default (WAREHOUSE_QUERY_LOG names the file to append to); the bench turns it on to count
the API's queries per route, parameters and snapshot, and an operator may turn it on to see what
runs. Statements are logged on one line with passwords hidden; parameter values are logged as
bound (they are what the query read, and never secrets).
"""
from __future__ import annotations

import threading
import time
from pathlib import Path

import orjson


class QueryLog:
    def __init__(self, path: Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file = open(self.path, "ab", buffering=0)
        self._lock = threading.Lock()

    def record(self, *, user: str, query_id: str, query: str, parameters: dict[str, str], started: float,
               exception_code: int = 0) -> None:
        """One finished query: `started` is its time.time() at arrival."""
        line = orjson.dumps({
            "event_time": round(started, 3),
            "query_duration_ms": round((time.time() - started) * 1000, 3),
            "user": user,
            "query_id": query_id,
            "query": query,
            "parameters": parameters,
            "exception_code": exception_code,
        }) + b"\n"
        with self._lock:
            self._file.write(line)

    def close(self) -> None:
        self._file.close()


def read_log(path: Path, offset: int = 0) -> tuple[list[dict], int]:
    """The entries written after byte `offset`, and the offset after them."""
    with open(path, "rb") as f:
        f.seek(offset)
        data = f.read()
    end = data.rfind(b"\n") + 1  # a line being written is read next time
    return [orjson.loads(line) for line in data[:end].splitlines() if line], offset + end
