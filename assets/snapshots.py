"""15-minute snapshot assets: tokens, pools, protocol, and their publication.

Every asset handles a whole partition range in one run (BackfillPolicy.single_run). The run's
snapshot times are planned once (`plan_snapshots`): the ends of the 15-minute windows of its
days, bounded by the run's tags, minus the ones already published (unless forced). Each time is
read at the last block at or before it, and each table gets one insert per run.
`snapshot_publication` marks the planned snapshots successful only after every snapshot asset
succeeded in the same run.

`snapshot_asset()` is the one shape of a snapshot asset: plan, record failures, resolve blocks,
open a warehouse client, then the asset's own `write(step)` returning rows per table.
"""

import threading
from dataclasses import dataclass, field
from typing import Any, Callable

from dagster import (
    AssetExecutionContext,
    AssetsDefinition,
    BackfillPolicy,
    MaterializeResult,
    PartitionsDefinition,
    ResourceParam,
    asset,
)

from ve_analytics.assets.publication import failures_recorded, publish, published_times, run_id_of
from ve_analytics.assets.snapshot_rows import load_flow_series, pool_columns, protocol_columns, token_columns
from ve_analytics.assets.upstream import SnapshotPoint, resolve_points, window_snapshot_times
from ve_analytics.assets.writers import insert_columns
from ve_analytics.core.epochs import QUARTER_HOUR, floor_to, iso
from ve_analytics.assets.partitions import FORCE_TAG, SNAPSHOTS_FROM_TAG, SNAPSHOTS_UNTIL_TAG, parse_tag_time
from ve_analytics.assets.resources import ChainResource, Progress, SubgraphResource, WarehouseResource
from ve_analytics.readers.graphql import SubgraphClient

GROUP = "snapshots"


@dataclass(frozen=True)
class SnapshotPlan:
    times: list[int]  # snapshot times (Unix seconds) this run materializes
    label: str  # the range, for dedup tokens and snapshot_runs


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


@dataclass
class SnapshotStep:
    """What a snapshot asset's `write` gets: the planned snapshots at their blocks, the readers and
    an open warehouse client."""

    asset: str
    plan: SnapshotPlan
    points: list[SnapshotPoint]
    client: Any
    subgraph: SubgraphClient
    chain: ChainResource
    progress: Progress
    warnings: list[str] = field(default_factory=list)

    @property
    def times(self) -> list[int]:
        return self.plan.times

    @property
    def chain_id(self) -> int:
        return self.chain.chain_id

    def insert(self, table: str, columns: dict[str, list]) -> int:
        return insert_columns(self.client, table, columns, asset=self.asset, partition_range=self.plan.label)

    def on_done(self, stage: str) -> Callable[[int, int], None]:
        return lambda done, total: self.progress.report(f"snapshots: {stage}", done, total)


def snapshot_asset(
    name: str, tables: tuple[str, ...], description: str, common: dict[str, Any],
    write: Callable[[SnapshotStep], dict[str, int]],
) -> AssetsDefinition:
    @asset(name=name, metadata={"tables": ", ".join(tables)}, description=description, **common)
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
                               asset=name, partition_range=plan.label):
            points = resolve_points(chain.reader, subgraph.client, plan.times)
            with warehouse.client() as client:
                step = SnapshotStep(name, plan, points, client, subgraph.client, chain, progress)
                rows = write(step)
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


# -- the market snapshot tables ---------------------------------------------------------------
def write_tokens(s: SnapshotStep) -> dict[str, int]:
    columns = token_columns(s.subgraph, s.chain_id, s.points, on_done=s.on_done("tokens"))
    return {"token_snap15m": s.insert("token_snap15m", columns)}


def write_pools(s: SnapshotStep) -> dict[str, int]:
    protocol, per_pool = load_flow_series(s.client, s.chain_id, s.times)
    columns = pool_columns(s.subgraph, s.chain_id, s.points, protocol, per_pool, on_done=s.on_done("pools"))
    return {"pool_snap15m": s.insert("pool_snap15m", columns)}


def write_protocol(s: SnapshotStep) -> dict[str, int]:
    protocol, _ = load_flow_series(s.client, s.chain_id, s.times)
    columns = protocol_columns(s.subgraph, s.chain.reader, s.chain_id, s.points, protocol,
                               s.chain.contracts()["coreToken"], warnings=s.warnings,
                               on_done=s.on_done("protocol"))
    return {"protocol_snap15m": s.insert("protocol_snap15m", columns)}


def build_snapshot_assets(partitions_def: PartitionsDefinition) -> list[AssetsDefinition]:
    from ve_analytics.assets.core_token import MARKET_SNAPSHOT_ASSETS
    from ve_analytics.assets.governance import GOVERNANCE_SNAPSHOT_ASSETS
    from ve_analytics.assets.vaults import VAULT_SNAPSHOT_ASSETS

    common = dict(
        partitions_def=partitions_def,
        backfill_policy=BackfillPolicy.multi_run(4),
        group_name=GROUP,
        kinds={"clickhouse", "python"},
    )
    specs = [
        ("token_snapshots", ("token_snap15m",), "Every token at each snapshot block (token_snap15m).", write_tokens),
        ("pool_snapshots", ("pool_snap15m",),
         "Every pool at each snapshot block with its 24h flows from pool_hourly (pool_snap15m).", write_pools),
        ("protocol_snapshot", ("protocol_snap15m",),
         "Protocol TVL, rolling flows and governance state per snapshot (protocol_snap15m).", write_protocol),
        *GOVERNANCE_SNAPSHOT_ASSETS,
        *MARKET_SNAPSHOT_ASSETS,
        *VAULT_SNAPSHOT_ASSETS,
    ]
    upstream = [snapshot_asset(name, tables, description, common, write) for name, tables, description, write in specs]

    @asset(name="snapshot_publication", deps=upstream,
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
                               asset="snapshot_publication", partition_range=plan.label):
            with warehouse.client() as client:
                summary = publish(context, client, chain_id=chain.chain_id, times=plan.times,
                                  partition_range=plan.label)
        return MaterializeResult(metadata={"table": "snapshot_runs", **summary})

    return [*upstream, snapshot_publication]
