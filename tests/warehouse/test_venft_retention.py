"""The recent-rows retention (assets.recent_rows), on venft_snap15m: it keeps the per-lock rows of the last two days of a chain's snapshots: a run writes
them for its snapshots within two days of the chain's newest (its own or one stored: a backfill's
runs of older snapshots write none), then the chain's day partitions before that day are dropped,
the other chains' and the recent days' rows stay. The retention follows the chain's data, not the
wall clock (a stack pinned in the past keeps its rows)."""
from __future__ import annotations

import dataclasses
from datetime import datetime, timezone

import pytest

from ve_analytics.assets.recent_rows import RECENT_SECONDS, drop_days_before, recent_from
from ve_analytics.core.epochs import DAY
from ve_analytics.warehouse.client import get_client
from ve_analytics.warehouse.migrate import migrate

NEWEST = 1_763_600_400  # Thursday 2025-11-20 01:00 UTC: older than the wall clock by a year


@pytest.fixture(scope="module")
def client(wh):
    settings = dataclasses.replace(wh.settings, clickhouse_database="venft_retention")
    migrate(settings)
    with get_client(settings) as c:
        yield c


def lock_row(chain: int, at: int) -> list:
    when = datetime.fromtimestamp(at, tz=timezone.utc)
    return [chain, when, 1, when, 7, "0xo", 10**18, None, 1, 10**18]


def days(client, chain: int) -> list[int]:
    return [r[0] for r in client.query(
        "SELECT DISTINCT toYYYYMMDD(snapshot_at) FROM venft_snap15m WHERE chain_id = {c:UInt32} ORDER BY 1",
        parameters={"c": chain}).result_rows]


def test_a_chains_older_days_are_dropped_and_nothing_else(client):
    names = ["chain_id", "snapshot_at", "block_number", "block_timestamp", "venft_id", "owner", "locked_raw",
             "unlock_time", "permanent", "voting_power_raw"]
    times = [NEWEST - k * DAY for k in range(5)]  # five days, one snapshot each
    client.insert("venft_snap15m", [lock_row(c, t) for c in (5, 56) for t in times], column_names=names)
    drop_days_before(client, "venft_snap15m", 56, NEWEST - RECENT_SECONDS)
    # 2025-11-18 01:00 is kept from: its day and the two after stay
    assert days(client, 56) == [20251118, 20251119, 20251120]
    assert days(client, 5) == [20251116, 20251117, 20251118, 20251119, 20251120]  # another chain: untouched
    drop_days_before(client, "venft_snap15m", 56, NEWEST - RECENT_SECONDS)  # again: nothing more
    assert days(client, 56) == [20251118, 20251119, 20251120]


def test_a_run_keeps_the_two_days_before_the_chains_newest_snapshot():
    newest = NEWEST
    # the chain's newest run: its last two days of snapshots (192), not a 193rd
    kept_from = recent_from([newest - k * 900 for k in range(300)], 0)
    assert sum(newest - k * 900 >= kept_from for k in range(300)) == 192
    # a backfill's later run of older snapshots: newer ones are stored, so it keeps none of its own
    older = [newest - RECENT_SECONDS - k * 900 for k in range(96)]
    assert all(t < recent_from(older, newest) for t in older)


def test_the_liquidity_read_markers_go_with_their_days(client):
    """liquidity_position_reads shares the positions' day partitions, so the same drop removes a
    marker with its positions (a marker left alone would say "none" where the rows are gone)."""
    times = [NEWEST - k * DAY for k in range(4)]
    rows = [[56, datetime.fromtimestamp(t, tz=timezone.utc), 1, datetime.fromtimestamp(t, tz=timezone.utc), 3, 9]
            for t in times]
    client.insert("liquidity_position_reads", rows,
                  column_names=["chain_id", "snapshot_at", "block_number", "block_timestamp", "owners", "positions"])
    drop_days_before(client, "liquidity_position_reads", 56, NEWEST - RECENT_SECONDS)
    kept = client.query("SELECT toYYYYMMDD(snapshot_at) FROM liquidity_position_reads ORDER BY 1").result_rows
    assert [r[0] for r in kept] == [20251118, 20251119, 20251120]
