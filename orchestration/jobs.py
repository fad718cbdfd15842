"""Jobs, per chain: the 15-minute snapshot job and the history job (hourly buckets, daily
rollups, events, vault history) of each chain of the chain book; and `curation_job`, which
publishes the curation (every chain at once).

A chain's jobs select only that chain's assets, so a slow or failing chain holds up its own runs
and no other chain's. Both run in process: one run's assets share the readers (block and
Voter-registry caches) and a run over a partition range is one process, not one subprocess per
step. Every run of a chain's jobs carries the `ve/chain` tag, and every run the `ve/group` tag
(snapshots, history, curation). Job tags are the one place: Dagster copies them onto every run of
the job, whoever creates it (schedules, backfills, the cron trigger, the UI, in-process runs), and
the instance's run queue limits runs by them. So is `dagster/max_runtime` (core.run_limits): the
daemon's run monitoring (orchestration/instance.py) cancels a run of the job that passes it.
"""
from __future__ import annotations

from typing import Any

from dagster import AssetSelection, define_asset_job, in_process_executor

from ..core.pipeline_names import (CHAIN_TAG, CURATION_GROUP, CURATION_JOB, GROUP_TAG, HISTORY, SNAPSHOTS, history_group,
                                   history_job, snapshot_group, snapshot_job)
from ..core.run_limits import RunLimits

MAX_RUNTIME_TAG = "dagster/max_runtime"  # seconds; read by the daemon's run monitoring


def _max_runtime(seconds: int) -> dict[str, str]:
    return {MAX_RUNTIME_TAG: str(seconds)} if seconds > 0 else {}


def build_jobs(chain_id: int, limits: RunLimits = RunLimits()) -> dict[str, Any]:
    """{"snapshot": job, "history": job} of one chain (their assets are its groups)."""
    chain = {CHAIN_TAG: str(chain_id)}
    return {
        "snapshot": define_asset_job(
            snapshot_job(chain_id),
            selection=AssetSelection.groups(snapshot_group(chain_id)),
            executor_def=in_process_executor,
            tags={**chain, GROUP_TAG: SNAPSHOTS, **_max_runtime(limits.snapshot_max_runtime_seconds)},
            description=f"Chain {chain_id}: token, pool, protocol, governance and vault snapshots at 15-minute "
                        "boundaries, then their publication.",
        ),
        "history": define_asset_job(
            history_job(chain_id),
            selection=AssetSelection.groups(history_group(chain_id)),
            executor_def=in_process_executor,
            tags={**chain, GROUP_TAG: HISTORY, **_max_runtime(limits.history_max_runtime_seconds)},
            description=f"Chain {chain_id}: hourly buckets per pool and protocol for whole UTC days, the daily "
                        "rollups, governance events and vault history.",
        ),
    }


def build_curation_job() -> Any:
    return define_asset_job(
        CURATION_JOB,
        selection=AssetSelection.groups(CURATION_GROUP),
        executor_def=in_process_executor,
        tags={GROUP_TAG: CURATION_GROUP},
        description="Publishes the reviewed curation (curation/curation.json) once it validates against every "
                    "chain's latest published snapshot: entity rows, then the publication row.",
    )
