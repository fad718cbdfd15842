"""The latest successful snapshot of each chain, as every snapshot-backed route reads it.

Each API worker keeps a `SnapshotPointer`: the latest published snapshot per chain, refreshed in
the background every POINTER_REFRESH_SECONDS by one query for every chain
(`latest_snapshots.sql`), so a cache hit or a 304 costs no warehouse round trip. The bound: a
snapshot published (its success row written) is served by every worker within
POINTER_REFRESH_SECONDS plus one refresh query, under 2 s; a worker never goes back to an older
snapshot (the pointer only moves forward). While the warehouse is down, the last known snapshot
is served (its `snapshotAt` says how old it is; health measures the real age). A request for a
chain the pointer does not know refreshes it itself when the last successful refresh is older
than POINTER_STALE_SECONDS (before the first one, or while the follower fails): one query
shared by the requests that arrive meanwhile. A worker's compute child does not poll: it reads
again when the basis its worker sends with a computation is not its own (`catch_up`,
api/pipeline.py `child_basis`).

`meta.snapshotAt`, the weak ETag and the per-snapshot response cache key all come from it. The
same refresh follows the newest curation publication when a served route rests on one
(api/curation.py), so a new publication reaches every worker within the same bound.
"""
from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Awaitable, Callable

from .errors import ApiError
from ..warehouse.sqlbook import SqlFile as Query
from ..core.epochs import iso

log = logging.getLogger("api")

LATEST_SNAPSHOT = "latest_snapshot"  # one chain's (the README's recipe for analysts)
SNAPSHOT_UNAVAILABLE = "snapshot_unavailable"
SOURCE_UNAVAILABLE = "source_unavailable"


@dataclass(frozen=True, slots=True)
class Snapshot:
    at_iso: str  # as printed in meta.snapshotAt and inside the ETag
    param: str  # the exact stored value, for {snapshot_at:DateTime64(3, 'UTC')}
    unix: int
    run_id: str
    block_number: int
    sources: tuple[str, ...]
    indexed_at: str | None = None  # the timestamp of the block read (ISO)
    available_at: str | None = None  # when the snapshot was published: its success row (ISO)
    failed_at: str | None = None  # the boundary of the chain's newest failed attempt after this snapshot (ISO)

    @property
    def etag(self) -> str:
        return f'W/"snap-{self.at_iso}"'

    @property
    def key(self) -> str:
        """The response cache key's part (a multichain answer's is its Coverage.key)."""
        return self.at_iso

    @classmethod
    def from_row(cls, snapshot_at: datetime, run_id: str, block_number: int, sources: Any,
                 block_timestamp: datetime | None = None, finished_at: datetime | None = None,
                 failed_at: datetime | None = None) -> "Snapshot":
        at = _utc(snapshot_at)
        return cls(
            at_iso=iso(at),
            param=at.strftime("%Y-%m-%d %H:%M:%S.%f")[:-3],
            unix=int(at.timestamp()),
            run_id=run_id,
            block_number=int(block_number),
            sources=tuple(sources or ()),
            indexed_at=None if block_timestamp is None else iso(_utc(block_timestamp)),
            available_at=None if finished_at is None else iso(_utc(finished_at)),
            failed_at=None if failed_at is None else iso(_utc(failed_at)),
        )


def _utc(value: datetime) -> datetime:
    return value.replace(tzinfo=timezone.utc) if value.tzinfo is None else value.astimezone(timezone.utc)


POINTER_REFRESH_SECONDS = 1.0
POINTER_STALE_SECONDS = 5.0
LATEST_SNAPSHOTS = "latest_snapshots"
LATEST_VALUATIONS = "latest_valuations"  # queries/common/: when each chain's price evidence last changed


def unavailable() -> ApiError:
    return ApiError(503, SNAPSHOT_UNAVAILABLE,
                    "no successful snapshot has been published yet; retry after the next 15-minute snapshot")


