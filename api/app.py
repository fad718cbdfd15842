"""Sanic application factory.

`create_app(settings, families=("stats",))` builds one blueprint per API family from its route
table, the family's OpenAPI document (encoded once), the caches (per-snapshot responses, the
memo of upstream reads, the encoded variants of cached answers; all in one byte bound), the gate
of warehouse computations and the error handler.
The async ClickHouse client is created in `before_server_start`, kept on `app.ctx`, and closed
when the server stops; there is no module-level client.
"""
from __future__ import annotations

import asyncio
import dataclasses
import importlib
import logging
from typing import Any, Iterable

import orjson
from sanic import Request, Sanic
from sanic.exceptions import SanicException

from .admission import Gate
from .cache import STORE, Cache
from .catalog import openapi_path
from .compression import Encodings
from .compute_process import ComputeProcess
from .coverage import Coverages
from .cron import cron_blueprint
from .cursors import codec_for
from .curation import CURATION_DOCUMENT, LATEST_CURATION, CurationFollower
from .discovery import discovery_blueprint
from .envelope import ALLOWED_METHODS, error_response, status_code_name
from .errors import ApiError
from .offload import configure as configure_offload
from .pipeline import blueprint, log_failure
from .process_tuning import freeze_startup_objects, tune_allocator
from .routes import INTERNAL_ERROR, Family, warehouse_client
from .ratelimit import RateLimiter
from .snapshots import LATEST_SNAPSHOTS, LATEST_VALUATIONS, SnapshotPointer
from .sql import COMMON, QueryBook
from ..core.config import Settings
from ..core.logs import setup_logging

log = logging.getLogger("api")

# a /v1 cursor may be 8,192 characters: the request head must hold it and the rest of its URL
# (Sanic's default is 8 KB, its most 16 KB; a longer head is a 413 before any route)
REQUEST_HEAD_LIMIT = 16384

# family name -> "module:attribute" of its Family (route table); imported only when served
FAMILIES = {"stats": "ve_analytics.api.stats.routes:FAMILY", "vaults": "ve_analytics.api.vaults.routes:FAMILY",
            "v1": "ve_analytics.api.v1.routes:FAMILY"}


def load_family(name: str) -> Family:
    try:
        target = FAMILIES[name]
    except KeyError:
        raise ValueError(f"unknown API family {name!r}; known: {', '.join(FAMILIES)}") from None
    module, _, attribute = target.partition(":")
    return getattr(importlib.import_module(module), attribute)


