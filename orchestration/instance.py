"""The Dagster instance at settings.dagster_home: its dagster.yaml and a handle on it.

The instance's run queue (QueuedRunCoordinator) is what runs a backfill a few runs at a time:
the daemon's backfill loop submits every run of a backfill at once, the queue starts at most
`settings.backfill_runs` of them together (a limit on the runs tagged `dagster/backfill`), and
other runs (the schedules', the cron trigger's, the UI's) wait only for the overall limit. At
most CHAIN_RUNS runs per chain run at once (`ve/chain`, per value): the chain with the most to
fill (the backfill gives it the highest priority) cannot take every slot while other chains wait,
yet uses two once the others are done.

The dagster.yaml is written by `ensure_instance_dir` when missing, and rewritten when it still
carries the marker line below (a file without it is the operator's and left alone).
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from dagster import DagsterInstance

from ..core.config import Settings
from ..core.partition_keys import BACKFILL_TAG
from ..core.pipeline_names import CHAIN_TAG

MARKER = "# Written by ve-analytics"
DEQUEUE_INTERVAL_SECONDS = 1
# Runs beyond the backfill's own: the schedules' and the cron trigger's keep a slot each.
OTHER_RUNS = 2
CHAIN_RUNS = 2

INSTANCE_YAML = """\
{marker} (rewritten while this line is first; remove it to manage the file yourself).
# Local storage under this folder; runs go through the run queue, which the daemon drains.
telemetry:
  enabled: false
run_coordinator:
  module: dagster
  class: QueuedRunCoordinator
  config:
    max_concurrent_runs: {max_runs}
    dequeue_interval_seconds: {dequeue}
    tag_concurrency_limits:
      - key: "{backfill_tag}"
        limit: {backfill_runs}
      - key: "{chain_tag}"
        value:
          applyLimitPerUniqueValue: true
        limit: {chain_runs}
"""

# Environment of the processes that create runs (webserver, daemon): one "materialization
# planned" event per asset for a range run instead of one per partition (Dagster's documented
# switch for range backfills; it halves a range run's bookkeeping on sqlite storage). The cost:
# when such a run fails, its partitions are not each marked failed in the asset view (the run
# and the backfill's partition statuses are, and snapshot_runs records every failed snapshot).
RUN_CREATION_ENV = {"DAGSTER_EMIT_PARTITION_SUBSET_IN_PLANNED_EVENTS": "true"}


def instance_yaml(settings: Settings) -> str:
    runs = max(1, settings.backfill_runs)
    return INSTANCE_YAML.format(marker=MARKER, max_runs=runs + OTHER_RUNS, dequeue=DEQUEUE_INTERVAL_SECONDS,
                                backfill_tag=BACKFILL_TAG, backfill_runs=runs, chain_tag=CHAIN_TAG, chain_runs=CHAIN_RUNS)


def ensure_instance_dir(settings: Settings) -> None:
    """DAGSTER_HOME with this project's dagster.yaml, shared by backfill, webserver and daemon."""
    settings.dagster_home.mkdir(parents=True, exist_ok=True)
    config = settings.dagster_home / "dagster.yaml"
    wanted = instance_yaml(settings)
    if not config.exists() or (config.read_text().startswith(MARKER) and config.read_text() != wanted):
        config.write_text(wanted)


@contextmanager
def dagster_instance(settings: Settings) -> Iterator[DagsterInstance]:
    """The persistent local instance at settings.dagster_home (created when missing)."""
    ensure_instance_dir(settings)
    instance = DagsterInstance.from_config(str(settings.dagster_home))
    try:
        yield instance
    finally:
        instance.dispose()
