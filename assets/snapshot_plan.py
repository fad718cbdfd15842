"""A snapshot run's plan: the snapshot times it materializes, as a pure function of the run.

A run takes the ends of the 15-minute windows of its day partition (range), bounded by its tags
`ve/snapshots_from` / `ve/snapshots_until` (without an until tag: every boundary passed when the
run was created), minus the times already published in snapshot_runs unless tagged `ve/force`.

Every asset of a run plans for itself, and they all agree without sharing any state: the window,
the tags and the creation time are fixed for the run, and the published set only changes when
`snapshot_publication` writes its 'success' rows, which it does as the last asset of the run and
after planning. So every asset of a run, publication included, sees the same published set.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import AbstractSet, Mapping, Sequence

from .partitions import FORCE_TAG, SNAPSHOTS_FROM_TAG, SNAPSHOTS_UNTIL_TAG, parse_tag_time
from ..core.epochs import QUARTER_HOUR, iso


@dataclass(frozen=True)
class SnapshotPlan:
    times: list[int]  # snapshot times (Unix seconds) this run materializes
    label: str  # the range, for dedup tokens and snapshot_runs


def window_snapshot_times(start_ts: int, end_ts: int) -> list[int]:
    """Snapshot times (15-minute window ends) of a partition window [start_ts, end_ts)."""
    return list(range(start_ts + QUARTER_HOUR, end_ts + 1, QUARTER_HOUR))


def times_within_tags(times: Sequence[int], tags: Mapping[str, str], created_at: int | None) -> list[int]:
    """Those of `times` within the run's from/until tags; without an until tag, up to the run's
    creation `created_at` (no upper bound when that is None too)."""
    first = parse_tag_time(tags[SNAPSHOTS_FROM_TAG]) if SNAPSHOTS_FROM_TAG in tags else 0
    until = parse_tag_time(tags[SNAPSHOTS_UNTIL_TAG]) if SNAPSHOTS_UNTIL_TAG in tags else created_at
    return [t for t in times if first <= t and (until is None or t <= until)]


def is_forced(tags: Mapping[str, str]) -> bool:
    return tags.get(FORCE_TAG) == "true"


def due_times(window_start: int, window_end: int, tags: Mapping[str, str], created_at: int | None) -> list[int]:
    """The run's snapshot times before skipping published ones."""
    return times_within_tags(window_snapshot_times(window_start, window_end), tags, created_at)


def plan_snapshots(due: Sequence[int], tags: Mapping[str, str], published: AbstractSet[int]) -> SnapshotPlan:
    """The plan of a run whose due times are `due`, given the times already published."""
    times = list(due) if is_forced(tags) else [t for t in due if t not in published]
    return SnapshotPlan(times, f"{iso(times[0])}..{iso(times[-1])}" if times else "")
