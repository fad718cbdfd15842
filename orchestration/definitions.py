"""The code location: one `defs` (workspace.yaml loads `orchestration.definitions`).

Every chain of the chain book gets its own copy of every asset (key prefix `chain_<id>`), its own
groups, jobs, schedules, catch-up sensor and asset checks; adding a chain is a chain book entry,
and the code location builds its assets when it loads. The curation publication (assets.curation, `curation_job`)
is one asset over every chain. `build_defs(settings)` pins every endpoint to an
explicit Settings (tests, backfill); the module-level `defs` resolves them from the environment
at run time, so the local stack is the default and production is a matter of configuration.
"""
from __future__ import annotations

from dagster import Definitions

from ..assets.bridge_events import build_bridge_assets
from ..assets.chain_scope import ChainScope
from ..assets.curation import build_curation_assets
from ..assets.governance_events import build_governance_event_assets
from ..assets.hourly import build_hourly_assets
from ..assets.partitions import daily_partitions, snapshot_partitions
from ..assets.resources import resources_for
from ..assets.rollups import build_rollup_assets
from ..assets.snapshots import build_snapshot_assets
from ..assets.vault_history import build_vault_history_assets
from ..assets.liquidity_events import build_liquidity_assets
from ..assets.xcore_events import build_xcore_assets
from ..core.config import Settings
from .catchup import build_catchup_sensor
from .checks import build_checks
from .jobs import build_curation_job, build_jobs
from .schedules import build_schedules
from .sensors import build_sensors


def chain_scopes(settings: Settings, now: float | None = None) -> list[ChainScope]:
    return [ChainScope(chain, snapshot_partitions(settings, cid, now), daily_partitions(settings, cid, now))
            for cid, chain in sorted(settings.chains.items())]


def build_defs(settings: Settings | None = None, *, now: float | None = None) -> Definitions:
    pinned = settings is not None
    settings = settings or Settings.from_env()
    assets, checks, jobs, schedules, snapshot_jobs, catchup = [], [], [], [], [], []
    for scope in chain_scopes(settings, now):
        hourly = build_hourly_assets(scope)
        assets += [
            *build_snapshot_assets(scope),
            *hourly,
            *build_rollup_assets(scope, hourly[0]),
            *build_governance_event_assets(scope),
            *build_vault_history_assets(scope),
            *build_bridge_assets(scope),
            *build_xcore_assets(scope),
            *build_liquidity_assets(scope),
        ]
        checks += build_checks(scope, settings)
        chain_jobs = build_jobs(scope.chain_id, settings.run_limits)
        jobs += chain_jobs.values()
        schedules += build_schedules(scope.chain_id, chain_jobs["snapshot"], chain_jobs["history"])
        snapshot_jobs.append(chain_jobs["snapshot"])
        catchup.append(build_catchup_sensor(settings, scope.chain_id, chain_jobs["snapshot"], chain_jobs["history"]))
    # one curation publication for every chain; pinned settings pin its source too
    assets += build_curation_assets(settings.curation_source if pinned else None)
    jobs.append(build_curation_job())
    return Definitions(
        assets=assets,
        asset_checks=checks,
        jobs=jobs,
        schedules=schedules,
        sensors=[*build_sensors(snapshot_jobs), *catchup] if snapshot_jobs else [],
        resources=resources_for(settings if pinned else None),
    )


defs = build_defs()
