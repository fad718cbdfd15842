"""Tick tables verified at capture (assets.rows.ticks): a whole table read at one block passes; a
table with a boundary missing, read at two blocks, or disagreeing with liquidity() is flagged,
each with what did not hold; equal tables share one identity."""
from __future__ import annotations

from ve_analytics.assets.rows.ticks import invariants, marker_row, set_id, set_rows
from ve_analytics.readers.ticks import TickTable

# two positions: L=100 on [-600, 600), L=40 on [0, 1200); the price at tick 10 sees 140
WHOLE = ((-600, 100, 100), (0, 40, 40), (600, -100, 100), (1200, -40, 40))


def table(ticks=WHOLE, current: int = 10, liquidity: int = 140) -> TickTable:
    return TickTable("0xpool", 7, tuple(ticks), current, liquidity, 2**96)


def test_a_whole_table_holds_every_invariant():
    assert invariants(table()) == {"net_sum": 0, "running_at_current": 140, "min_running": 0, "verified": 1,
                                   "problem": ""}
    assert invariants(table((), current=0, liquidity=0))["verified"] == 1  # a verified empty table


def test_a_missing_boundary_is_flagged():
    got = invariants(table((WHOLE[0], WHOLE[2], WHOLE[3])))  # the upper position's lower tick is missing
    assert got["verified"] == 0 and got["net_sum"] == -40 and got["min_running"] == -40
    assert "liquidityNet sums to -40, not 0" in got["problem"] and "goes negative (-40)" in got["problem"]
    assert "the pool's liquidity() is 140" in got["problem"]


def test_a_table_of_another_block_disagrees_with_liquidity():
    got = invariants(table(current=700, liquidity=140))  # the price moved past 600 after the table was read
    assert got["verified"] == 0 and got["running_at_current"] == 40
    assert got["problem"] == "the running liquidity at the current tick 700 is 40, the pool's liquidity() is 140"


def test_malformed_boundaries_are_flagged():
    got = invariants(table(((0, 5, 3), (-10, -5, 5))))
    assert got["verified"] == 0
    assert "tick 0: liquidityGross 3 cannot hold liquidityNet 5" in got["problem"]
    assert "ticks not strictly ascending at -10" in got["problem"]


def test_equal_tables_share_an_identity_and_rows_carry_it():
    assert set_id(WHOLE) == set_id(list(WHOLE)) != set_id(WHOLE[:2] + ((600, -100, 99),) + WHOLE[3:])
    rows = set_rows(56, table(), set_id(WHOLE))
    assert [(r["tick"], r["liquidity_net"], r["liquidity_gross"]) for r in rows] == list(WHOLE)
    marker = marker_row(56, "at", table(), set_id(WHOLE))
    assert (marker["tick_count"], marker["liquidity_raw"], marker["verified"], marker["block_number"]) == (4, 140, 1, 7)
