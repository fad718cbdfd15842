"""The code location: one `defs` (workspace.yaml loads `orchestration.definitions`).

`build_defs(settings)` pins every endpoint to an explicit Settings (tests, backfill); the
module-level `defs` resolves them from the environment at run time, so the local stack is the
default and production is a matter of environment variables.
"""
from __future__ import annotations

from dagster import Definitions

from ..assets.governance_events import build_governance_event_assets
from ..assets.hourly import build_hourly_assets
from ..assets.partitions import daily_partitions, snapshot_partitions
from ..assets.resources import resources_for
from ..assets.rollups import build_rollup_assets
from ..assets.snapshots import build_snapshot_assets
from ..assets.vault_history import build_vault_history_assets
from ..core.config import Settings
from .checks import build_checks
from .jobs import build_jobs
from .schedules import build_schedules
from .sensors import build_sensors


def build_defs(settings: Settings | None = None, *, now: float | None = None) -> Definitions:
    pinned = settings is not None
    settings = settings or Settings.from_env()
    snapshot_parts = snapshot_partitions(settings, now)
    daily_parts = daily_partitions(settings, now)
    hourly_assets = build_hourly_assets(daily_parts)
    assets = [
        *build_snapshot_assets(snapshot_parts),
        *hourly_assets,
        *build_rollup_assets(daily_parts, hourly_assets[0]),
        *build_governance_event_assets(daily_parts),
        *build_vault_history_assets(daily_parts),
    ]
    jobs = build_jobs()
    return Definitions(
        assets=assets,
        asset_checks=build_checks(settings),
        jobs=list(jobs.values()),
        schedules=build_schedules(jobs["snapshot_job"], jobs["history_job"]),
        sensors=build_sensors(jobs["snapshot_job"]),
        resources=resources_for(settings if pinned else None),
    )


defs = build_defs()
