"""What a snapshot asset's `write` function gets (`SnapshotStep`): the planned snapshots at their
blocks, the readers, an open warehouse client, and helpers to read per snapshot and insert."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, TypeVar

from .resources import ChainHandle, Progress
from .snapshot_plan import SnapshotPlan
from .upstream import SnapshotPoint, fetch_each
from .writers import insert_columns
from ..readers.graphql import SubgraphClient

R = TypeVar("R")


@dataclass
class SnapshotStep:
    asset: str
    plan: SnapshotPlan
    points: list[SnapshotPoint]
    client: Any
    subgraph: SubgraphClient
    chain: ChainHandle
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

    def each(self, read: Callable[[SnapshotPoint], R], stage: str | None = None) -> list[R]:
        """`read` of every point, a few at a time, in point order; progress reported under `stage`."""
        return fetch_each(self.points, read, on_done=self._on_done(stage) if stage else None)

    def rows_each(self, read: Callable[[SnapshotPoint], list[dict]], stage: str | None = None) -> list[dict]:
        """The rows `read` returns for every point, concatenated in point order."""
        return [row for rows in self.each(read, stage) for row in rows]

    def _on_done(self, stage: str) -> Callable[[int, int], None]:
        return lambda done, total: self.progress.report(f"snapshots: {stage}", done, total)
