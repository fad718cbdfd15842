"""The Dagster webserver and daemon as processes of this machine: `DagsterServices` starts them on
an instance (local default) for `ve-analytics up` and the test stacks, and `dagster_for` gives a
command the configured webserver, or one started for its duration."""
from __future__ import annotations

import dataclasses
import logging
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from ..core.config import Settings
from ..core.pipeline_names import CATCHUP_SENSOR_PREFIX, history_job, snapshot_job
from .processes import Service

log = logging.getLogger("stack")
CODE_LOCATION = ["-m", "ve_analytics.orchestration.definitions", "-a", "defs"]
DAGSTER_SECRETS = ("CLICKHOUSE_PASSWORD",)  # the secret variables the webserver and daemon get (as files)


def chain_jobs(settings: Settings) -> list[str]:
    """Every chain's jobs: the code location serves them once it has loaded the chain book."""
    return [job(cid) for cid in sorted(settings.chains) for job in (history_job, snapshot_job)]


class DagsterServices:
    """dagster-webserver and dagster-daemon on the instance at settings.dagster_home, serving the
    code location with `settings` (through the environment: Settings.to_env, plus `env`).

    `settings` (after start) names the webserver (dagster_url). With `schedules=False` the code
    location's schedules are stopped before the daemon starts (a test upstream that runs behind
    the wall clock must not get the schedules' runs), and its catch-up sensors unless `catchup=True`."""

    def __init__(self, settings: Settings, log_dir: Path, *, port: int | None = None,
                 env: dict[str, str] | None = None, schedules: bool = True, catchup: bool | None = None):
        self.settings = dataclasses.replace(settings, dagster_port=port or settings.dagster_port,
                                            dagster_webserver_url="")
        self.log_dir = Path(log_dir)
        if self.log_dir.resolve() == (self.settings.dagster_home / "logs").resolve():
            raise ValueError(f"{self.log_dir}: Dagster removes <DAGSTER_HOME>/logs (its telemetry folder); log elsewhere")
        self.env = env or {}
        self.schedules = schedules
        self.catchup = schedules if catchup is None else catchup
        self.services: list[Service] = []

    def _start(self, name: str, argv: list[str], ready_url: str | None, env: dict[str, str], timeout: float) -> None:
        svc = Service(name, argv, ready_url, env=env, log_path=self.log_dir / f"{name}.log", secrets=DAGSTER_SECRETS)
        log.info("starting %s (log: %s)", name, svc.log_path)
        self.services.append(svc)
        svc.start(timeout=timeout)

    def start(self, timeout: float = 300) -> "DagsterServices":
        """The webserver (waited for), then the daemon (not waited for: a backfill submitted while
        it loads is picked up by its first pass; `orchestration.backfill` checks it is there)."""
        from ..orchestration.instance import RUN_CREATION_ENV, dagster_instance
        from ..readers.dagster_webserver import Webserver

        s = self.settings
        self.log_dir.mkdir(parents=True, exist_ok=True)
        # Create (and stamp) the instance's sqlite storages here, once: on a fresh DAGSTER_HOME the
        # webserver, its code server, the daemon and this process creating them at once can stamp
        # two alembic heads, after which no process can open the instance.
        with dagster_instance(s):
            pass
        # the settings' own read-write password, as a file, unless the caller passes one
        secret = {k: v for k, v in s.secret_env(DAGSTER_SECRETS).items()
                  if k not in self.env and k.removesuffix("_FILE") not in self.env}
        env = {**s.to_env(), **secret, **RUN_CREATION_ENV, **self.env}
        bin_dir = Path(sys.executable).parent
        try:
            self._start("dagster-webserver",
                        [str(bin_dir / "dagster-webserver"), *CODE_LOCATION, "-h", s.dagster_host, "-p", str(s.dagster_port)],
                        f"{s.dagster_url}/server_info", env, timeout)
            if not (self.schedules and self.catchup):
                jobs = chain_jobs(s)
                with Webserver(s.dagster_url) as web:
                    web.wait_ready(jobs, timeout=timeout, daemons=False)
                    stopped = web.stop_schedules(jobs[0]) if jobs and not self.schedules else []
                    stopped += web.stop_sensors(jobs[0], CATCHUP_SENSOR_PREFIX) if jobs and not self.catchup else []
                log.info("schedules and sensors stopped: %s", ", ".join(stopped) or "none")
            self._start("dagster-daemon", [str(bin_dir / "dagster-daemon"), "run", *CODE_LOCATION], None, env, timeout)
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        """Both at once (each shuts down its code server and runs), then wait for them."""
        for svc in self.services:
            svc.terminate()
        for svc in reversed(self.services):
            svc.stop()
        self.services.clear()

    def __enter__(self) -> "DagsterServices":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


SETTLE_SECONDS = 60.0  # the daemon marks a backfill finished on its next pass (every 30 s)


@contextmanager
def dagster_for(settings: Settings, log_dir: Path) -> Iterator[Settings]:
    """The settings of a Dagster webserver that serves the instance: the configured one when it
    answers, otherwise a webserver and daemon started here for the duration. Those are stopped
    once the daemon has marked the backfills finished (so the UI does not show them in progress)."""
    from ..readers.dagster_webserver import Webserver, WebserverError

    with Webserver(settings.dagster_url) as web:
        if web.answers():
            log.info("using the Dagster webserver at %s", settings.dagster_url)
            yield settings
            return
    log.info("no Dagster webserver at %s: starting a webserver and a daemon on %s for this command",
             settings.dagster_url, settings.dagster_home)
    with DagsterServices(settings, log_dir) as services:
        try:
            yield services.settings
        finally:
            with Webserver(services.settings.dagster_url) as web:
                deadline, said = time.monotonic() + SETTLE_SECONDS, False
                try:
                    while (pending := web.unsettled_backfills()) and time.monotonic() < deadline:
                        if not said:
                            log.info("waiting for the daemon to mark backfill(s) %s finished", ", ".join(pending))
                            said = True
                        time.sleep(2)
                except WebserverError as exc:
                    log.warning("backfill statuses unknown: %s", exc)
