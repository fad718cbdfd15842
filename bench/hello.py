"""A Sanic hello-world with orjson: the framework's floor, measured beside the API."""
from __future__ import annotations

import sys

import orjson
from sanic import Sanic
from sanic.response import raw

app = Sanic("hello", dumps=orjson.dumps)
BODY = orjson.dumps({"ok": True, "data": {"hello": "world"}})


@app.get("/hello")
async def hello(request):  # noqa: ARG001 - Sanic handler signature
    return raw(BODY, content_type="application/json")


if __name__ == "__main__":
    app.run(host="127.0.0.1", port=int(sys.argv[1]), single_process=True, access_log=False, motd=False)