class SnapshotPointer:
    """Per worker: the latest successful snapshot of every chain (see the module docstring)."""

    def __init__(self, query: Query, clock: Callable[[], float] = time.monotonic, curation: Any = None,
                 valuations: Query | None = None):
        self.query = query
        self.clock = clock
        self.curation = curation  # api.curation.CurationFollower: the newest curation publication, or None
        self.valuations = valuations  # latest_valuations.sql, when a served route rests on the hourly valuations
        self.latest: dict[int, Snapshot] = {}
        # chain -> when its price evidence last changed: a valuation or a snapshot run written (latest_valuations.sql)
        self.valued: dict[int, str] = {}
        self.refreshed_at: float | None = None  # clock() of the last successful refresh
        self.version = 0  # increases whenever `latest` changes (api/coverage.py reuses what it resolved until then)
        self._inflight: asyncio.Future[None] | None = None

    async def _refresh(self, client: Any) -> None:
        result = await client.query(self.query.text)
        for chain_id, *row in result.result_rows:
            snapshot = Snapshot.from_row(*row)
            current = self.latest.get(int(chain_id))
            if current is None or (snapshot.unix >= current.unix and snapshot != current):
                # forward only (a re-run of the same time may update its run; a failed attempt after it
                # marks it)
                self.latest[int(chain_id)] = snapshot
                self.version += 1
        if self.curation is not None and await self.curation.refresh(client):
            self.version += 1
        if self.valuations is not None:
            try:
                valued = {int(chain_id): at for chain_id, at in (await client.query(self.valuations.text)).result_rows}
            except Exception as exc:  # noqa: BLE001 - retried at the next refresh; the snapshots above still count
                log.warning("valuations refresh failed (%s: %s); keeping the last known", type(exc).__name__, exc)
            else:
                if valued != self.valued:
                    self.valued = valued
                    self.version += 1
        self.refreshed_at = self.clock()

    async def refresh(self, client: Any) -> None:
        """One refresh, shared by every caller that asks while it runs."""
        future = self._inflight
        if future is None:
            future = self._inflight = asyncio.ensure_future(self._refresh(client))
            future.add_done_callback(self._clear)
        # shield: a caller that disconnects does not cancel the query the others wait on
        await asyncio.shield(future)

    def _clear(self, future: asyncio.Future) -> None:
        if self._inflight is future:
            self._inflight = None
        if not future.cancelled():
            future.exception()  # retrieved here; every waiter re-raises it

    def current(self) -> bool:
        return self.refreshed_at is not None and self.clock() - self.refreshed_at < POINTER_STALE_SECONDS

    async def resolve(self, client: Callable[[], Awaitable[Any]], chain_id: int) -> Snapshot:
        """The chain's latest snapshot, without a query when the pointer knows it; 503
        `snapshot_unavailable` before the chain's first one. `client` opens (or returns) the
        warehouse client, awaited only when the pointer has no current answer for the chain."""
        snapshot = self.latest.get(chain_id)
        if snapshot is None and not self.current():  # before the follower's first refresh, or it stopped
            await self.refresh(await client())
            snapshot = self.latest.get(chain_id)
        if snapshot is None:
            raise unavailable()
        return snapshot

    async def every_chain(self, client: Callable[[], Awaitable[Any]]) -> dict[int, Snapshot]:
        """The latest snapshot of every chain the pointer knows, refreshed first when the pointer
        is not current; 503 `source_unavailable` when that refresh fails and nothing is known."""
        if not self.current():
            try:
                await self.refresh(await client())
            except Exception as exc:  # noqa: BLE001 - the last known snapshots still serve
                if not self.latest:
                    raise ApiError(503, SOURCE_UNAVAILABLE, "the warehouse is unreachable; retry with backoff") from exc
        return self.latest

    async def catch_up(self, client: Callable[[], Awaitable[Any]]) -> None:
        """One refresh now, keeping the last known state when it fails (a compute child's pointer,
        which follows its worker's instead of polling: api/compute_process.py)."""
        try:
            await self.refresh(await client())
        except Exception as exc:  # noqa: BLE001 - the last known snapshots still serve, as in `run`
            log.warning("snapshot pointer refresh failed (%s: %s); serving the last known snapshots",
                        type(exc).__name__, str(exc).splitlines()[0][:200] if str(exc) else "")

    async def run(self, client: Callable[[], Awaitable[Any]], interval: float = POINTER_REFRESH_SECONDS) -> None:
        """The background refresh loop of a worker (cancelled when the server stops)."""
        failing = False
        while True:
            try:
                await self.refresh(await client())
                if failing:
                    log.info("snapshot pointer refreshed again")
                failing = False
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - logged once per outage, retried next interval
                if not failing:
                    log.warning("snapshot pointer refresh failed (%s: %s); serving the last known snapshots",
                                type(exc).__name__, str(exc).splitlines()[0][:200] if str(exc) else "")
                failing = True
            await asyncio.sleep(interval)
