"""coverage_holes.sql against an independent set computation: random published snapshot sets
(with failed rows, off-window and re-published times mixed in) and random hourly buckets on a
real warehouse; the missing ranges, their counts and the window must equal the set difference
window - present, grouped into runs of consecutive 15-minute boundaries (hours)."""
from __future__ import annotations

import random

import pytest

from ve_analytics.core.epochs import DAY, HOUR, QUARTER_HOUR, to_datetime
from ve_analytics.warehouse import sqlbook
from ve_analytics.warehouse.client import get_client
from ve_analytics.warehouse.migrate import migrate

NOW = 1_795_000_000 + 437  # not on a boundary
GRACE = 2 * QUARTER_HOUR
HISTORY_GRACE = HOUR


def expected(window: tuple[int, int], published: set[int], step: int = QUARTER_HOUR) -> list[tuple[int, int, int]]:
    """Runs of consecutive missing times, newest first (independent of the SQL: sets)."""
    start, end = window
    missing = sorted(set(range(start, end + 1, step)) - published)
    runs: list[list[int]] = []
    for t in missing:
        if runs and runs[-1][-1] == t - step:
            runs[-1].append(t)
        else:
            runs.append([t])
    return [(r[0], r[-1], len(r)) for r in reversed(runs)]


@pytest.fixture(scope="module")
def client(wh):
    migrate(wh.settings)
    with get_client(wh.settings) as c:
        yield c


def _insert(client, chain_id: int, first_activity: int, rows: list[tuple[int, str]]) -> None:
    client.insert("chain_coverage", [[chain_id, "market_activity", to_datetime(first_activity),
                                      to_datetime(first_activity), to_datetime(NOW)]],
                  column_names=["chain_id", "dataset", "first_at", "last_at", "updated_at"])
    if rows:
        client.insert("snapshot_runs", [[chain_id, to_datetime(t), f"run-{t}-{status}", status, to_datetime(NOW)]
                                        for t, status in rows],
                      column_names=["chain_id", "snapshot_at", "run_id", "status", "finished_at"])


def _insert_hours(client, chain_id: int, hours: list[int]) -> None:
    if hours:
        client.insert("protocol_hourly", [[chain_id, to_datetime(h), 0.0, 0.0, 1] for h in hours],
                      column_names=["chain_id", "hour_start", "volume_usd", "fees_usd", "pool_count"])


def _all_holes(client, chain_ids: list[int], depths: list[int], max_ranges: int = 1000) -> dict[tuple[int, str], dict]:
    result = client.query(sqlbook.sql("queries/common/coverage_holes.sql").text,
                          parameters={"chain_ids": chain_ids, "depth_days": depths, "now_ts": NOW,
                                      "snapshot_grace_seconds": GRACE, "history_grace_seconds": HISTORY_GRACE,
                                      "max_ranges": max_ranges})
    return {(r["chain_id"], r["dataset"]): r for r in result.named_results()}


def _holes(client, chain_ids: list[int], depths: list[int], max_ranges: int = 1000) -> dict[int, dict]:
    return {cid: row for (cid, dataset), row in _all_holes(client, chain_ids, depths, max_ranges).items()
            if dataset == "snapshots"}


