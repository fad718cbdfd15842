"""Write function of the `xcore_snapshots` asset: per snapshot, the escrow-share token's views at
the snapshot block through one Multicall3 batch (assets.rows.xcore says which), one xcore_snap15m
row per chain; a token without code at the block (not deployed yet) has no row.

Then the token's events from the chain's recorded `xcore` coverage up to the run's last snapshot
block, so the reconciliation at that snapshot (api/v1/xcore) knows every transfer it shows
without waiting for the hourly history run, and the accounts' records of them (account_events).
The coverage is extended only from its recorded end: a chain never recorded gets the recent
events (the last snapshots' transfers) but no coverage, until its history asset has read the days
before.
"""
from __future__ import annotations

from .account_events import XCORE, derive_account_events
from .coverage import record_coverage_with, recorded_until
from .rows.xcore import FIELDS, LOCKED_VIEW, snapshot_columns, snapshot_row, view_calls, views, xcore_event_rows
from .snapshot_step import SnapshotStep
from .upstream import SnapshotPoint
from .xcore_events import COVERAGE
from ..core.epochs import HOUR
from ..readers.chain import ChainReadError

UNRECORDED_LOOKBACK = 2 * HOUR  # never recorded: events this long before the first snapshot (the slowest transfers)


def write_xcore(s: SnapshotStep) -> dict[str, int]:
    config = s.chain.config()
    token, adapter = config.contracts["xcore"], config.contracts.get("xcoreAdapter")
    canonical = config.xcore_canonical
    calls = view_calls(token, canonical) + ([(adapter, *LOCKED_VIEW)] if canonical else [])
    n_views = len(calls) - (1 if canonical else 0)

    def read(point: SnapshotPoint) -> list[dict]:
        block = point.block.number
        answers = s.chain.reader.multicall(calls, block)
        if all(a is None for a in answers) and not s.chain.reader.code(token, block):
            return []  # not deployed yet at this block: no row, nothing unknown
        got = views(answers[:n_views], canonical, token, block)
        locked = answers[n_views] if canonical else None
        if canonical and locked is None:
            raise ChainReadError(f"xCORE adapter {adapter}: lockedAmount() failed at block {block}")
        return [snapshot_row(s.chain_id, point, token, got, locked)]

    written = {"xcore_snap15m": s.insert("xcore_snap15m", snapshot_columns(s.rows_each(read, "xcore")))}
    written["xcore_events"] = _recent_events(s)
    return written


def _recent_events(s: SnapshotStep) -> int:
    last = s.points[-1].block
    recorded = recorded_until(s.client, s.chain_id, COVERAGE)
    start = s.times[0] - UNRECORDED_LOOKBACK if recorded is None else recorded + 1
    if start > last.timestamp:
        return 0
    raw = s.subgraph.paginate("xcoreEvents", FIELDS, block=last.number,
                              where={"timestamp_gte": start, "timestamp_lte": last.timestamp})
    written = s.insert("xcore_events", xcore_event_rows(s.chain_id, raw))
    derive_account_events(s.client, s.chain_id, start, last.timestamp + 1, XCORE)
    if recorded is not None:  # every block of the second is at or before the snapshot block (the last one <= T)
        record_coverage_with(s.client, s.chain_id, **{COVERAGE: (start, last.timestamp)})
    return written
