"""Schedules, per chain: a snapshot every 15 minutes, the hourly history every hour.

- `snapshot_schedule_<chain>` (*/15) requests the snapshot at the boundary that just passed (its
  day partition, bounded to that one time by tags) and skips while another run of the chain's
  snapshot job is in progress: a slow upstream delays that chain's snapshot instead of piling runs
  up, and the other chains' schedules go on. A boundary skipped so (or whose run failed) is
  refilled by the chain's catch-up sensor (orchestration.catchup).
- `history_schedule_<chain>` (minute 1 of every hour) requests the daily partition containing the hour
  that just ended; right after midnight that is the previous day, which completes it, and at
  01:01 the previous day is requested once more, so an hour the subgraph had not indexed yet at
  00:01 (a lagging upstream) is still written.
Both default to RUNNING, so `dagster-daemon` on the local default runs them without a click.
"""

from dagster import (
    DagsterRunStatus,
    DefaultScheduleStatus,
    RunRequest,
    RunsFilter,
    ScheduleDefinition,
    ScheduleEvaluationContext,
    SkipReason,
    schedule,
)

from ..core.epochs import DAY, HOUR, iso
from ..assets.partitions import day_key, latest_day_key, latest_snapshot_at, snapshot_day_key, snapshot_tags
from ..core import clock

IN_PROGRESS = [
    DagsterRunStatus.QUEUED,
    DagsterRunStatus.NOT_STARTED,
    DagsterRunStatus.STARTING,
    DagsterRunStatus.STARTED,
]


def runs_in_progress(instance, job_name: str) -> list[str]:
    """Ids of the job's runs queued or running (at most 5)."""
    runs = instance.get_runs(filters=RunsFilter(job_name=job_name, statuses=IN_PROGRESS), limit=5)
    return [r.run_id for r in runs]


def build_schedules(chain_id: int, snapshot_job, history_job) -> list[ScheduleDefinition]:
    @schedule(
        name=f"snapshot_schedule_{chain_id}",
        cron_schedule="*/15 * * * *",
        job=snapshot_job,
        execution_timezone="UTC",
        default_status=DefaultScheduleStatus.RUNNING,
        description=f"Chain {chain_id}: the 15-minute snapshot that just ended; skipped while a snapshot run of "
                    "the chain is in progress.",
    )
    def snapshot_schedule(context: ScheduleEvaluationContext):
        running = runs_in_progress(context.instance, snapshot_job.name)
        if running:
            return SkipReason(f"{snapshot_job.name} run {running[0]} is still in progress")
        at = latest_snapshot_at(clock.from_wall(context.scheduled_execution_time.timestamp()))
        return RunRequest(run_key=iso(at), partition_key=snapshot_day_key(at),
                          tags={**snapshot_tags(at, at), "trigger": "snapshot_schedule"})

    @schedule(
        name=f"history_schedule_{chain_id}",
        cron_schedule="1 * * * *",
        job=history_job,
        execution_timezone="UTC",
        default_status=DefaultScheduleStatus.RUNNING,
        description=f"Chain {chain_id}: hourly buckets, daily rollups and events of the day containing the hour "
                    "that just ended.",
    )
    def history_schedule(context: ScheduleEvaluationContext):
        running = runs_in_progress(context.instance, history_job.name)
        if running:
            return SkipReason(f"{history_job.name} run {running[0]} is still in progress")
        ts = int(clock.from_wall(context.scheduled_execution_time.timestamp()))
        hour = ts - ts % HOUR
        keys = [latest_day_key(ts)]
        if hour % DAY == HOUR:  # 01:01: once more for yesterday
            keys.insert(0, day_key(hour - DAY))
        return [RunRequest(run_key=f"{key}@{hour}", partition_key=key, tags={"trigger": "history_schedule"})
                for key in keys]

    return [snapshot_schedule, history_schedule]
