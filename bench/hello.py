"""A Sanic hello-world with orjson: the framework's floor, measured beside the API.

`/hello` answers a small JSON body; `/bytes/<n>` answers n bytes of JSON, the floor of sending a
large answer (the same size as the API's) through the same framework.

    python -m bench.hello PORT [WORKERS]   (default one worker, in this process)
"""
from __future__ import annotations

import sys

import orjson
from sanic import Sanic
from sanic.response import raw

app = Sanic("hello", dumps=orjson.dumps)
BODY = orjson.dumps({"ok": True, "data": {"hello": "world"}})
_SIZED: dict[int, bytes] = {}


@app.get("/hello")
async def hello(request):  # noqa: ARG001 - Sanic handler signature
    return raw(BODY, content_type="application/json")


@app.get("/bytes/<size:int>")
async def sized(request, size: int):  # noqa: ARG001 - Sanic handler signature
    body = _SIZED.get(size)
    if body is None:
        body = _SIZED[size] = b'"' + b"x" * max(size - 2, 0) + b'"'
    return raw(body, content_type="application/json")


if __name__ == "__main__":
    port, workers = int(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 1
    if workers == 1:
        app.run(host="127.0.0.1", port=port, single_process=True, access_log=False, motd=False)
    else:
        app.run(host="127.0.0.1", port=port, workers=workers, access_log=False, motd=False)
