"""The Dagster instance at settings.dagster_home: its dagster.yaml and a handle on it.

Storage: local sqlite under DAGSTER_HOME (the one-machine default), or PostgreSQL for runs, event
logs and schedules when DAGSTER_PG_HOST (or DAGSTER_PG_URL) is set (dagster-postgres; the
production instance, docs/deploy/dagster.md). The password never enters the file: it names
DAGSTER_PG_PASSWORD (or DAGSTER_PG_URL) in Dagster's `{env: VAR}` form, read by each Dagster
process from its own environment.

The run queue (QueuedRunCoordinator) is what runs a backfill a few runs at a time: the daemon's
backfill loop submits every run of a backfill at once, the queue starts at most
`settings.backfill_runs` of them together (a limit on the runs tagged `dagster/backfill`), and
other runs (the schedules', the cron trigger's, the UI's) wait only for the overall limit. At most
CHAIN_RUNS runs per chain run at once (`ve/chain`, per value): the chain with the most to fill
(the backfill gives it the highest priority) cannot take every slot while other chains wait, yet
uses two once the others are done. Per asset group (`ve/group`, set on every job: jobs.py):
history runs leave a slot to the snapshots, one curation publication at a time.

Run retries (PostgreSQL instance by default): a failed run is launched again, up to
DAGSTER_RUN_RETRIES times. Safe because publication is idempotent: a snapshot is visible only once
its `success` row is written, after every row it publishes; a rerun skips the times already
published and re-inserts the rest under the same deduplication tokens (ReplacingMergeTree), so a
retry can only complete what the failed attempt left undone.

The dagster.yaml is written by `ensure_instance_dir` when missing, and rewritten when it still
carries the marker line below (a file without it is the operator's and left alone).
`python -m ve_analytics.orchestration.instance` writes it and prints its path (a container's
entrypoint, before `dagster-webserver` / `dagster-daemon`).
"""
from __future__ import annotations

import json
from contextlib import contextmanager
from typing import Iterator

from dagster import DagsterInstance

from ..core.config import Settings
from ..core.partition_keys import BACKFILL_TAG
from ..core.pipeline_names import CHAIN_TAG, CURATION_GROUP, GROUP_TAG, HISTORY, SNAPSHOTS

MARKER = "# Written by ve-analytics"
DEQUEUE_INTERVAL_SECONDS = 1
# Runs beyond the backfill's own: the schedules' and the cron trigger's keep a slot each.
OTHER_RUNS = 2
CHAIN_RUNS = 2
PG_PASSWORD_ENV, PG_URL_ENV = "DAGSTER_PG_PASSWORD", "DAGSTER_PG_URL"  # the Helm chart's name, too
# The driver dagster-postgres installs (psycopg2); SQLAlchemy 2.1 maps a bare "postgresql://" to
# psycopg 3, which nothing here installs.
PG_SCHEME = "postgresql+psycopg2"
PG_RUN_RETRIES = 2  # DAGSTER_RUN_RETRIES unset: on PostgreSQL storage; the local instance has none
GROUPS = (SNAPSHOTS, HISTORY, CURATION_GROUP)

HEADER = """\
{marker} (rewritten while this line is first; remove it to manage the file yourself).
telemetry:
  enabled: false
# the UI opens on the catalog, without its new-user dialog
nux:
  enabled: false
"""

SQLITE = "# Local storage under this folder; runs go through the run queue, which the daemon drains.\n"

POSTGRES_DB = """\
# Runs, event logs and schedules in PostgreSQL (dagster-postgres); every Dagster process reads the
# password from its environment ({password_env}), never from this file.
storage:
  postgres:
    postgres_db:
      hostname: {host}
      port: {port}
      db_name: {db}
      username: {user}
      password:
        env: {password_env}
      scheme: "{scheme}"
"""

POSTGRES_URL = """\
# Runs, event logs and schedules in PostgreSQL (dagster-postgres); the connection URL, password
# included, is read by every Dagster process from its environment ({url_env}); it starts with
# postgresql+psycopg2:// (the driver dagster-postgres installs).
storage:
  postgres:
    postgres_url:
      env: {url_env}
"""

COORDINATOR = """\
run_coordinator:
  module: dagster
  class: QueuedRunCoordinator
  config:
    max_concurrent_runs: {max_runs}
    dequeue_interval_seconds: {dequeue}
    tag_concurrency_limits:
      # a backfill fills in behind: its runs never take the slots the schedules need
      - key: "{backfill_tag}"
        limit: {backfill_runs}
      # per chain: the chain with the most to fill cannot hold every slot while others wait
      - key: "{chain_tag}"
        value:
          applyLimitPerUniqueValue: true
        limit: {chain_runs}
"""

GROUP_LIMIT = """\
      - key: "{group_tag}"
        value: "{group}"
        limit: {limit}
"""

# Run monitoring: the daemon cancels and fails a run past its `dagster/max_runtime` tag (set on the
# chain's jobs from core.run_limits), so a stuck run frees its chain's slot and schedule. It also
# fails a run whose process has not started after start_timeout_seconds: Dagster's 180 s is
# within reach of a run process loading the code location on a busy 2-core machine, hence 600.
MONITORING = """\
run_monitoring:
  enabled: true
  poll_interval_seconds: {poll}
  start_timeout_seconds: {start}
"""
MONITOR_POLL_SECONDS, MONITOR_START_SECONDS = 30, 600