def create_app(settings: Settings, *, families: Iterable[str] = ("stats",), name: str = "analytics_api",
               compute_child: bool = False) -> Sanic:
    """`compute_child`: the app a worker's compute child serves (api/compute_process.py): no rate
    limit and no child of its own."""
    setup_logging()  # in each worker Sanic's manager starts, which does not run the command's setup
    app = Sanic(name, dumps=orjson.dumps, configure_logging=False)  # core.logs formats every line
    app.config.MOTD = False
    app.config.REQUEST_MAX_HEADER_SIZE = REQUEST_HEAD_LIMIT
    loaded = [dataclasses.replace(family, envelope=family.envelope.for_settings(settings))
              for family in map(load_family, families)]

    app.ctx.settings = settings
    app.ctx.families = loaded
    limits = settings.api_limits
    tune_allocator()  # so evicted answers give their memory back (api/process_tuning.py)
    # the event loop gets the GIL back quickly from off-loop steps, and the CPU ahead of them (api/offload.py)
    configure_offload(limits.compute_nice)
    # every cache and memo of this worker shares one byte bound (api/cache.py); a worker is a process
    STORE.bound(limits.cache_max_bytes)
    app.ctx.cache = Cache("responses")  # per-snapshot answers, as first sent
    # values kept for a TTL, keyed by family name, then route and parameters or the upstream read
    app.ctx.memo = Cache("memo")
    app.ctx.encodings = Encodings()  # negotiated content codings, encoded bodies of uncached responses
    # warehouse computations at once and waiting, past which 503 overloaded (api/admission.py)
    app.ctx.admission = Gate(limits.warehouse_concurrency, limits.warehouse_queue, limits.retry_after_seconds)
    app.ctx.chain_readers = {}  # chain id -> ChainReader (RequestContext.chain_reader)
    app.ctx.client = None
    app.ctx.client_lock = asyncio.Lock()
    # uncached answers computed in a child process, so their Python does not pause cached ones
    app.ctx.computer = None
    app.ctx.keeps_answers = not compute_child  # a child's answers are kept by its worker, for their TTL there
    if limits.compute_process and not compute_child:
        app.ctx.computer = ComputeProcess(settings, tuple(f.name for f in loaded), openapi_path(loaded[0]))

    async def connect() -> Any:
        from ..warehouse.client import API, get_async_client

        return await get_async_client(settings, user=API)

    app.ctx.connect = connect
    # the latest snapshot of every chain, refreshed in the background (api/snapshots.py)
    common = QueryBook(COMMON)
    # and the newest curation publication, when a served route rests on one (api/curation.py), and when
    # each chain's price evidence (valuations, snapshot runs) last changed, when one rests on those
    follower = (CurationFollower(common[LATEST_CURATION], common[CURATION_DOCUMENT])
                if any(route.curation for family in loaded for route in family.routes) else None)
    valuations = common[LATEST_VALUATIONS] if any(route.valuations for family in loaded for route in family.routes) else None
    app.ctx.snapshots = SnapshotPointer(common[LATEST_SNAPSHOTS], curation=follower, valuations=valuations)
    # multichain routes' chains, and which of them serve a route's feature (the chain book's)
    app.ctx.coverages = Coverages(settings.chains, settings.stale_after_minutes * 60,
                                  lambda chain_id, feature: settings.chains[chain_id].supports(feature))
    serves_snapshots = any(route.snapshot for family in loaded for route in family.routes)
    # keyset cursors of the paginated routes, signed with the configured secrets (api/cursors.py)
    if any(route.paginated for family in loaded for route in family.routes):
        app.ctx.cursors = codec_for(settings.cursor_secrets)

    for family in loaded:
        limited = family.rate_limited and not compute_child
        limiter = RateLimiter(settings.vault_api_rate_per_second, settings.vault_api_rate_burst) if limited else None
        app.blueprint(blueprint(family, QueryBook(family.name), limiter))
    app.blueprint(discovery_blueprint(loaded, settings))
    app.blueprint(cron_blueprint(settings))  # internal; in no public discovery document

    @app.before_server_start
    async def open_client(app: Sanic) -> None:
        try:
            app.ctx.client = await connect()
        except Exception as exc:  # noqa: BLE001 - the API starts anyway; requests retry the connection
            log.warning("warehouse not reachable at start (%s: %s); connecting on first request", type(exc).__name__, exc)

    @app.after_server_start
    async def follow_snapshots(app: Sanic) -> None:
        if app.ctx.computer is not None:
            await app.ctx.computer.start()
        # what is alive now lives as long as the worker: no full collection walks it again
        freeze_startup_objects()
        # a compute child's pointer follows its worker's instead (api/pipeline.py `child_basis`)
        if serves_snapshots and not compute_child:
            app.ctx.snapshot_follower = asyncio.ensure_future(app.ctx.snapshots.run(lambda: warehouse_client(app)))

    @app.before_server_stop
    async def stop_following(app: Sanic) -> None:
        follower = getattr(app.ctx, "snapshot_follower", None)
        if follower is not None:
            follower.cancel()

    @app.after_server_stop
    async def close_client(app: Sanic) -> None:
        if app.ctx.computer is not None:
            await app.ctx.computer.stop()
        client, app.ctx.client = app.ctx.client, None
        if client is not None:
            await client.close()

    contracts = ", ".join(openapi_path(family) for family in loaded)
    messages = {
        404: f"no route matches this path; the routes are listed in {contracts}",
        405: f"method not allowed; every route answers {ALLOWED_METHODS}",
    }

    def on_error(request: Request, exc: Exception):
        """Errors raised outside a route's pipeline (no matching path or method, malformed HTTP)."""
        if isinstance(exc, SanicException) and exc.status_code < 500:
            status = exc.status_code
            err = ApiError(status, status_code_name(status), messages.get(status) or str(exc) or "invalid request")
            if status == 405:  # the methods of the matched path (the internal cron trigger has its own)
                allowed = getattr(exc, "allowed_methods", None)
                err.headers["allow"] = ", ".join(sorted(allowed)) if allowed else ALLOWED_METHODS
            detail = err.message
        else:
            err = ApiError(500, INTERNAL_ERROR, "an unexpected server error occurred")
            detail = f"{type(exc).__name__}: {str(exc)[:300]}"
        log_failure(request, err.status, err.code, detail)
        # the failure meta of the family whose prefix the path is under (the server's first family otherwise)
        family = next((f for f in loaded if request.path == f.prefix or request.path.startswith(f.prefix + "/")),
                      loaded[0] if loaded else None)
        return error_response(err, meta_=family.envelope.failure_meta() if family else None)

    app.error_handler.add(Exception, on_error)
    return app
