"""Shared upstream reads for the assets: the blocks snapshots and history ranges are read at,
the subgraph's field lists, and `fetch_each` (one read per snapshot, a few at a time).

Nothing here writes; assets.rows turns these reads into warehouse rows.
"""
from __future__ import annotations

import logging
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Callable, Sequence, TypeVar

from ..readers.chain import BlockNotFinal, BlockRef, ChainReader
from ..readers.graphql import SubgraphClient, SubgraphError, SubgraphMeta

log = logging.getLogger("assets.upstream")
T = TypeVar("T")
R = TypeVar("R")

# How long a run waits for the chain to pass a snapshot time, or the subgraph to index the block
# (a run started right at a 15-minute boundary); after that the asset fails and records it.
HEAD_WAIT_SECONDS = 60.0
# A subgraph whose indexed head is further behind the newest snapshot time than this is lagging,
# not just catching up with a boundary: the run fails at once instead of waiting.
LAGGING_SECONDS = 600
FETCH_WORKERS = 4  # concurrent upstream reads within one run (snapshot times are independent)

TOKEN_FIELDS = "symbol name decimals derivedETH priceUSD totalValueLockedUSD"
POOL_FIELDS = (
    "type token0 { id symbol decimals } token1 { id symbol decimals } feeTier isDynamicFee isCustomFee "
    "tickSpacing liquidity sqrtPrice tick reserve0 reserve1 totalValueLockedUSD volumeUSD feesUSD createdAtTimestamp "
    "gauge { id isAlive }"
)
POOL_TVL_FIELDS = "type totalValueLockedUSD"
POOL_HOUR_FIELDS = ("periodStartUnix pool { id } volumeUSD feesUSD tvlUSD txCount "
                    "liquidity sqrtPrice tick reserve0 reserve1")  # the last five: the state at the hour's close
HOURLY_POOL_FIELDS = "createdAtTimestamp type token0 { decimals } token1 { decimals }"
TOKEN_HOUR_FIELDS = "periodStartUnix token { id } priceUSD volumeUSD"


@dataclass(frozen=True)
class SnapshotPoint:
    snapshot_at: int  # T, Unix seconds (a 15-minute boundary)
    block: BlockRef  # the last block with timestamp <= T


def subgraph_head(subgraph: SubgraphClient) -> SubgraphMeta:
    meta = subgraph.meta()
    if meta.has_indexing_errors:
        raise SubgraphError(subgraph.url, f"subgraph reports indexing errors at block {meta.block_number}")
    return meta


@dataclass(frozen=True)
class HistoryBlock:
    """The one block a history range [start, end) is read at: the block at `end` when the
    subgraph has indexed past it, else the subgraph head (the range reaches the present)."""

    number: int
    timestamp: int  # the block's own time: what aggregates read at the block are as of
    ended_by: int  # periods ending by this time had ended at the block: `end`, or the head's time
    events_before: int  # every event with a timestamp before this is visible at the block


def history_block(subgraph: SubgraphClient, chain: ChainReader, end: int) -> HistoryBlock:
    head = subgraph_head(subgraph)
    if head.block_timestamp > end:
        at = chain.block_at(end)  # before the subgraph head, which is past `end`
        return HistoryBlock(at.number, at.timestamp, end, end)
    return HistoryBlock(head.block_number, head.block_timestamp, head.block_timestamp, head.block_timestamp + 1)


def resolve_points(
    chain: ChainReader,
    subgraph: SubgraphClient,
    times: Sequence[int],
    *,
    wait_seconds: float = HEAD_WAIT_SECONDS,
) -> list[SnapshotPoint]:
    """Block of every snapshot time; waits (bounded) for the chain and subgraph to pass them.

    A time whose block is not final yet (the chain head has not passed it) or not yet indexed by
    the subgraph makes the run wait up to `wait_seconds`, then fail: never a partial snapshot. A
    subgraph more than LAGGING_SECONDS behind the newest time fails the run at once.
    """
    if not times:
        return []
    deadline = time.monotonic() + wait_seconds
    while True:
        head = chain.head()
        if head.timestamp > max(times):
            break
        if time.monotonic() >= deadline:
            raise BlockNotFinal(
                f"chain head {head.number} at {head.timestamp} has not passed snapshot time {max(times)}"
            )
        time.sleep(min(3.0, max(0.2, deadline - time.monotonic())))
    points = [SnapshotPoint(t, chain.block_at(t, head)) for t in times]
    need = max(p.block.number for p in points)
    while True:
        meta = subgraph_head(subgraph)
        if meta.block_number >= need:
            break
        if meta.block_timestamp < max(times) - LAGGING_SECONDS:
            raise SubgraphError(
                subgraph.url,
                f"subgraph is lagging: indexed up to block {meta.block_number} "
                f"({max(times) - meta.block_timestamp} s before snapshot time {max(times)}), snapshot needs {need}",
            )
        if time.monotonic() >= deadline:
            raise SubgraphError(
                subgraph.url,
                f"subgraph is behind: indexed up to block {meta.block_number}, snapshot needs {need}",
                retryable=True,
            )
        time.sleep(1.0)
    return points


def protocol_start(subgraph: SubgraphClient) -> int | None:
    """Creation time of the first pool: where the protocol's history begins (None if no pool)."""
    data = subgraph.query(
        "{ pools(first: 1, orderBy: createdAtTimestamp, orderDirection: asc) { id createdAtTimestamp } }"
    )
    pools = data.get("pools") or []
    return int(pools[0]["createdAtTimestamp"]) if pools else None


def fetch_each(
    items: Sequence[T],
    fn: Callable[[T], R],
    *,
    workers: int = FETCH_WORKERS,
    on_done: Callable[[int, int], None] | None = None,
) -> list[R]:
    """`fn` over `items` with a few threads, results in input order; the first error raises."""
    total = len(items)
    if workers <= 1 or total <= 1:
        out = []
        for i, item in enumerate(items, 1):
            out.append(fn(item))
            if on_done:
                on_done(i, total)
        return out
    results: list[Any] = [None] * total
    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="upstream")
    try:
        futures = [pool.submit(fn, item) for item in items]
        for i, fut in enumerate(futures):
            results[i] = fut.result()  # raises the first failure in input order
            if on_done:
                on_done(i + 1, total)
    finally:
        # after a failure the reads not started yet are dropped (the asset fails anyway); those
        # under way end on their own, at once when the upstream's circuit is open
        pool.shutdown(wait=True, cancel_futures=True)
    return results