RETRIES = """\
# A failed run is launched again (safe: publication is idempotent, reruns are deduplicated).
run_retries:
  enabled: true
  max_retries: {retries}
"""

# Why each group's default: history runs are long (a day of 24 hourly buckets, or a range of days)
# and may take every slot but one, so a chain's 15-minute snapshot can always start; two
# curation publications at once would race for "the latest"; snapshots are bounded per chain
# (CHAIN_RUNS) and by the schedule's skip-while-running, and freshness comes first.
WHY = {
    HISTORY: "history leaves a slot to the snapshots",
    CURATION_GROUP: "one curation publication at a time",
    SNAPSHOTS: "snapshot runs, every chain's together",
}


def uses_postgres(settings: Settings) -> bool:
    return bool(settings.dagster_pg_host or settings.dagster_pg_url_set)


def max_runs(settings: Settings) -> int:
    return max(1, settings.backfill_runs) + OTHER_RUNS


def group_limits(settings: Settings) -> dict[str, int]:
    """Runs of each asset group at once: the defaults, overridden by DAGSTER_GROUP_RUNS
    ("history=3,curation=1"; 0 lifts a group's limit)."""
    limits = {HISTORY: max_runs(settings) - 1, CURATION_GROUP: 1}
    for item in filter(None, (part.strip() for part in settings.dagster_group_runs.split(","))):
        group, _, value = item.partition("=")
        group = group.strip()
        if group not in GROUPS or not value.strip().isdigit():
            raise ValueError(f"DAGSTER_GROUP_RUNS: {item!r} is not <group>=<runs> with a group of "
                             f"{', '.join(GROUPS)}")
        limits[group] = int(value)
    return {group: limit for group, limit in limits.items() if limit > 0}


def run_retries(settings: Settings) -> int:
    if settings.dagster_run_retries >= 0:
        return settings.dagster_run_retries
    return PG_RUN_RETRIES if uses_postgres(settings) else 0


def storage_yaml(settings: Settings) -> str:
    if settings.dagster_pg_url_set:
        return POSTGRES_URL.format(url_env=PG_URL_ENV)
    if settings.dagster_pg_host:
        quoted = json.dumps  # a JSON string is a YAML double-quoted scalar, whatever it holds
        return POSTGRES_DB.format(host=quoted(settings.dagster_pg_host), port=settings.dagster_pg_port,
                                  db=quoted(settings.dagster_pg_db), user=quoted(settings.dagster_pg_user),
                                  password_env=PG_PASSWORD_ENV, scheme=PG_SCHEME)
    return SQLITE


def instance_yaml(settings: Settings) -> str:
    runs = max(1, settings.backfill_runs)
    text = HEADER.format(marker=MARKER) + storage_yaml(settings)
    text += COORDINATOR.format(max_runs=max_runs(settings), dequeue=DEQUEUE_INTERVAL_SECONDS, backfill_tag=BACKFILL_TAG,
                               backfill_runs=runs, chain_tag=CHAIN_TAG, chain_runs=CHAIN_RUNS)
    for group, limit in group_limits(settings).items():
        text += f"      # {WHY[group]}\n" + GROUP_LIMIT.format(group_tag=GROUP_TAG, group=group, limit=limit)
    text += MONITORING.format(poll=MONITOR_POLL_SECONDS, start=MONITOR_START_SECONDS)
    retries = run_retries(settings)
    return text + (RETRIES.format(retries=retries) if retries else "")


# Environment of the processes that create runs (webserver, daemon): one "materialization
# planned" event per asset for a range run instead of one per partition (Dagster's documented
# switch for range backfills; it halves a range run's bookkeeping on sqlite storage). The cost:
# when such a run fails, its partitions are not each marked failed in the asset view (the run
# and the backfill's partition statuses are, and snapshot_runs records every failed snapshot).
RUN_CREATION_ENV = {"DAGSTER_EMIT_PARTITION_SUBSET_IN_PLANNED_EVENTS": "true"}


def ensure_instance_dir(settings: Settings) -> None:
    """DAGSTER_HOME with this project's dagster.yaml, shared by backfill, webserver and daemon."""
    settings.dagster_home.mkdir(parents=True, exist_ok=True)
    config = settings.dagster_home / "dagster.yaml"
    wanted = instance_yaml(settings)
    if not config.exists() or (config.read_text().startswith(MARKER) and config.read_text() != wanted):
        config.write_text(wanted)


@contextmanager
def dagster_instance(settings: Settings) -> Iterator[DagsterInstance]:
    """The persistent instance at settings.dagster_home (created when missing)."""
    ensure_instance_dir(settings)
    instance = DagsterInstance.from_config(str(settings.dagster_home))
    try:
        yield instance
    finally:
        instance.dispose()


if __name__ == "__main__":
    _settings = Settings.from_env()
    ensure_instance_dir(_settings)
    print(_settings.dagster_home / "dagster.yaml")
