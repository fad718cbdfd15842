from datetime import datetime, timezone

import pytest

from ve_analytics.core.epochs import DAY, WEEK, epoch_start, hour_start, is_epoch_start, iso, next_epoch_start


def ts(*args) -> int:
    return int(datetime(*args, tzinfo=timezone.utc).timestamp())


def test_epochs_start_on_thursday_midnight_utc():
    start = epoch_start(ts(2026, 11, 21, 22, 50))  # a Saturday
    assert start == ts(2026, 11, 19)  # the Thursday before
    assert datetime.fromtimestamp(start, timezone.utc).weekday() == 3  # Thursday


@pytest.mark.parametrize(
    "moment, expected",
    [
        ((2026, 11, 19, 0, 0, 0), (2026, 11, 19)),  # exactly at the boundary: that epoch
        ((2026, 11, 18, 23, 59, 59), (2026, 11, 12)),  # one second before: previous epoch
        ((2026, 11, 25, 23, 59, 59), (2026, 11, 19)),  # Wednesday night: still that epoch
    ],
)
def test_epoch_boundaries(moment, expected):
    assert epoch_start(ts(*moment)) == ts(*expected)


def test_next_epoch_and_validation():
    start = ts(2026, 11, 19)
    assert next_epoch_start(start) == start + WEEK
    assert next_epoch_start(start + WEEK - 1) == start + WEEK
    assert is_epoch_start(start)
    assert not is_epoch_start(start + DAY)  # a Friday is not an epoch start
    assert not is_epoch_start(-WEEK)


def test_hour_and_iso():
    assert hour_start(ts(2026, 1, 2, 3, 59, 59)) == ts(2026, 1, 2, 3)
    assert iso(ts(2026, 1, 2, 3, 4, 5)) == "2026-01-02T03:04:05Z"
