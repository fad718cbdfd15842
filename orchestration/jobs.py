"""Jobs: the 15-minute snapshot job and the history job (hourly buckets + daily rollups).

Both run in process: one run's assets share the readers (block and Voter-registry caches) and
a run over a partition range is one process, not one subprocess per step.
"""
from __future__ import annotations

from typing import Any

from dagster import AssetSelection, define_asset_job, in_process_executor

from ..assets.registry import PUBLICATION, SNAPSHOT_ASSET_NAMES

SNAPSHOT_ASSETS = (*SNAPSHOT_ASSET_NAMES, PUBLICATION)
HISTORY_ASSETS = ("pool_hourly", "daily_rollups", "governance_events", "vault_history")


def build_jobs() -> dict[str, Any]:
    """Partitions come from the selected assets (daily for both; see assets.partitions)."""
    snapshot_job = define_asset_job(
        "snapshot_job",
        selection=AssetSelection.assets(*SNAPSHOT_ASSETS),
        executor_def=in_process_executor,
        description="Token, pool and protocol snapshots at 15-minute boundaries, then their publication.",
    )
    history_job = define_asset_job(
        "history_job",
        selection=AssetSelection.assets(*HISTORY_ASSETS),
        executor_def=in_process_executor,
        description="Hourly buckets per pool and protocol for whole UTC days, then the daily rollups.",
    )
    return {"snapshot_job": snapshot_job, "history_job": history_job}
