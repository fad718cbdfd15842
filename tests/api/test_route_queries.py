"""Each route names the query files its handler runs (`@runs`, Route.sql): every named file exists,
every file of a family is some route's (or the snapshot pointer's), a handler cannot run a file
it does not name, and a family whose handler names a missing file does not start."""
from __future__ import annotations

import asyncio
import dataclasses
from types import SimpleNamespace

import pytest

from ve_analytics.api.app import FAMILIES, load_family
from ve_analytics.api.pipeline import blueprint
from ve_analytics.api.routes import RequestContext, Route, UndeclaredQuery, runs
from ve_analytics.api.snapshots import LATEST_SNAPSHOT
from ve_analytics.api.sql import QueryBook
from ve_analytics.warehouse import sqlbook


@pytest.mark.parametrize("name", list(FAMILIES))
def test_every_named_file_exists_and_every_file_is_named(name):
    family, book = load_family(name), QueryBook(name)
    named = {f for route in family.routes for f in route.sql}
    assert named <= book.queries.keys(), named - book.queries.keys()
    folder = f"queries/{name}"
    own = {f.name for f in sqlbook.files_in(folder)} if sqlbook.folder(folder).is_dir() else set()
    assert own - named <= {LATEST_SNAPSHOT}, f"files no route runs: {sorted(own - named - {LATEST_SNAPSHOT})}"


def test_a_shared_handler_names_each_routes_own_files():
    v1 = {route.path: route.sql for route in load_family("v1").routes}
    assert v1["/tokens"] == ("protocol", "protocol_flows", "tokens", "tokens_facets")
    assert v1["/pools"] == ("protocol", "protocol_flows", "pools", "pools_facets")
    assert v1["/deployments"] == ()  # from the chain book alone


def _probe(*files: str) -> Route:
    """A route whose handler names `files` and runs tokens.sql."""
    @runs(*files)
    async def reads_tokens(ctx: RequestContext):
        return await ctx.rows("tokens")

    return Route("/probe", "probe", reads_tokens, "probe", {"type": "object"})


def test_a_handler_cannot_run_a_file_it_does_not_name():
    def no_warehouse():
        raise AssertionError("the warehouse was reached before the declaration was checked")

    app = SimpleNamespace(ctx=SimpleNamespace(client=None, connect=no_warehouse))
    route = _probe("protocol")
    ctx = RequestContext(app, route, {}, None, 56, QueryBook("stats"))  # type: ignore[arg-type]
    with pytest.raises(UndeclaredQuery, match=r"/probe ran tokens\.sql, which its handler's @runs\('protocol',\) does not list"):
        asyncio.run(route.handler(ctx))


def test_a_family_naming_a_missing_file_does_not_start():
    family = load_family("stats")
    broken = dataclasses.replace(family, routes=(*family.routes, _probe("protocol", "no_such_query")))
    with pytest.raises(ValueError, match=r"family stats: no such query file: /probe: no_such_query\.sql"):
        blueprint(broken, QueryBook("stats"))
