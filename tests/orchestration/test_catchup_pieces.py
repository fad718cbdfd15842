"""The catch-up sensor's split of missing ranges into runs (orchestration.catchup), against an
independent set computation: the snapshot pieces cover exactly the missing boundaries (up to the
limit, newest first), never overlap, and each lies within one snapshot day partition (the day D
holds D 00:15 .. D+1 00:00); the history runs are the UTC days of the missing hours, newest first."""
from __future__ import annotations

import random
from datetime import datetime, timezone

from ve_analytics.core.epochs import DAY, HOUR, QUARTER_HOUR
from ve_analytics.orchestration.catchup import HISTORY_RETRY_SECONDS, fill_pieces, next_fill
from ve_analytics.orchestration.catchup import history_days as fill_days

T0 = 1_795_000_000 // DAY * DAY  # a UTC midnight


def holes_of(missing: set[int]) -> list[tuple[int, int, int]]:
    return holes_of_step(missing, QUARTER_HOUR)


def holes_of_step(missing: set[int], step: int) -> list[tuple[int, int, int]]:
    """Consecutive runs of `missing`, newest first (the SQL's shape)."""
    runs: list[list[int]] = []
    for t in sorted(missing):
        if runs and runs[-1][-1] == t - step:
            runs[-1].append(t)
        else:
            runs.append([t])
    return [(r[0], r[-1], len(r)) for r in reversed(runs)]


def partition_day(t: int) -> int:
    """The start of the day partition holding the snapshot at t (independently: t - 1 s floored)."""
    return (t - 1) // DAY * DAY


def test_pieces_cover_the_missing_boundaries_within_one_day_each_newest_first():
    rng = random.Random(7)
    for _ in range(200):
        window = range(T0 - rng.randrange(1, 9) * DAY, T0 + rng.randrange(0, 96) * QUARTER_HOUR, QUARTER_HOUR)
        keep = rng.random()
        missing = {t for t in window if rng.random() > keep}
        pieces = fill_pieces(holes_of(missing), limit=10_000)
        covered = [t for first, last in pieces for t in range(first, last + QUARTER_HOUR, QUARTER_HOUR)]
        assert sorted(covered) == sorted(missing) and len(covered) == len(set(covered))
        assert all(partition_day(first) == partition_day(last) for first, last in pieces)
        assert [last for _, last in pieces] == sorted((last for _, last in pieces), reverse=True)


def test_the_limit_keeps_the_newest_pieces():
    missing = set(range(T0 - 3 * DAY + QUARTER_HOUR, T0 + DAY + 1, QUARTER_HOUR))  # four whole day partitions
    pieces = fill_pieces(holes_of(missing), limit=2)
    assert pieces == [(T0 + QUARTER_HOUR, T0 + DAY), (T0 - DAY + QUARTER_HOUR, T0)]
    assert fill_pieces([], limit=4) == []


def test_history_days_are_the_days_of_the_missing_hours_newest_first():
    rng = random.Random(8)
    for _ in range(100):
        hours = range(T0 - rng.randrange(1, 20) * DAY, T0 + rng.randrange(1, 24) * HOUR, HOUR)
        missing = {h for h in hours if rng.random() < 0.1}
        holes = holes_of_step(missing, HOUR)
        days = fill_days(holes, limit=1000)
        want = sorted({datetime.fromtimestamp(h, tz=timezone.utc).strftime("%Y-%m-%d") for h in missing}, reverse=True)
        assert days == want
        assert fill_days(holes, limit=2) == want[:2]


def test_history_goes_first_unless_the_same_days_were_just_tried():
    days, pieces, now = ["2026-11-25"], [(T0 + QUARTER_HOUR, T0 + DAY)], 1_800_000_000.0
    assert next_fill(days, pieces, {}, now) == "history"
    assert next_fill(days, pieces, {"history": ["2026-11-24"], "at": now}, now) == "history"  # other days
    just_tried = {"history": days, "at": now - HISTORY_RETRY_SECONDS + 1}
    assert next_fill(days, pieces, just_tried, now) == "snapshots"  # they must not hold the snapshots up
    assert next_fill(days, [], just_tried, now) is None
    assert next_fill(days, pieces, {"history": days, "at": now - HISTORY_RETRY_SECONDS}, now) == "history"
    assert next_fill([], pieces, just_tried, now) == "snapshots" and next_fill([], [], {}, now) is None
