"""The steps of a chain's backfill as the instance runs them, and `ChainFill`, which walks one
chain through its plan (orchestration.backfill_plan): the recent history run, the newest snapshot
run, then the snapshot and older-history backfills. Runs are launched and followed through the
Dagster webserver (readers.dagster_webserver); nothing here blocks or sleeps."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from ..assets.partitions import SNAPSHOT_DAYS_PER_RUN, day_key, day_start_of, snapshot_day_key, snapshot_tags
from ..core.epochs import DAY, iso
from ..core.partition_keys import PARTITION_TAG, RANGE_END_TAG, RANGE_START_TAG
from ..core.pipeline_names import history_job, snapshot_job
from ..readers.dagster_webserver import BACKFILL_DONE, BACKFILL_FAILED, RUN_FINISHED, Webserver
from .backfill_plan import ChainPlan


PRIORITY_TAG = "dagster/priority"  # the run queue starts higher priorities first
# Set by Dagster's run retries (the instance's `run_retries`): on a failed run that will be launched
# again, then the id of that retry. Such a failure is not the step's outcome: its retry's is.
WILL_RETRY_TAG, RETRY_RUN_TAG = "dagster/will_retry", "dagster/auto_retry_run_id"


def _retried(run: dict) -> bool:
    return run["status"] == "FAILURE" and run["tags"].get(WILL_RETRY_TAG) == "true"


def fill_priority(plan: ChainPlan) -> str:
    """The chains with the most to fill go first (their runs are the long pole of the backfill):
    about one point per day of snapshots and per month of history."""
    return str(len(plan.snapshots) // 96 + len(plan.older_days) // 30)


def range_tags(keys: list[str]) -> dict[str, str]:
    """Tags of one run over the day partitions `keys` (consecutive days)."""
    if len(keys) == 1:
        return {PARTITION_TAG: keys[0]}
    return {RANGE_START_TAG: keys[0], RANGE_END_TAG: keys[-1]}


def run_days(run: dict[str, Any]) -> set[str]:
    """The day partitions a run covers (from its partition or range tags)."""
    tags = run["tags"]
    if tags.get(RANGE_START_TAG) and tags.get(RANGE_END_TAG):
        first, last = day_start_of(tags[RANGE_START_TAG]), day_start_of(tags[RANGE_END_TAG])
        return {day_key(t) for t in range(first, last + 1, DAY)}
    return {tags[PARTITION_TAG]} if tags.get(PARTITION_TAG) else set()


@dataclass
class Step:
    """One run (`keys` is None) or one backfill over `keys`, of `job` with `tags`."""

    name: str  # "recent history", "newest snapshot", "snapshots", "older history"
    job: str
    tags: dict[str, str]
    total: int  # units: snapshots or days
    unit: str
    keys: list[str] | None = None
    units_of: Callable[[list[dict], dict], int] | None = None  # (runs, backfill state) -> units done
    title: str = ""
    id: str = ""  # run id or backfill id
    status: str = ""
    runs: list[dict] = field(default_factory=list)
    done: int = 0
    error: str = ""

    @property
    def finished(self) -> bool:
        return self.status in ("SUCCESS", "FAILURE")

    def launch(self, web: Webserver) -> None:
        if self.keys is None:
            self.id = web.launch_run(self.job, self.tags)
        else:
            self.id = web.launch_backfill(self.job, self.keys, tags=self.tags, title=self.title,
                                          description=f"{self.total:,} {self.unit}")
        self.status = "LAUNCHED"

    def poll(self, web: Webserver, runs_by_id: dict[str, dict]) -> None:
        if self.finished or not self.id:
            return
        if self.keys is None:
            run = runs_by_id.get(self.id)
            if run is not None and _retried(run):
                self.id = run["tags"].get(RETRY_RUN_TAG) or self.id  # followed once the daemon launched it
            elif run is not None and run["status"] in RUN_FINISHED:
                ok = run["status"] == "SUCCESS"
                self.status, self.done = ("SUCCESS", self.total) if ok else ("FAILURE", 0)
                if not ok:
                    self.error = f"run {self.id} ended {run['status']}: {web.url}/runs/{self.id}"
            return
        state = web.backfill(self.id)
        self.runs = web.backfill_runs(self.id)
        self.done = self.units_of(self.runs, state) if self.units_of else 0
        counts, partitions = state["partitionStatusCounts"], state["numPartitions"] or 0
        settled = state["status"] in BACKFILL_DONE or (
            partitions and sum(counts.get(s, 0) for s in RUN_FINISHED) == partitions
            and all(r["status"] in RUN_FINISHED for r in self.runs))
        settled = settled and not any(_retried(r) and not r["tags"].get(RETRY_RUN_TAG) for r in self.runs)
        bad = [r for r in self.runs if r["status"] in ("FAILURE", "CANCELED") and not _retried(r)]
        if state["status"] in BACKFILL_FAILED:
            message = ((state.get("error") or {}).get("message") or "").strip()[:2000]
            self.status, self.error = "FAILURE", f"backfill {self.id} ended {state['status']}{': ' + message if message else ''}"
        elif settled:
            self.status = "FAILURE" if bad else "SUCCESS"
            if bad:
                self.error = (f"backfill {self.id}: {len(bad)} of {len(self.runs)} run(s) did not succeed "
                              f"({', '.join(r['runId'] + ' ' + r['status'] for r in bad)}); {web.url}/runs/b/{self.id}")

    def text(self) -> str:
        return f"{self.name} {self.done:,}/{self.total:,} {self.unit}"


def _history_units(runs: list[dict], state: dict) -> int:
    return state["partitionStatusCounts"].get("SUCCESS", 0)


class ChainFill:
    """One chain's backfill: phases "recent" -> "newest" -> "fill" -> "done" (or "failed")."""

    def __init__(self, plan: ChainPlan, *, force: bool = False):
        self.plan, self.force = plan, force
        self.cid = plan.chain_id
        self.phase = "new"
        self.steps: list[Step] = []  # the current phase's
        self.launched: list[Step] = []  # every step so far
        self.error = ""

    # -- the steps of each phase ----------------------------------------------------------------
    def _recent(self) -> list[Step]:
        keys = self.plan.recent_days
        return [Step("recent history", history_job(self.cid), range_tags(keys), len(keys), "days")] if keys else []

    def _newest(self) -> list[Step]:
        t = self.plan.newest
        if t is None:
            return []
        tags = {PARTITION_TAG: snapshot_day_key(t), **snapshot_tags(t, t, force=self.force)}
        return [Step("newest snapshot", snapshot_job(self.cid), tags, 1, "snapshot")]

    def _fill(self) -> list[Step]:
        steps = []
        times = self.plan.snapshots
        priority = {PRIORITY_TAG: fill_priority(self.plan)}
        if times:
            per_day: dict[str, int] = {}
            for t in times:
                per_day[snapshot_day_key(t)] = per_day.get(snapshot_day_key(t), 0) + 1

            def units(runs: list[dict], state: dict) -> int:
                days = set().union(*(run_days(r) for r in runs if r["status"] == "SUCCESS"))
                return sum(per_day.get(d, 0) for d in days)

            span = f"{iso(times[0])}..{iso(times[-1])}"
            steps.append(Step("snapshots", snapshot_job(self.cid),
                              {**snapshot_tags(times[0], times[-1], force=self.force), **priority},
                              len(times), "snapshots", keys=sorted(per_day), units_of=units,
                              title=f"chain {self.cid} snapshots {span} (runs of {SNAPSHOT_DAYS_PER_RUN} days)"))
        keys = self.plan.older_days
        if keys:
            steps.append(Step("older history", history_job(self.cid), priority, len(keys), "days", keys=keys,
                              units_of=_history_units, title=f"chain {self.cid} history {keys[0]}..{keys[-1]}"))
        return steps

    # -- walking --------------------------------------------------------------------------------
    PHASES = ("recent", "newest", "fill")

    def advance(self, web: Webserver, runs_by_id: dict[str, dict]) -> bool:
        """Poll the current steps and move on when they succeeded; True when the phase changed."""
        for step in self.steps:
            step.poll(web, runs_by_id)
        failed = [s for s in self.steps if s.status == "FAILURE"]
        if failed and all(s.finished for s in self.steps):
            self.phase, self.error = "failed", "; ".join(f"{s.name}: {s.error}" for s in failed)
            return True
        if self.phase in ("done", "failed") or not all(s.finished for s in self.steps):
            return False
        changed = False
        while self.phase != "done" and all(s.finished for s in self.steps):
            i = self.PHASES.index(self.phase) + 1 if self.phase in self.PHASES else 0
            if i >= len(self.PHASES):
                self.phase = "done"
                return True
            self.phase = self.PHASES[i]
            self.steps = {"recent": self._recent, "newest": self._newest, "fill": self._fill}[self.phase]()
            for step in self.steps:
                step.launch(web)
            self.launched += self.steps
            changed = True
        return changed

    @property
    def fresh(self) -> bool:
        """Past its newest snapshot (published, failed, or none to take)."""
        return self.phase in ("fill", "done", "failed")

    @property
    def finished(self) -> bool:
        return self.phase in ("done", "failed")

    def pending_runs(self) -> list[str]:
        """Ids of the launched single runs not known to have finished."""
        return [s.id for s in self.steps if s.keys is None and s.id and not s.finished]

    def open_backfills(self) -> list[str]:
        return [s.id for s in self.steps if s.keys is not None and s.id and not s.finished]

    def summary(self) -> dict[str, Any]:
        """Ids of what ran, by kind: history_run_ids / snapshot_run_ids (every run, the backfills'
        included) and backfill_ids; `error` when the chain failed."""
        history, snapshots = [], []
        for step in self.launched:
            ids = [step.id] if step.keys is None else [r["runId"] for r in step.runs]
            (snapshots if step.job == snapshot_job(self.cid) else history).extend(ids)
        return {"history_run_ids": history, "snapshot_run_ids": snapshots,
                "backfill_ids": [s.id for s in self.launched if s.keys is not None],
                "history_days": len(self.plan.recent_days) + len(self.plan.older_days), "error": self.error}

    def text(self) -> str:
        if self.phase == "failed":
            return f"chain {self.cid} FAILED"
        if self.phase == "done":
            p = self.plan
            return (f"chain {self.cid} done ({len(p.recent_days) + len(p.older_days):,} history days, "
                    f"{p.snapshot_total:,} snapshots)")
        return f"chain {self.cid} " + ", ".join(s.text() for s in self.steps)
