"""The serving fast paths answer exactly what the slow paths do: Sanic's signals, the ABI
encoder, the parsed-document templates and the subgraph's answer cache."""
from __future__ import annotations

import asyncio

from devnet.clock import ManualClock
from devnet.server import DevnetState, create_app


def test_unlistened_http_signals_are_skipped_but_registered_ones_still_fire():
    app = create_app(DevnetState(clock=ManualClock(0), chains={}))
    assert asyncio.run(app.dispatch("http.lifecycle.begin", inline=True)) is None
    fired = []

    @app.signal("http.lifecycle.begin")
    async def begin(**context):
        fired.append(context)

    async def run():
        app.signal_router.finalize()
        await app.dispatch("http.lifecycle.begin", inline=True, context={"conn_info": None})

    asyncio.run(run())
    assert fired == [{"conn_info": None}]
