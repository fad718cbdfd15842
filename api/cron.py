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
- Launch: the run executes in a separate process, detached from the API (its own session), so
  neither the event loop nor an API restart affects it. The API spawns `python -m api.cron`
  with the Settings on stdin; the child builds the code location (`build_defs(settings)`),
  checks the window's day against the job's partitions, looks for a run of the same snapshot
  still in progress, answers one JSON line, then executes `snapshot_job` into the Dagster
  instance at settings.dagster_home under the run id the API chose. The API answers once that
  line arrives (a few seconds: the child's imports), so a returned run id always names a run that
  is about to exist, and a launch that cannot start is a 500 `snapshot_launch_failed` instead of a
  silent 202. Why not `instance.launch_run` with the default run launcher: it needs a workspace
  (a gRPC code location) resolving its settings from the environment, while the API runs on an
  explicit Settings object (tests, several stacks on one machine); the child gets exactly the
  API's settings.
- Answers: 202 `{ok, data: {runId, partitionKey, status: "started"}, meta}`; 200 with
  `status: "already_running"` and that run's id when a run of the partition started in the last
  30 minutes is still in progress (two simultaneous first calls may both start a run; snapshot
  writes are idempotent, so that costs work, not correctness). Never
  cached (`Cache-Control: no-store`), no ETag. The child's output goes to <data_dir>/logs/cron.log.
"""
from __future__ import annotations

import asyncio
import hmac
import json
import logging
import os
import pickle
import re
import subprocess
import sys
import threading
import time
import uuid
from datetime import datetime, timedelta, timezone
from typing import Any
from urllib.parse import parse_qsl

from sanic import Blueprint, Request
from sanic.response import HTTPResponse

from ve_analytics.api.envelope import ApiError, error_response, json_response, meta, now_iso, success_body, success_headers
from ve_analytics.api.routes import log_failure
from ve_analytics.core.config import Settings
from ve_analytics.core.epochs import DAY, QUARTER_HOUR, floor_to

log = logging.getLogger("api")

CRON_PATH = "/api/cron/analytics-snapshot"
METHODS = ["GET", "POST"]
UNAUTHORIZED = "unauthorized"
INVALID_PARTITION = "invalid_partition"
LAUNCH_FAILED = "snapshot_launch_failed"
LAUNCH_TIMEOUT_SECONDS = 120
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
    now_ts = int(now if now is not None else time.time())
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
    window_start = floor_to(now_ts, DAY) - settings.snapshot_partition_days * DAY  # orchestration.partitions.snapshot_window_start
    if start < window_start:
        raise _invalid(f"that partition is older than the {settings.snapshot_partition_days}-day partition window")
    return raw


# ------------------------------------------------------------------------------ launch (API side)


def _spawn(settings: Settings, run_id: str, key: str) -> subprocess.Popen:
    log_dir = settings.data_dir / "logs"
    log_dir.mkdir(parents=True, exist_ok=True)
    with open(log_dir / "cron.log", "ab") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "ve_analytics.api.cron", run_id, key],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=out,
            start_new_session=True,  # survives the API; signals to the API do not reach it
        )
    assert proc.stdin is not None
    proc.stdin.write(pickle.dumps(settings))
    proc.stdin.close()
    return proc


def _handshake(proc: subprocess.Popen) -> dict[str, Any]:
    assert proc.stdout is not None
    try:
        line = proc.stdout.readline()
    finally:
        proc.stdout.close()
    # reap the child whenever it ends, without holding the request
    threading.Thread(target=proc.wait, name=f"cron-reaper-{proc.pid}", daemon=True).start()
    if not line:
        return {"error": LAUNCH_FAILED, "message": f"the launcher exited with {proc.poll()} before starting the run"}
    return json.loads(line)


async def launch(settings: Settings, key: str) -> dict[str, Any]:
    run_id = str(uuid.uuid4())
    proc = await asyncio.to_thread(_spawn, settings, run_id, key)
    try:
        return await asyncio.wait_for(asyncio.to_thread(_handshake, proc), LAUNCH_TIMEOUT_SECONDS)
    except asyncio.TimeoutError:
        os.killpg(proc.pid, 9)  # only the launcher this request started (its own session)
        return {"error": LAUNCH_FAILED, "message": f"the launcher did not answer within {LAUNCH_TIMEOUT_SECONDS} s"}


def cron_blueprint(settings: Settings) -> Blueprint:
    bp = Blueprint("cron")

    async def analytics_snapshot(request: Request) -> HTTPResponse:
        try:
            if not authorized(request.headers.get("authorization"), settings.cron_token):
                raise unauthorized()
            key = partition_key(request.query_string, settings)
            answer = await launch(settings, key)
            if "error" in answer:
                status = 400 if answer["error"] == INVALID_PARTITION else 500
                raise ApiError(status, answer["error"], answer.get("message", "the snapshot run could not be launched"))
            data = {"runId": answer["runId"], "partitionKey": key, "status": answer["status"]}
            log.info("%s %s -> run %s (%s) for partition %s", request.method, request.path, data["runId"], data["status"], key)
            status = 202 if answer["status"] == "started" else 200
            return json_response(success_body(data, meta(now_iso(), None, 0)), status, success_headers(0, None))
        except ApiError as err:
            log_failure(request, err.status, err.code, err.message)
            return error_response(err)

    bp.add_route(analytics_snapshot, CRON_PATH, methods=METHODS, name="analytics_snapshot")
    return bp


# ------------------------------------------------------------------------------ launcher (child)


def _answer(payload: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(payload) + "\n")
    sys.stdout.flush()
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # later output goes to the log, not the closed pipe


def _main() -> int:
    run_id, key = sys.argv[1], sys.argv[2]
    settings: Settings = pickle.loads(sys.stdin.buffer.read())
    from ve_analytics.core.logs import setup_logging

    setup_logging()
    # Dagster resources take secrets from the environment, never from run config
    # (orchestration/resources.py): hand them the API's settings' password.
    os.environ["CLICKHOUSE_PASSWORD"] = settings.clickhouse_password
    answered = False
    try:
        from dagster import DagsterRunStatus, RunsFilter

        from ve_analytics.orchestration.backfill import QUIET_RUN_CONFIG, dagster_instance
        from ve_analytics.orchestration.definitions import build_defs
        from ve_analytics.assets.partitions import snapshot_day_key, snapshot_tags

        at = int(datetime.strptime(key, SNAPSHOT_FMT).replace(tzinfo=timezone.utc).timestamp()) + QUARTER_HOUR
        day, tags = snapshot_day_key(at), snapshot_tags(at, at)
        job = build_defs(settings).resolve_job_def("snapshot_job")
        if not job.partitions_def.has_partition_key(day):
            _answer({"error": INVALID_PARTITION, "message": f"partition must be {PARTITION_ACCEPTS}; {key!r} is outside the snapshot partitions"})
            return 2
        with dagster_instance(settings) as instance:
            in_progress = [DagsterRunStatus.NOT_STARTED, DagsterRunStatus.QUEUED, DagsterRunStatus.STARTING, DagsterRunStatus.STARTED]
            recent = datetime.now(timezone.utc) - timedelta(seconds=STALE_RUN_SECONDS)  # a crashed run does not block forever
            running = instance.get_runs(
                RunsFilter(job_name="snapshot_job", statuses=in_progress, tags=tags, created_after=recent), limit=1
            )
            if running:
                _answer({"runId": running[0].run_id, "status": "already_running"})
                return 0
            _answer({"runId": run_id, "status": "started"})
            answered = True
            result = job.execute_in_process(
                run_config=QUIET_RUN_CONFIG, instance=instance, partition_key=day, tags=tags, run_id=run_id,
                raise_on_error=False,
            )
        logging.getLogger("cron").info("snapshot run %s for %s: %s", run_id, key, "success" if result.success else "failure")
        return 0 if result.success else 1
    except BaseException as exc:
        if not answered:
            _answer({"error": LAUNCH_FAILED, "message": f"the snapshot run could not be launched ({type(exc).__name__})"})
        raise


if __name__ == "__main__":
    sys.exit(_main())
