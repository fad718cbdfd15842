"""Internal snapshot trigger: GET/POST /api/cron/analytics-snapshot[?partition=<key>].

For an external scheduler (a platform cron, a CI job) where the Dagster daemon's own schedule is
not used. Internal: it is in no public discovery document (OpenAPI, skill manifest, catalog).

- Authentication: `Authorization: Bearer <CRON_TOKEN>`, compared with `hmac.compare_digest`.
  A missing or wrong token, or an empty configured CRON_TOKEN (the trigger is then disabled),
  answers 401 `unauthorized` with `WWW-Authenticate: Bearer`.
- `partition`: a 15-minute window `YYYY-MM-DD-HH:MM` (its start; minutes 00/15/30/45) that has
  ended and lies inside the snapshot partition window; the run takes the snapshot at its end
  (in the window's day partition, bounded to that time by tags; a published one is left alone).
  Default: the latest ended window. Anything else is a 400 `invalid_partition`.
- Launch: through the Dagster webserver's GraphQL API at settings.dagster_url (DAGSTER_URL, or
  DAGSTER_HOST:DAGSTER_PORT), like a launch from the Dagster UI: `launchRun` of each configured
  chain's snapshot job (`snapshot_job_<chain>`, for the chains whose snapshot window holds the
  window) with the partition tag and the snapshot bounds. The instance's run queue starts the run (the
  daemon's run launcher, with the Dagster deployment's own configuration and secrets); the API
  hands over nothing but the job name and tags, starts no process and imports no Dagster.
- Answers: 202 `{ok, data: {runId, partitionKey, status: "started", chains: [{chainId, runId,
  status}]}, meta}` (runId and status: chain 56's, the chain of this API family); 200 with
  `status: "already_running"` and that run's id when a run of the same snapshot created in the
  last 30 minutes is still queued or in progress (per chain in `chains`) (two simultaneous first calls may both start a
  run; snapshot writes are idempotent, so that costs work, not correctness); 500
  `snapshot_launch_failed` when the webserver does not answer or refuses the launch. Never
  cached (`Cache-Control: no-store`), no ETag.
"""
from __future__ import annotations

import asyncio
import hmac
import logging
import re
import time
from datetime import datetime, timezone
from typing import Any
from urllib.parse import parse_qsl

from sanic import Blueprint, Request
from sanic.response import HTTPResponse

from .envelope import ApiError, error_response, json_response, meta, now_iso, success_body, success_headers
from .pipeline import log_failure
from ..core.chains import STATS_CHAIN_ID
from ..core.config import Settings
from ..core.epochs import QUARTER_HOUR, floor_to
from ..core.partition_keys import PARTITION_TAG, snapshot_day_key, snapshot_tags, snapshot_window_start_ts
from ..core.pipeline_names import snapshot_job
from ..readers.dagster_webserver import RUN_IN_PROGRESS, Webserver, WebserverError
from ..core import clock

log = logging.getLogger("api")

CRON_PATH = "/api/cron/analytics-snapshot"
METHODS = ["GET", "POST"]
UNAUTHORIZED = "unauthorized"
INVALID_PARTITION = "invalid_partition"
LAUNCH_FAILED = "snapshot_launch_failed"
LAUNCH_TIMEOUT_SECONDS = 60
STALE_RUN_SECONDS = 1800  # an in-progress run older than this is not waited for
SNAPSHOT_FMT = "%Y-%m-%d-%H:%M"  # a 15-minute window by its start
_KEY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}-[0-9]{2}:(?:00|15|30|45)")
PARTITION_ACCEPTS = "a 15-minute window YYYY-MM-DD-HH:MM (minutes 00, 15, 30 or 45) that has ended and lies in the snapshot partition window"


def authorized(header: str | None, token: str) -> bool:
    """Bearer token check in constant time; an empty configured token refuses everything."""
    if not token or not header:
        return False
    scheme, _, credentials = header.strip().partition(" ")
    if scheme.lower() != "bearer":
        return False
    return hmac.compare_digest(credentials.strip().encode(), token.encode())


def unauthorized() -> ApiError:
    return ApiError(401, UNAUTHORIZED, "a valid Bearer token is required", headers={"www-authenticate": 'Bearer realm="cron"'})


def _invalid(reason: str) -> ApiError:
    return ApiError(400, INVALID_PARTITION, f"partition must be {PARTITION_ACCEPTS}; {reason}")