def test_random_published_sets_give_the_set_difference(client):
    rng = random.Random(24)
    end = (NOW - GRACE) // QUARTER_HOUR * QUARTER_HOUR
    cases = {}
    for i in range(12):
        chain_id = 100 + i
        depth = rng.choice([1, 2, 7])
        start = NOW // QUARTER_HOUR * QUARTER_HOUR - depth * DAY + QUARTER_HOUR
        if i % 4 == 3:  # a young chain: the window starts at its first activity's next boundary
            first_activity = start + rng.randrange(DAY // 2) + 1
        else:
            first_activity = start - DAY
        window_start = max(start, -(-first_activity // QUARTER_HOUR) * QUARTER_HOUR)
        times = range(window_start, end + 1, QUARTER_HOUR)
        keep = rng.choice([0.0, 0.3, 0.9, 1.0])
        published = {t for t in times if rng.random() < keep}
        rows = [(t, "success") for t in published]
        rows += [(t, "failed") for t in times if t not in published and rng.random() < 0.5]  # failures are not published
        rows += [(t, "success") for t in rng.sample(sorted(published), min(3, len(published)))]  # a re-publication
        rows += [(window_start - QUARTER_HOUR * k, "success") for k in (1, 2)]  # before the window
        rows += [(end + QUARTER_HOUR, "success")]  # inside the grace: not in the window
        _insert(client, chain_id, first_activity, rows)
        cases[chain_id] = (depth, (window_start, end), published)
    got = _holes(client, sorted(cases), [cases[c][0] for c in sorted(cases)])
    assert set(got) == set(cases)
    for chain_id, (_, window, published) in cases.items():
        row, want = got[chain_id], expected(window, published)
        assert (row["window_from_ts"], row["window_to_ts"]) == window
        assert [tuple(r) for r in row["ranges"]] == want, chain_id
        assert row["range_count"] == len(want)
        assert row["missing_count"] == sum(n for _, _, n in want)


def test_the_list_is_capped_newest_first_and_the_totals_stay(client):
    chain_id, depth = 300, 1
    start = NOW // QUARTER_HOUR * QUARTER_HOUR - depth * DAY + QUARTER_HOUR
    end = (NOW - GRACE) // QUARTER_HOUR * QUARTER_HOUR
    published = set(range(start, end + 1, 2 * QUARTER_HOUR))  # every other boundary
    _insert(client, chain_id, start - DAY, [(t, "success") for t in published])
    want = expected((start, end), published)
    assert len(want) > 5
    row = _holes(client, [chain_id], [depth], max_ranges=5)[chain_id]
    assert [tuple(r) for r in row["ranges"]] == want[:5]
    assert row["range_count"] == len(want) and row["missing_count"] == sum(n for _, _, n in want)


def test_a_chain_without_market_activity_has_no_window_and_a_complete_one_no_range(client):
    chain_id = 400
    start = NOW // QUARTER_HOUR * QUARTER_HOUR - DAY + QUARTER_HOUR
    end = (NOW - GRACE) // QUARTER_HOUR * QUARTER_HOUR
    _insert(client, chain_id, start - DAY, [(t, "success") for t in range(start, end + 1, QUARTER_HOUR)])
    got = _holes(client, [chain_id, 401], [1, 1])
    assert set(got) == {chain_id}
    assert got[chain_id]["ranges"] == [] and got[chain_id]["range_count"] == 0 and got[chain_id]["missing_count"] == 0


def test_history_holes_are_the_hours_without_a_bucket(client):
    rng = random.Random(25)
    last = (NOW - HISTORY_GRACE) // HOUR * HOUR - HOUR  # the last hour ended by now - grace
    cases = {}
    for i in range(8):
        chain_id = 500 + i
        first_activity = last - rng.randrange(2, 400) * HOUR + rng.randrange(HOUR)
        window = (first_activity // HOUR * HOUR + HOUR, last)
        keep = rng.choice([0.0, 0.5, 0.95, 1.0])
        hours = {h for h in range(window[0], last + 1, HOUR) if rng.random() < keep}
        # the first activity's own hour and an hour inside the grace are outside the window
        _insert_hours(client, chain_id, sorted(hours | {window[0] - HOUR, last + HOUR}))
        _insert(client, chain_id, first_activity, [])
        cases[chain_id] = (window, hours)
    got = _all_holes(client, sorted(cases), [7] * len(cases))
    for chain_id, (window, hours) in cases.items():
        row, want = got[(chain_id, "history")], expected(window, hours, HOUR)
        assert (row["window_from_ts"], row["window_to_ts"]) == window
        assert [tuple(r) for r in row["ranges"]] == want, chain_id
        assert row["range_count"] == len(want) and row["missing_count"] == sum(n for _, _, n in want)
