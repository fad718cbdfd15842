"""What an asset reads of its Dagster run: the partition (range) window, the run's id, tags and
creation and start times, and which of its steps have succeeded."""
from __future__ import annotations

from dagster import DagsterEventType, DagsterInstance

from ..core import clock


def partition_range(context) -> tuple[int, int, str]:
    """(start, end) Unix seconds of a run's partition (range) window and its label for dedup tokens."""
    window, keys = context.partition_time_window, context.partition_key_range
    return int(window.start.timestamp()), int(window.end.timestamp()), f"{keys.start}..{keys.end}"


def run_id_of(context) -> str:
    run = getattr(context, "run", None)
    return run.run_id if run is not None else context.run_id


def run_created_at(context) -> int:
    """When the run was created (Unix seconds), from the instance's run record."""
    record = context.instance.get_run_record_by_id(run_id_of(context))
    return int(clock.from_wall(record.create_timestamp.timestamp()))


def run_started_at(context) -> float:
    try:
        record = context.instance.get_run_record_by_id(run_id_of(context))
        if record is not None and record.start_time:
            return clock.from_wall(float(record.start_time))
    except Exception:  # noqa: BLE001 - the start time is informative only
        pass
    return clock.now()


def succeeded_steps(instance: DagsterInstance, run_id: str) -> set[str]:
    """Keys of the run's steps that have succeeded so far (an asset's step key is its name)."""
    return {e.step_key for e in instance.all_logs(run_id, of_type=DagsterEventType.STEP_SUCCESS)}
