"""A snapshot run's plan: the snapshot times it materializes."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SnapshotPlan:
    times: list[int]  # snapshot times (Unix seconds) this run materializes
    label: str  # the range, for dedup tokens and snapshot_runs
