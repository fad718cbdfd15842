"""The 15-minute snapshot assets of one chain (one per entry of assets.registry that the chain
supports) and its `snapshot_publication`. Each chain publishes on its own: a fault on one chain
fails that chain's run and leaves its previous snapshot current, while the other chains' runs
publish on time.

Every asset handles a whole partition range in one run (a backfill makes runs of
SNAPSHOT_DAYS_PER_RUN days: BackfillPolicy.multi_run) and plans the run's snapshot times itself (assets.snapshot_plan), from the run's window, tags and creation time
and the times already published. Each time is read at the last block at or before it, and each
table gets one insert per run. `snapshot_publication` marks the planned snapshots successful only
after every snapshot asset succeeded in the same run.

`snapshot_asset()` is the one shape of a snapshot asset: plan, record failures, resolve blocks,
open a warehouse client, then the entry's `write(step)` returning rows per table.
"""

from dagster import AssetExecutionContext, AssetsDefinition, MaterializeResult, ResourceParam, asset

from . import groups
from .chain_scope import ChainScope
from .coverage import record_coverage
from .partitions import SNAPSHOTS_UNTIL_TAG
from .publication import failures_recorded, publish, published_times
from .registry import PUBLICATION, SnapshotAsset, snapshot_assets_for
from .resources import ChainsResource, Progress, WarehouseResource
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


def snapshot_asset(spec: SnapshotAsset, scope: ChainScope) -> AssetsDefinition:
    cid = scope.chain_id

    @asset(name=spec.name, metadata={"tables": ", ".join(spec.tables), "chain": cid},
           description=f"Chain {cid}: {spec.description}", **groups.snapshot_asset(scope))
    def _snapshot_asset(
        context: AssetExecutionContext,
        warehouse: WarehouseResource,
        chains: ChainsResource,
        progress: ResourceParam[Progress],
    ) -> MaterializeResult:
        plan = run_plan(context, warehouse, cid)
        if not plan.times:
            return MaterializeResult(metadata={"snapshots": 0, "note": "nothing to materialize: published or not due"})
        chain = chains.chain(cid)
        with failures_recorded(context, warehouse, chain_id=cid, times=plan.times,
                               asset=spec.name, partition_range=plan.label):
            try:
                points = resolve_points(chain.reader, chain.subgraph, plan.times)
            except Exception:  # the heads say whether the chain's subgraph lags (publication records them otherwise)
                record_coverage(warehouse, cid, heads=(chain.reader, chain.subgraph))
                raise
            with warehouse.client() as client:
                step = SnapshotStep(spec.name, plan, points, client, chain.subgraph, chain, progress)
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


def build_snapshot_assets(scope: ChainScope) -> list[AssetsDefinition]:
    """The chain's snapshot assets (the registry's, those its features support) and its publication."""
    specs = snapshot_assets_for(scope.chain)
    upstream = [snapshot_asset(spec, scope) for spec in specs]
    upstream_steps = [scope.step(spec.name) for spec in specs]
    cid = scope.chain_id

    @asset(name=PUBLICATION, deps=upstream,
           metadata={"table": "snapshot_runs", "chain": cid},
           description=f"Chain {cid}: marks each snapshot of the run successful in snapshot_runs once all its rows "
                       "are stored.",
           **groups.snapshot_asset(scope))
    def snapshot_publication(context: AssetExecutionContext, warehouse: WarehouseResource,
                             chains: ChainsResource) -> MaterializeResult:
        plan = run_plan(context, warehouse, cid)
        if not plan.times:
            return MaterializeResult(metadata={"table": "snapshot_runs", "published": 0})
        with failures_recorded(context, warehouse, chain_id=cid, times=plan.times,
                               asset=PUBLICATION, partition_range=plan.label):
            with warehouse.client() as client:
                summary = publish(context, client, chain_id=cid, times=plan.times,
                                  partition_range=plan.label, upstream=upstream_steps)
        chain = chains.chain(cid)
        record_coverage(warehouse, cid, heads=(chain.reader, chain.subgraph), snapshots=(plan.times[0], plan.times[-1]))
        return MaterializeResult(metadata={"table": "snapshot_runs", **summary})

    return [*upstream, snapshot_publication]