def partition_key(query_string: str, settings: Settings, now: float | None = None) -> str:
    """The requested partition (validated) or the latest ended one."""
    now_ts = int(now if now is not None else clock.now())
    values = parse_qsl(query_string or "", keep_blank_values=True)
    for name, _ in values:
        if name != "partition":
            raise ApiError(400, "unknown_parameter", f"unknown query parameter {name[:64]!r}; accepted: partition")
    if not values:
        return datetime.fromtimestamp(floor_to(now_ts, QUARTER_HOUR) - QUARTER_HOUR, tz=timezone.utc).strftime(SNAPSHOT_FMT)
    if len(values) > 1:
        raise _invalid("give it at most once")
    raw = values[0][1]
    if not _KEY.fullmatch(raw):
        raise _invalid("malformed key")
    try:
        start = int(datetime.strptime(raw, SNAPSHOT_FMT).replace(tzinfo=timezone.utc).timestamp())
    except ValueError:
        raise _invalid("not a calendar time") from None
    if start + QUARTER_HOUR > now_ts:
        raise _invalid("that partition has not ended yet")
    days = max(window_days(settings).values(), default=0)
    if start < snapshot_window_start_ts(days, now_ts):
        raise _invalid(f"that partition is older than the {days}-day partition window")
    return raw


def window_days(settings: Settings) -> dict[int, int]:
    """Each configured chain's snapshot window, in days."""
    return {cid: settings.snapshot_window_days(cid) for cid in sorted(settings.chains)}


# ------------------------------------------------------------------------------ launch


def launch(settings: Settings, key: str, now: float | None = None) -> list[dict[str, Any]]:
    """Launch each chain's snapshot job for the snapshot at the end of window `key` through the
    Dagster webserver (its run queue starts them); [{chainId, runId, status: started |
    already_running}] for the chains whose window holds it. Blocking: the route runs it in a thread."""
    start = int(datetime.strptime(key, SNAPSHOT_FMT).replace(tzinfo=timezone.utc).timestamp())
    at = start + QUARTER_HOUR
    tags = snapshot_tags(at, at)
    out = []
    with Webserver(settings.dagster_url, timeout=LAUNCH_TIMEOUT_SECONDS) as web:
        for cid, days in window_days(settings).items():
            if start < snapshot_window_start_ts(days, now):
                continue
            job = snapshot_job(cid)
            running = web.runs(job_name=job, tags=tags, statuses=RUN_IN_PROGRESS, limit=1,
                               created_after=time.time() - STALE_RUN_SECONDS)  # a crashed run does not block forever (Dagster's wall clock)
            if running:
                out.append({"chainId": cid, "runId": running[0]["runId"], "status": "already_running"})
            else:
                run_id = web.launch_run(job, {**tags, PARTITION_TAG: snapshot_day_key(at)})
                out.append({"chainId": cid, "runId": run_id, "status": "started"})
    return out


def cron_blueprint(settings: Settings) -> Blueprint:
    bp = Blueprint("cron")

    async def analytics_snapshot(request: Request) -> HTTPResponse:
        try:
            if not authorized(request.headers.get("authorization"), settings.cron_token):
                raise unauthorized()
            key = partition_key(request.query_string, settings)
            try:
                runs = await asyncio.to_thread(launch, settings, key)
            except WebserverError as exc:
                raise ApiError(500, LAUNCH_FAILED, f"the snapshot run could not be launched: {exc}") from None
            answer = next((r for r in runs if r["chainId"] == STATS_CHAIN_ID), runs[0] if runs else None)
            if answer is None:
                raise ApiError(500, LAUNCH_FAILED, "no configured chain has that partition in its snapshot window")
            data = {"runId": answer["runId"], "partitionKey": key, "status": answer["status"], "chains": runs}
            log.info("%s %s -> run %s (%s) for partition %s", request.method, request.path, data["runId"], data["status"], key)
            status = 202 if answer["status"] == "started" else 200
            return json_response(success_body(data, meta(now_iso(), None, 0)), status, success_headers(0, None))
        except ApiError as err:
            log_failure(request, err.status, err.code, err.message)
            return error_response(err)

    bp.add_route(analytics_snapshot, CRON_PATH, methods=METHODS, name="analytics_snapshot")
    return bp
