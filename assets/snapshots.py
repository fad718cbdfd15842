"""The 15-minute snapshot assets (one per entry of assets.registry) and `snapshot_publication`.

Every asset handles a whole partition range in one run (BackfillPolicy.single_run). The run's
snapshot times are planned once (`plan_snapshots`): the ends of the 15-minute windows of its
days, bounded by the run's tags, minus the ones already published (unless forced). Each time is
read at the last block at or before it, and each table gets one insert per run. `snapshot_publication` marks the planned snapshots successful only
after every snapshot asset succeeded in the same run.

`snapshot_asset()` is the one shape of a snapshot asset: plan, record failures, resolve blocks,
open a warehouse client, then the entry's `write(step)` returning rows per table.
"""
import threading

from dagster import (
    AssetExecutionContext,
    AssetsDefinition,
    BackfillPolicy,
    MaterializeResult,
    PartitionsDefinition,
    ResourceParam,
    asset,
)

from ve_analytics.assets import groups
from ve_analytics.assets.partitions import FORCE_TAG, SNAPSHOTS_FROM_TAG, SNAPSHOTS_UNTIL_TAG, parse_tag_time
from ve_analytics.assets.publication import failures_recorded, publish, published_times
from ve_analytics.assets.registry import PUBLICATION, SNAPSHOT_ASSET_NAMES, SNAPSHOT_ASSETS, SnapshotAsset
from ve_analytics.assets.resources import ChainResource, Progress, SubgraphResource, WarehouseResource
from ve_analytics.assets.runs import run_id_of
from ve_analytics.assets.snapshot_plan import SnapshotPlan
from ve_analytics.assets.snapshot_step import SnapshotStep
from ve_analytics.assets.upstream import resolve_points, window_snapshot_times
from ve_analytics.core.epochs import QUARTER_HOUR, floor_to, iso


_plans: dict[str, SnapshotPlan] = {}
_plans_lock = threading.Lock()


def plan_snapshots(context: AssetExecutionContext, warehouse: WarehouseResource, chain_id: int) -> SnapshotPlan:
    """The run's snapshot times, computed once per run so that every asset of it agrees."""
    run_id = run_id_of(context)
    with _plans_lock:
        if run_id in _plans:
            return _plans[run_id]
    window = context.partition_time_window
    times = window_snapshot_times(int(window.start.timestamp()), int(window.end.timestamp()))
    tags = context.run.tags
    if SNAPSHOTS_UNTIL_TAG in tags:
        until = parse_tag_time(tags[SNAPSHOTS_UNTIL_TAG])
    else:  # launched without bounds (the Dagster UI): every boundary passed when the run was created
        record = context.instance.get_run_record_by_id(run_id)
        until = floor_to(int(record.create_timestamp.timestamp()), QUARTER_HOUR)
    first = parse_tag_time(tags[SNAPSHOTS_FROM_TAG]) if SNAPSHOTS_FROM_TAG in tags else 0
    times = [t for t in times if first <= t <= until]
    if times and tags.get(FORCE_TAG) != "true":
        with warehouse.client() as client:
            published = published_times(client, chain_id, times)
        times = [t for t in times if t not in published]
    plan = SnapshotPlan(times, f"{iso(times[0])}..{iso(times[-1])}" if times else "")
    with _plans_lock:
        if len(_plans) > 16:
            _plans.clear()
        _plans[run_id] = plan
    return plan


def snapshot_asset(spec: SnapshotAsset, common: dict) -> AssetsDefinition:
    @asset(name=spec.name, metadata={"tables": ", ".join(spec.tables)}, description=spec.description, **common)
    def _snapshot_asset(
        context: AssetExecutionContext,
        warehouse: WarehouseResource,
        subgraph: SubgraphResource,
        chain: ChainResource,
        progress: ResourceParam[Progress],
    ) -> MaterializeResult:
        plan = plan_snapshots(context, warehouse, chain.chain_id)
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
        backfill_policy=BackfillPolicy.single_run(),
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
        plan = plan_snapshots(context, warehouse, chain.chain_id)
        if not plan.times:
            return MaterializeResult(metadata={"table": "snapshot_runs", "published": 0})
        with failures_recorded(context, warehouse, chain_id=chain.chain_id, times=plan.times,
                               asset=PUBLICATION, partition_range=plan.label):
            with warehouse.client() as client:
                summary = publish(context, client, chain_id=chain.chain_id, times=plan.times,
                                  partition_range=plan.label, upstream=SNAPSHOT_ASSET_NAMES)
        return MaterializeResult(metadata={"table": "snapshot_runs", **summary})

    return [*upstream, snapshot_publication]
