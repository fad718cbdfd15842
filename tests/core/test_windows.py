from datetime import datetime, timezone

import pytest

from ve_analytics.core.epochs import DAY, HOUR
from ve_analytics.core.windows import flow_windows, window_end


def ts(*args) -> int:
    return int(datetime(*args, tzinfo=timezone.utc).timestamp())


def test_window_ends_at_newest_completed_bucket_not_request_time():
    snapshot = ts(2026, 11, 21, 12, 15)
    # newest stored bucket is 10:00-11:00 (the 11:00-12:00 bucket is not in yet)
    end = window_end(snapshot, ts(2026, 11, 21, 10))
    assert end == ts(2026, 11, 21, 11)
    windows = flow_windows(end)
    assert windows["24h"].start == end - DAY and windows["24h"].end == end
    assert windows["7d"].hours_expected == 168
    assert windows["30d"].hours_expected == 720
    assert windows["24h"].contains_hour(end - HOUR)
    assert not windows["24h"].contains_hour(end)  # exclusive end
    assert windows["24h"].contains_hour(end - DAY)  # inclusive start


def test_no_bucket_means_no_window():
    assert window_end(ts(2026, 11, 21, 12, 15), None) is None


def test_bucket_still_running_at_snapshot_is_rejected():
    with pytest.raises(ValueError):
        window_end(ts(2026, 11, 21, 12, 15), ts(2026, 11, 21, 12))
