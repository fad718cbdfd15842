"""Sensors: a failed snapshot run leaves a 'failed' row in snapshot_runs even when it died
before any asset could record it (run crash, resource init error, interrupted worker).

The assets themselves record failures as they happen (assets.publication.failures_recorded);
this sensor is the backstop for runs launched by the daemon, and leaves the rows they wrote (they
carry the cause, e.g. the dead upstream's line, where the run's failure event says only which
steps failed). Rows are keyed by
(chain, snapshot_at, run_id), so recording the same failure twice keeps one row.
"""


from dagster import DefaultSensorStatus, RunFailureSensorContext, SensorDefinition, run_failure_sensor

from ..assets.partitions import day_start_of
from ..assets.publication import failed_times, published_times, record_failure
from ..assets.registry import PUBLICATION
from ..assets.resources import WarehouseResource
from ..assets.runs import succeeded_steps
from ..assets.snapshot_plan import due_times
from ..core.epochs import DAY
from ..core.pipeline_names import CHAIN_TAG
from ..core import clock

PARTITION_TAG = "dagster/partition"
RANGE_START_TAG = "dagster/asset_partition_range_start"
RANGE_END_TAG = "dagster/asset_partition_range_end"


def snapshot_times_of_run(tags: dict[str, str], created_at: int | None = None) -> list[int]:
    """Snapshot times a snapshot_job run could have covered: the 15-minute boundaries of its day
    partition (range) within its bound tags (without an upper bound: up to `created_at`)."""
    if tags.get(RANGE_START_TAG) and tags.get(RANGE_END_TAG):
        first_day, last_day = day_start_of(tags[RANGE_START_TAG]), day_start_of(tags[RANGE_END_TAG])
    elif tags.get(PARTITION_TAG):
        first_day = last_day = day_start_of(tags[PARTITION_TAG])
    else:
        return []
    return due_times(first_day, last_day + DAY, tags, created_at)


def build_sensors(snapshot_jobs: list) -> list[SensorDefinition]:
    @run_failure_sensor(
        name="snapshot_failure_sensor",
        monitored_jobs=snapshot_jobs,
        default_status=DefaultSensorStatus.RUNNING,
        description="Records a 'failed' snapshot_runs row for every snapshot of a failed snapshot run, on its chain.",
    )
    def snapshot_failure_sensor(context: RunFailureSensorContext, warehouse: WarehouseResource):
        tags = dict(context.dagster_run.tags)
        if not tags.get(CHAIN_TAG, "").isdigit():
            return
        chain_id = int(tags[CHAIN_TAG])
        record = context.instance.get_run_record_by_id(context.dagster_run.run_id)
        created = int(clock.from_wall(record.create_timestamp.timestamp()) if record else clock.now())
        times = snapshot_times_of_run(tags, created)
        if times:  # a published snapshot stays published, and a failure the failing asset
            # recorded keeps its cause: only the others get a failed row
            with warehouse.client() as client:
                done = published_times(client, chain_id, times)
                done |= failed_times(client, chain_id, context.dagster_run.run_id, times)
            times = [t for t in times if t not in done]
        if not times:
            return
        if any(step.endswith(f"__{PUBLICATION}") for step in succeeded_steps(context.instance, context.dagster_run.run_id)):
            return  # published; a later failure (e.g. a check step) must not unpublish it
        record_failure(
            warehouse,
            run_id=context.dagster_run.run_id,
            started_at=(clock.from_wall(record.start_time) if record and record.start_time else clock.now()),
            chain_id=chain_id,
            times=times,
            asset="snapshot_job",
            partition_range=f"{times[0]}..{times[-1]}",
            message=f"run failed: {context.failure_event.message or 'no message'}",
            log=context.log,
        )

    return [snapshot_failure_sensor]
