"""The 15-minute snapshot assets (one per entry of assets.registry) and `snapshot_publication`.

Every asset handles a whole partition range in one run (a backfill makes runs of
SNAPSHOT_DAYS_PER_RUN days: BackfillPolicy.multi_run) and plans the run's snapshot times itself (assets.snapshot_plan), from the run's window, tags and creation time
and the times already published. Each time is read at the last block at or before it, and each
table gets one insert per run. `snapshot_publication` marks the planned snapshots successful only
after every snapshot asset succeeded in the same run.

`snapshot_asset()` is the one shape of a snapshot asset: plan, record failures, resolve blocks,
open a warehouse client, then the entry's `write(step)` returning rows per table.
"""

from dagster import (
    AssetExecutionContext,
    AssetsDefinition,
    BackfillPolicy,
    MaterializeResult,
    PartitionsDefinition,
    ResourceParam,
    asset,
)

from . import groups
from .partitions import SNAPSHOT_DAYS_PER_RUN, SNAPSHOTS_UNTIL_TAG
from .publication import failures_recorded, publish, published_times
from .registry import PUBLICATION, SNAPSHOT_ASSET_NAMES, SNAPSHOT_ASSETS, SnapshotAsset
from .resources import ChainResource, Progress, SubgraphResource, WarehouseResource
from .runs import run_created_at
from .snapshot_plan import SnapshotPlan, due_times, is_forced, plan_snapshots
from .snapshot_step import SnapshotStep
from .upstream import resolve_points
from ..core.epochs import iso


def run_plan(context: AssetExecutionContext, warehouse: WarehouseResource, chain_id: int) -> SnapshotPlan:
    """This run's plan: the same for every asset of the run (see assets.snapshot_plan)."""
    window, tags = context.partition_time_window, context.run.tags
    # launched without an upper bound (the Dagster UI): every boundary passed when the run was created
    created = None if SNAPSHOTS_UNTIL_TAG in tags else run_created_at(context)
    due = due_times(int(window.start.timestamp()), int(window.end.timestamp()), tags, created)
    published: set[int] = set()
    if due and not is_forced(tags):
        with warehouse.client() as client:
            published = published_times(client, chain_id, due)
    return plan_snapshots(due, tags, published)


def snapshot_asset(spec: SnapshotAsset, common: dict) -> AssetsDefinition:
    @asset(name=spec.name, metadata={"tables": ", ".join(spec.tables)}, description=spec.description, **common)
    def _snapshot_asset(
        context: AssetExecutionContext,
        warehouse: WarehouseResource,
        subgraph: SubgraphResource,
        chain: ChainResource,
        progress: ResourceParam[Progress],
    ) -> MaterializeResult:
        plan = run_plan(context, warehouse, chain.chain_id)
        if not plan.times:
            return MaterializeResult(metadata={"snapshots": 0, "note": "nothing to materialize: published or not due"})
        with failures_recorded(context, warehouse, chain_id=chain.chain_id, times=plan.times,
                               asset=spec.name, partition_range=plan.label):
            points = resolve_points(chain.reader, subgraph.client, plan.times)
            with warehouse.client() as client:
                step = SnapshotStep(spec.name, plan, points, client, subgraph.client, chain, progress)
                rows = spec.write(step)
        for line in step.warnings[:5]:
            context.log.warning(line)
        return MaterializeResult(metadata={
            **{f"rows {table}": n for table, n in rows.items()},
            "snapshots": len(points),
            "first_snapshot": iso(plan.times[0]),
            "last_snapshot": iso(plan.times[-1]),
            "first_block": points[0].block.number,
            "last_block": points[-1].block.number,
            "warnings": len(step.warnings),
        })

    return _snapshot_asset


def build_snapshot_assets(partitions_def: PartitionsDefinition) -> list[AssetsDefinition]:
    common = dict(
        partitions_def=partitions_def,
        backfill_policy=BackfillPolicy.multi_run(SNAPSHOT_DAYS_PER_RUN),
        group_name=groups.SNAPSHOTS,
        kinds={"clickhouse", "python"},
    )
    upstream = [snapshot_asset(spec, common) for spec in SNAPSHOT_ASSETS]

    @asset(name=PUBLICATION, deps=upstream,
           metadata={"table": "snapshot_runs"},
           description="Marks each snapshot of the run successful in snapshot_runs once all its rows are stored.",
           **common)
    def snapshot_publication(
        context: AssetExecutionContext,
        warehouse: WarehouseResource,
        chain: ChainResource,
    ) -> MaterializeResult:
        plan = run_plan(context, warehouse, chain.chain_id)
        if not plan.times:
            return MaterializeResult(metadata={"table": "snapshot_runs", "published": 0})
        with failures_recorded(context, warehouse, chain_id=chain.chain_id, times=plan.times,
                               asset=PUBLICATION, partition_range=plan.label):
            with warehouse.client() as client:
                summary = publish(context, client, chain_id=chain.chain_id, times=plan.times,
                                  partition_range=plan.label, upstream=SNAPSHOT_ASSET_NAMES)
        return MaterializeResult(metadata={"table": "snapshot_runs", **summary})

    return [*upstream, snapshot_publication]
