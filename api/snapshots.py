"""Resolve the latest successful snapshot, once per request (`latest_snapshot.sql`).

Every snapshot-backed route reads only that snapshot; `meta.snapshotAt`, the weak ETag and the
per-snapshot response cache key all come from it.
"""
from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from .errors import ApiError
from ..warehouse.sqlbook import SqlFile as Query
from ..core.epochs import iso

LATEST_SNAPSHOT = "latest_snapshot"
SNAPSHOT_UNAVAILABLE = "snapshot_unavailable"


@dataclass(frozen=True, slots=True)
class Snapshot:
    at_iso: str  # as printed in meta.snapshotAt and inside the ETag
    param: str  # the exact stored value, for {snapshot_at:DateTime64(3, 'UTC')}
    unix: int
    run_id: str
    block_number: int
    sources: tuple[str, ...]

    @property
    def etag(self) -> str:
        return f'W/"snap-{self.at_iso}"'

    @classmethod
    def from_row(cls, snapshot_at: datetime, run_id: str, block_number: int, sources: Any) -> "Snapshot":
        at = snapshot_at.replace(tzinfo=timezone.utc) if snapshot_at.tzinfo is None else snapshot_at.astimezone(timezone.utc)
        return cls(
            at_iso=iso(at),
            param=at.strftime("%Y-%m-%d %H:%M:%S.%f")[:-3],
            unix=int(at.timestamp()),
            run_id=run_id,
            block_number=int(block_number),
            sources=tuple(sources or ()),
        )


async def latest_snapshot(client: Any, query: Query, chain_id: int) -> Snapshot:
    """The latest successful snapshot; 503 `snapshot_unavailable` before the first one."""
    result = await client.query(query.text, parameters=query.bind({"chain_id": chain_id}))
    rows = result.result_rows
    if not rows:
        raise ApiError(
            503,
            SNAPSHOT_UNAVAILABLE,
            "no successful snapshot has been published yet; retry after the next 15-minute snapshot",
        )
    snapshot_at, run_id, block_number, sources = rows[0]
    return Snapshot.from_row(snapshot_at, run_id, block_number, sources)


class SnapshotResolver:
    """Resolves the latest snapshot for one chain, sharing one in-flight query between requests
    that arrive while it runs: under load the warehouse sees one resolution query at a time per
    worker instead of one per request, and every request still gets a resolution that started
    no earlier than a few milliseconds before it arrived."""

    def __init__(self, query: Query, chain_id: int):
        self.query = query
        self.chain_id = chain_id
        self._inflight: asyncio.Future[Snapshot] | None = None

    async def resolve(self, client: Any) -> Snapshot:
        future = self._inflight
        if future is None:
            future = asyncio.ensure_future(latest_snapshot(client, self.query, self.chain_id))
            self._inflight = future
            future.add_done_callback(self._clear)
        # shield: a caller that disconnects does not cancel the query the others wait on
        return await asyncio.shield(future)

    def _clear(self, future: asyncio.Future) -> None:
        if self._inflight is future:
            self._inflight = None
        if not future.cancelled():
            future.exception()  # retrieved here; every waiter re-raises it
