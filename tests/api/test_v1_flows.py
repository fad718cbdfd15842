"""api/v1/common/flows.py: what a span of hourly buckets says about itself, and when a total of
per-chain figures is complete (the numbers themselves are checked against the devnet's truth in
tests/orchestration/test_v1_protocol.py)."""
from __future__ import annotations

from ve_analytics.api.v1.common.flows import combine, span
from ve_analytics.core.epochs import DAY, HOUR

T = 1_780_000_000 // DAY * DAY  # a UTC midnight
FOUND = {"volume_usd": 10.0, "fees_usd": 0.5, "hours": 24}


def test_a_complete_day():
    s = span(T, T + DAY, T + DAY, T - 30 * DAY, FOUND)
    assert (s["hoursCovered"], s["hoursExpected"], s["complete"], s["gap"], s["partial"]) == (24, 24, True, None, False)
    assert s["volumeUsd"] == 10.0 and s["durationSeconds"] == DAY


def test_a_missing_bucket_is_not_a_zero_hour():
    s = span(T, T + DAY, T + DAY, None, {**FOUND, "hours": 23})
    assert s["hoursExpected"] == 24 and s["complete"] is False and s["volumeUsd"] == 10.0 and s["gap"] is None


def test_the_running_period_is_clipped_at_the_anchor_and_partial():
    s = span(T, T + DAY, T + 10 * HOUR, None, {**FOUND, "hours": 10})
    assert s["toExclusive"].endswith("T10:00:00Z") and s["durationSeconds"] == 10 * HOUR
    assert s["partial"] and s["complete"] and s["hoursExpected"] == 10


def test_the_day_the_market_began_needs_only_its_hours_since():
    s = span(T, T + DAY, T + 2 * DAY, T + 20 * HOUR, {**FOUND, "hours": 4})
    assert s["hoursExpected"] == 4 and s["complete"]


def test_gap_reasons():
    before = span(T, T + DAY, T + 5 * DAY, T + 2 * DAY, None)
    unobserved = span(T + DAY, T + 2 * DAY, T + DAY, None, None)
    unindexed = span(T, T + DAY, T + 2 * DAY, None, None)
    assert (before["gap"], before["complete"], before["volumeUsd"]) == ("before_first_market_activity", True, None)
    assert (unobserved["gap"], unobserved["complete"], unobserved["partial"]) == ("not_yet_observed", False, False)
    assert (unindexed["gap"], unindexed["complete"], unindexed["hoursExpected"]) == ("not_indexed", False, 24)


def test_totals_name_what_they_add_and_miss():
    full = span(T, T + DAY, T + DAY, None, FOUND)
    total = combine([(56, "fresh", full), (1, "fresh", {**full, "volumeUsd": 2.0, "feesUsd": 0.25})], ("volumeUsd", "feesUsd"))
    assert total == {"volumeUsd": 12.0, "feesUsd": 0.75, "chainIds": [56, 1], "missingChainIds": [], "complete": True}
    # a chain without a figure, or with a gap, is missing: the rest is a known subtotal
    gap = span(T, T + DAY, T + 2 * DAY, None, None)
    partial = combine([(56, "fresh", full), (1, "fresh", None), (4663, "fresh", gap)], ("volumeUsd",))
    assert partial == {"volumeUsd": 10.0, "chainIds": [56], "missingChainIds": [1, 4663], "complete": False}
    # nothing known at all is null, never zero
    assert combine([(1, "fresh", None)], ("volumeUsd",))["volumeUsd"] is None


def test_a_stale_or_failed_chain_or_a_half_known_figure_leaves_the_total_incomplete():
    full = span(T, T + DAY, T + DAY, None, FOUND)
    for state in ("stale", "failed"):
        total = combine([(56, "fresh", full), (5042, state, full)], ("volumeUsd",))
        assert total["chainIds"] == [56, 5042] and total["missingChainIds"] == [] and total["complete"] is False
    half = combine([(56, "fresh", {"tvlUsd": None, "poolCount": 3})], ("tvlUsd", "poolCount"))
    assert half == {"tvlUsd": None, "poolCount": 3, "chainIds": [56], "missingChainIds": [], "complete": False}


def test_a_chain_before_its_market_is_neither_added_nor_missing():
    full = span(T, T + DAY, T + DAY, None, FOUND)
    young = span(T, T + DAY, T + 3 * DAY, T + 2 * DAY, None)
    assert combine([(56, "fresh", full), (4663, "fresh", young)], ("volumeUsd",)) == {
        "volumeUsd": 10.0, "chainIds": [56], "missingChainIds": [], "complete": True}


def test_one_chains_totals_are_what_the_loop_over_chains_gives():
    """/v1/protocol/history with one chain takes a path of its own (handlers._one_chain_totals):
    every kind of period, fresh or not, totals as the general loop totals it."""
    from ve_analytics.api.v1.protocol.handlers import _chains_totals, _one_chain_totals

    first, anchor = T + 2 * HOUR, T + 6 * HOUR
    periods = []
    for start in range(T, T + 8 * HOUR, HOUR):  # before the market, complete, unindexed, running, unobserved
        hours = 0 if start < first or start == T + 4 * HOUR else 1
        figure = span(start, start + HOUR, anchor, first, {**FOUND, "hours": hours} if hours else None)
        figure["tvlUsd"] = None if start == T + 3 * HOUR else 100.0
        figure["tvlObservedAt"] = None
        periods.append(figure)
    periods[5] = span(T + 5 * HOUR, T + 7 * HOUR, anchor, first, FOUND) | {"tvlUsd": 1.0, "tvlObservedAt": None}
    gaps = {p["gap"] for p in periods}
    assert gaps == {"before_first_market_activity", "not_indexed", "not_yet_observed", None}
    assert any(p["partial"] for p in periods)
    for fresh in (True, False):
        for utc in (True, False):
            assert _one_chain_totals(56, fresh, periods, utc) == _chains_totals([], [(56, fresh, periods)], len(periods), utc)
