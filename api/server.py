"""Run the API: `serve(settings, host=None, port=None, workers=None, families=("stats",))`.

One worker runs in this process (no worker manager, no fork); more workers run under Sanic's
worker manager, each building its own app (and its own warehouse client and response cache)
from the factory. Defaults come from Settings (API_HOST, API_PORT, API_WORKERS).
`serve_compute(settings, socket_path, families)` runs a worker's compute child (api/compute_process.py).
"""
from __future__ import annotations

import logging
from functools import partial

from sanic import Sanic
from sanic.server.socket import bind_unix_socket
from sanic.worker.loader import AppLoader

from .app import create_app
from ..core.config import Settings

log = logging.getLogger("api")


def serve(
    settings: Settings,
    host: str | None = None,
    port: int | None = None,
    workers: int | None = None,
    families: tuple[str, ...] = ("stats",),
) -> None:
    host = host or settings.api_host
    port = int(port or settings.api_port)
    workers = max(int(workers or settings.api_workers), 1)
    loader = AppLoader(factory=partial(create_app, settings, families=families))
    app = loader.load()
    options = dict(host=host, port=port, access_log=False, motd=False)
    log.info("API listening on http://%s:%d (%d worker%s)", host, port, workers, "" if workers == 1 else "s")
    if workers == 1:
        app.prepare(single_process=True, **options)
        Sanic.serve_single(app)
    else:
        app.prepare(workers=workers, **options)
        Sanic.serve(primary=app, app_loader=loader)


def serve_compute(settings: Settings, socket_path: str, families: tuple[str, ...]) -> None:
    """The compute child of one worker: the same app, on a Unix socket only its worker uses."""
    app = create_app(settings, families=families, name="analytics_compute", compute_child=True)
    # bound here, once: given `unix=`, Sanic binds the path twice (the second socket replaces the
    # first), and a connection its worker made in between was never answered
    sock = bind_unix_socket(socket_path)
    app.prepare(sock=sock, single_process=True, access_log=False, motd=False)
    Sanic.serve_single(app)
