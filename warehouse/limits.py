"""The operator's limits on the read-only analyst, as the embedded warehouse enforces them.

- `AnalystLimits`: the ANALYST_* settings (execution time, memory, result rows, concurrent
  queries, threads, CPU priority) and the ClickHouse settings that carry them.
- `Limited`: what the server keeps per limited user: the engine pool whose connections are
  opened with those settings and `readonly=1`, and a `ConcurrencyGate`.
- `limit_analyst(settings, engine)`: registers that pool and returns {analyst name: Limited}.
- `Limited.check(keyword)`: refuses the statements readonly=1 lets through that act on the whole
  engine (every engine connection is chDB's one internal user): `KILL QUERY` would end the
  API's queries, `SYSTEM STOP MERGES` stop everyone's merges. ClickHouse answers a user without
  those grants with ACCESS_DENIED (497, HTTP 403); so does this.

Why this cannot be lifted: the settings are part of the engine connection itself (chDB's
connection-string settings, applied when the session opens), and the session is `readonly=1`,
in which ClickHouse refuses every change of a setting, whether by SET, by URL parameter (the
server turns those into SET) or by a SETTINGS clause in the query: `Code: 164 ... (READONLY)`.
A SETTINGS clause inside a subquery is accepted but has no effect: the limits still hold.
The read-write user and the API's reader run on other pools and are not limited.

Concurrency is counted here, not by the engine: every engine connection is chDB's one internal
user, so ClickHouse's `max_concurrent_queries_for_user` would count the API's queries too. Past
the limit the analyst gets ClickHouse's own answer, at once: `TOO_MANY_SIMULTANEOUS_QUERIES`
(202, HTTP 500).
"""
from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from ..core.config import Settings
from .engine import ChdbEngine
from .errors import ClickHouseError

log = logging.getLogger("warehouse.server")

ANALYST_POOL = "analyst"
# first keyword of a statement -> the grant ClickHouse would ask for
_ENGINE_WIDE = {"KILL": "KILL QUERY", "SYSTEM": "SYSTEM"}


@dataclass(frozen=True)
class AnalystLimits:
    """0 means no limit (ClickHouse's convention), for every field."""

    max_execution_seconds: float
    max_memory_bytes: int
    max_result_rows: int
    max_concurrent_queries: int
    max_threads: int
    os_thread_priority: int  # nice value of the query's threads, 0..19

    @classmethod
    def from_settings(cls, settings: Settings) -> AnalystLimits:
        return cls(
            max_execution_seconds=settings.analyst_max_execution_seconds,
            max_memory_bytes=settings.analyst_max_memory_bytes,
            max_result_rows=settings.analyst_max_result_rows,
            max_concurrent_queries=settings.analyst_max_concurrent_queries,
            max_threads=settings.analyst_max_threads,
            os_thread_priority=settings.analyst_os_thread_priority,
        )

    def engine_settings(self) -> dict[str, str]:
        """The ClickHouse settings of an analyst session. The overflow modes are pinned to
        `throw`, so a limit is an error the analyst sees, never a silently truncated result."""
        out: dict[str, str] = {}
        if self.max_execution_seconds:
            out["max_execution_time"] = f"{self.max_execution_seconds:g}"
            out["timeout_overflow_mode"] = "throw"
        if self.max_memory_bytes:
            out["max_memory_usage"] = str(self.max_memory_bytes)
        if self.max_result_rows:
            out["max_result_rows"] = str(self.max_result_rows)
            out["result_overflow_mode"] = "throw"
        if self.max_threads:
            out["max_threads"] = str(self.max_threads)
        if self.os_thread_priority:
            out["os_thread_priority"] = str(self.os_thread_priority)
        return out


class ConcurrencyGate:
    """At most `maximum` queries of one user at once (0: no limit); beyond, error 202 at once."""

    def __init__(self, user: str, maximum: int):
        self.user = user
        self.maximum = maximum
        self._running = 0
        self._lock = threading.Lock()

    @contextmanager
    def slot(self) -> Iterator[None]:
        with self._lock:
            if self.maximum and self._running >= self.maximum:
                raise ClickHouseError(
                    202,
                    "TOO_MANY_SIMULTANEOUS_QUERIES",
                    f"Too many simultaneous queries for user {self.user}. "
                    f"Current: {self._running}, maximum: {self.maximum}",
                )
            self._running += 1
        try:
            yield
        finally:
            with self._lock:
                self._running -= 1


@dataclass(frozen=True)
class Limited:
    """A limited user's engine pool and its concurrency gate."""

    pool: str
    gate: ConcurrencyGate
    limits: AnalystLimits

    def check(self, keyword: str) -> None:
        """Refuse an engine-wide statement (its first keyword, upper-case) before it runs."""
        grant = _ENGINE_WIDE.get(keyword)
        if grant is not None:
            raise ClickHouseError(
                497,
                "ACCESS_DENIED",
                f"{self.gate.user}: Not enough privileges. To execute this query, "
                f"it's necessary to have the grant {grant} ON *.*",
            )


def limit_analyst(settings: Settings, engine: ChdbEngine) -> dict[str, Limited]:
    """Give the analyst (when configured apart from the read-write user) its own limited pool."""
    name = settings.analyst_user
    if not name or name == (settings.clickhouse_user or "default"):
        return {}
    limits = AnalystLimits.from_settings(settings)
    wanted = limits.engine_settings()
    known = engine.setting_names()
    for missing in sorted(set(wanted) - known):  # an engine without one: the others still hold
        log.warning("the engine (chDB %s) has no setting %s; the analyst runs without it", engine.version, missing)
    applied = {k: v for k, v in wanted.items() if k in known}
    engine.add_pool(ANALYST_POOL, 1, applied, limits.max_concurrent_queries or None)
    log.info(
        "analyst '%s' limited: %s, at most %s concurrent queries",
        name,
        ", ".join(f"{k}={v}" for k, v in applied.items()) or "no engine limits",
        limits.max_concurrent_queries or "unlimited",
    )
    return {name: Limited(ANALYST_POOL, ConcurrencyGate(name, limits.max_concurrent_queries), limits)}
