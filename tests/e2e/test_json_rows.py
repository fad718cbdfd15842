"""Routes that serve a query's rows as the warehouse writes them (`RequestContext.json`) answer
exactly what the Python path (`rows`, then orjson) gives for the same file and values, on a
backfilled devnet: the same keys in the same order, the same values (timestamps printed the same
way, nulls kept), row for row (the foundation's rows: those of `foundation_voted`, conftest.py)."""
from __future__ import annotations

import asyncio

import orjson
import pytest

from ve_analytics.api.sql import QueryBook
from ve_analytics.warehouse.client import API, get_async_client

ANY = -1
BOOK = QueryBook("stats")

# (file, values besides chain_id and snapshot_at): every file a handler serves through `json`,
# with the values its route passes by default (api/stats/*_handlers.py)
CASES = [
    ("protocol_history", {"days": 30}),
    ("protocol_daily", {"days": 30}),
    ("bribes", {"pool": "", "gauge": "", "epoch": ANY, "foundation_only": False, "limit": 500}),
    ("bribes_totals", {"epoch": ANY}),
    ("votes", {"epoch": ANY, "venft_id": ANY, "pool": "", "latest_only": False, "foundation_only": False}),
    ("markets_bribes", {"epoch": ANY, "min_usd": 0.0, "limit": 500}),
    ("foundation_votes", {"epoch": ANY, "latest_only": False}),
    ("foundation_kpis", {"epoch": ANY, "pool": "", "gauge_address": "", "latest_only": False, "limit": 500}),
    ("tokens", {"address": "", "limit": 500}),
    ("tokens_history", {"address": "{core}"}),
    ("pools_daily", {"pool_id": "{pool}", "days": 30}),
]


async def _both(settings, name: str, values: dict) -> tuple[list, list]:
    client = await get_async_client(settings, user=API)
    try:
        written = await BOOK.json(client, name, values)
        return await BOOK.rows(client, name, values), orjson.loads(orjson.dumps(written))
    finally:
        await client.close()


def _bound(name: str, values: dict, base: dict) -> dict:
    wanted = BOOK[name].parameters
    return {k: v for k, v in {**base, **values}.items() if k in wanted}


@pytest.mark.parametrize("name,values", CASES, ids=[c[0] for c in CASES])
def test_json_rows_equal_python_rows(fresh, foundation_voted, name, values):
    protocol = fresh.data("/api/stats/config")
    snapshot_param = protocol["lastSuccessfulSnapshot"]["snapshotAt"].replace("T", " ").replace("Z", "")
    core = protocol["contracts"]["coreToken"].lower()
    pool = fresh.data("/api/stats/pools?limit=1&sort=tvl")[0]["address"]
    filled = {k: (core if v == "{core}" else pool if v == "{pool}" else v) for k, v in values.items()}
    bound = _bound(name, filled, {"chain_id": 56, "snapshot_at": snapshot_param})
    rows, written = asyncio.run(_both(fresh.settings, name, bound))
    assert rows, f"{name}: the backfilled devnet has rows for it (else this compares nothing)"
    assert len(written) == len(rows)
    for python_row, warehouse_row in zip(rows, written):
        assert list(warehouse_row) == list(python_row)
        assert warehouse_row == orjson.loads(orjson.dumps(python_row))
