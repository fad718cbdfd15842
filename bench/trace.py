"""Which SQL files a route's handler runs, with which bound values: found by running the handler.

`trace_route(...)` parses the request exactly as the API does (the route's `ParamParser`),
builds the API's own `RequestContext` and awaits the route's handler, with a `QueryBook` that
records every `(file, bound parameters)` it is asked to run and runs it through a sync
clickhouse-connect client (handlers whose later query depends on an earlier result still get
real rows). The request context refuses a file the handler's @runs does not declare, and the
bench requires the record to be every declared file, so the "raw SQL" figure is what the handler
does, with no table kept by hand.

A multichain route's coverage is resolved as the API resolves it (api/coverage.py): the chains of
its feature and, on a route that rests on the curation, the latest curation publication read as
the API's CurationFollower reads it; a paginated route gets the API's cursor codec (the secrets of
Settings.cursor_secrets, so a cursor the API issued verifies here and the reverse).
"""
from __future__ import annotations

import asyncio
import re
import time
from types import SimpleNamespace
from typing import Any
from urllib.parse import urlsplit

import orjson

from ve_analytics.api.coverage import Coverage, resolve
from ve_analytics.api.curation import CURATION_DOCUMENT, LATEST_CURATION, Curation, CurationFollower
from ve_analytics.api.cursors import codec_for
from ve_analytics.api.pipeline import selected_chains
from ve_analytics.api.routes import Family, RequestContext, Route
from ve_analytics.api.snapshots import LATEST_SNAPSHOT, LATEST_SNAPSHOTS, Snapshot
from ve_analytics.api.sql import JSON_FORMAT, JSON_SETTINGS, QueryBook, to_columns, to_dicts
from ve_analytics.api.validation import ParamParser

Call = tuple[str, dict[str, Any]]  # (query file stem, parameters exactly as bound)


class RecordingBook(QueryBook):
    """A QueryBook whose `rows`, `columns` and `json` record the call and run it on a sync client."""

    def __init__(self, family: str):
        super().__init__(family)
        self.calls: list[Call] = []

    def _record(self, name: str, values: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        """The file's text and its bound values, recorded."""
        query = self.queries[name]
        bound = query.bind(values)
        self.calls.append((name, bound))
        return query.text, bound

    def _run(self, client: Any, name: str, values: dict[str, Any]) -> Any:
        text, bound = self._record(name, values)
        return client.query(text, parameters=bound)

    async def rows(self, client: Any, name: str, values: dict[str, Any]) -> list[dict[str, Any]]:
        result = self._run(client, name, values)
        return to_dicts(result.column_names, result.column_types, result.result_rows)

    async def columns(self, client: Any, name: str, values: dict[str, Any]) -> dict[str, list[Any]]:
        result = self._run(client, name, values)
        return to_columns(result.column_names, result.column_types, result.result_columns)

    async def json(self, client: Any, name: str, values: dict[str, Any]) -> Any:
        text, bound = self._record(name, values)
        return orjson.Fragment(client.raw_query(text, parameters=bound, settings=JSON_SETTINGS, fmt=JSON_FORMAT))


class _Unkept:
    """The worker's memo as a traced handler sees it: what it memoizes (a live chain read) is read."""

    async def get(self, key: Any, ttl: float, compute: Any) -> Any:
        return await compute()


def resolve_snapshot(client: Any, book: QueryBook, chain_id: int) -> Snapshot:
    """The chain's latest snapshot (what the API's snapshot pointer holds), on a sync client."""
    query = book[LATEST_SNAPSHOT]
    rows = client.query(query.text, parameters=query.bind({"chain_id": chain_id})).result_rows
    if not rows:
        raise RuntimeError("no successful snapshot in the warehouse")
    return Snapshot.from_row(*rows[0])


class _AwaitedClient:
    """A sync clickhouse-connect client behind the awaited `query` the API's followers call."""

    def __init__(self, client: Any):
        self.client = client

    async def query(self, text: str, parameters: dict | None = None) -> Any:
        return self.client.query(text, parameters=parameters)


def resolve_curation(client: Any, book: QueryBook) -> Curation | None:
    """The latest curation publication, read as each API worker's follower reads it
    (api/curation.py CurationFollower: latest_curation.sql, then curation_document.sql)."""
    follower = CurationFollower(book[LATEST_CURATION], book[CURATION_DOCUMENT])
    asyncio.run(follower.refresh(_AwaitedClient(client)))
    return follower.current


def resolve_coverage(client: Any, book: QueryBook, settings: Any, selected: tuple[int, ...],
                     route: Route | None = None) -> Coverage:
    """The coverage a multichain route's answer rests on (what the API's pointer and api/coverage.py
    give it), at this moment: with the route's feature (the chains serving it) and, on a route
    that rests on the curation, the latest curation publication."""
    rows = client.query(book[LATEST_SNAPSHOTS].text).result_rows
    latest = {int(chain_id): Snapshot.from_row(*row) for chain_id, *row in rows}
    feature = route.feature if route is not None else None
    serving = tuple(c for c in settings.chains if settings.chains[c].supports(feature)) if feature else ()
    needs_curation = bool(route is not None and route.curation)
    curation = resolve_curation(client, book) if needs_curation else None
    return resolve(selected, tuple(settings.chains), latest, time.time(), settings.stale_after_minutes * 60,
                   feature, serving, curation, needs_curation)


def match_route(family: Family, url: str) -> tuple[Route, dict[str, str], str]:
    """The family route serving `url` (path under family.prefix), its path arguments and query string."""
    parts = urlsplit(url)
    path = parts.path
    if not path.startswith(family.prefix):
        raise ValueError(f"{url} is not under {family.prefix}")
    rest = path[len(family.prefix):]
    for route in family.routes:
        pattern = re.sub(r"\\\{([A-Za-z_][A-Za-z0-9_]*)\\\}", r"(?P<\1>[^/]+)", re.escape(route.path))
        m = re.fullmatch(pattern, rest)
        if m:
            return route, m.groupdict(), parts.query
    raise ValueError(f"no route of {family.prefix} serves {path}")


def trace_route(family: Family, url: str, client: Any, settings: Any) -> tuple[Route, Snapshot | None, list[Call]]:
    """Run the handler of `url` once; return its route, the snapshot it read (None on a multichain
    route, which reads the coverage of its chains) and its SQL calls."""
    route, path_args, query_string = match_route(family, url)
    book = RecordingBook(family.name)
    params = ParamParser(route.params).parse(query_string, path_args)
    snapshot = resolve_snapshot(client, book, family.chain_id) if route.snapshot and not route.multichain else None
    selected = selected_chains(params, route.rests_on(settings.chains) if route.rests_on else ())
    covered = resolve_coverage(client, book, settings, selected, route) if route.multichain else None
    cursors = codec_for(settings.cursor_secrets) if route.paginated else None  # the API's own secrets (VEA_DATA_DIR)
    app = SimpleNamespace(ctx=SimpleNamespace(client=client, settings=settings, cursors=cursors, memo=_Unkept(),
                                              chain_readers={}))
    ctx = RequestContext(app, route, params, snapshot, family.chain_id, book, coverage=covered)  # type: ignore[arg-type]
    asyncio.run(route.handler(ctx))
    return route, snapshot, book.calls
