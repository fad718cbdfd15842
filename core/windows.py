"""Rolling flow windows: which hourly buckets a 24h/7d/30d figure sums.

A window ends at the latest completed observation (an hour boundary), not at request time:
for a snapshot taken at T, the end is the exclusive end of the newest hourly bucket that had
fully ended by T and was present in the warehouse. Each window is [end - duration, end).
"""
from __future__ import annotations

from dataclasses import dataclass

from .epochs import DAY, HOUR, floor_to

FLOW_WINDOWS: dict[str, int] = {"24h": DAY, "7d": 7 * DAY, "30d": 30 * DAY}  # label -> duration
ANCHOR = "latest_completed_hour"  # where every window ends, as the API names it


@dataclass(frozen=True)
class FlowWindow:
    label: str
    start: int  # inclusive, Unix seconds
    end: int  # exclusive, Unix seconds

    @property
    def duration(self) -> int:
        return self.end - self.start

    @property
    def hours_expected(self) -> int:
        return self.duration // HOUR

    def contains_hour(self, hour_start: int) -> bool:
        return self.start <= hour_start < self.end


def window_end(snapshot_ts: int, newest_bucket_start: int | None) -> int | None:
    """Exclusive end of the windows for a snapshot at `snapshot_ts`.

    `newest_bucket_start` is the start of the newest stored hourly bucket that ended at or before
    the snapshot (None when there is none): the windows end where that bucket ends.
    """
    if newest_bucket_start is None:
        return None
    end = newest_bucket_start + HOUR
    if end > floor_to(snapshot_ts, HOUR):
        raise ValueError("a bucket that had not ended by the snapshot cannot anchor its windows")
    return end


def flow_window(label: str, end: int) -> FlowWindow:
    """The window `label` (a key of FLOW_WINDOWS) ending at `end`."""
    return FlowWindow(label, end - FLOW_WINDOWS[label], end)


def flow_windows(end: int) -> dict[str, FlowWindow]:
    return {label: flow_window(label, end) for label in FLOW_WINDOWS}
