"""The `flowWindows` of /api/stats answers: which hourly buckets each rolling 24h/7d/30d total
summed, and the `FlowWindow` schema that publishes them.

The windows are core.windows' (the one definition, shared with the assets that sum the
buckets); this module only prints them. A row of the warehouse gives the windows' end
(`flowWindowEnd`) and, per window, the number of buckets it found (`hours24h`, `hours7d`,
`hours30d`).
"""
from __future__ import annotations

from typing import Any

from ..cache import Cache
from ..schema import ISO_TIME, nullable_ref, obj
from ..sql import unix_seconds
from ...core.epochs import iso
from ...core import windows
from ...core.windows import ANCHOR, FLOW_WINDOWS

HOURS_COLUMNS = {label: f"hours{label}" for label in FLOW_WINDOWS}  # label -> column of buckets found

FLOW_WINDOW = obj(
    {
        "from": {**ISO_TIME, "description": "window start (inclusive)"},
        "toExclusive": {**ISO_TIME, "description": "window end (exclusive): the end of the latest hourly bucket completed by the snapshot"},
        "durationSeconds": {"type": "integer"},
        "anchor": {"const": ANCHOR},
        "hoursCovered": {"type": "integer", "minimum": 0, "description": "hourly buckets found in the window"},
        "hoursExpected": {"type": "integer", "minimum": 1},
        "complete": {"type": "boolean", "description": "hoursCovered == hoursExpected"},
    },
    "The rolling window a flow total summed: hourly buckets in [from, toExclusive).",
)


def flow_windows_schema(description: str) -> dict:
    """A `flowWindows` object: every window, null when the snapshot has none."""
    return obj({label: nullable_ref("FlowWindow") for label in FLOW_WINDOWS}, description)


def flow_window(label: str, window_end: str | None, covered: int) -> dict[str, Any] | None:
    """One window ending at `window_end` (as printed in the row) with `covered` buckets found.
    Every row of a list shares its window end, so the (read-only) objects are memoized."""
    if window_end is None:
        return None
    covered = int(covered)
    return _WINDOWS.memo((label, window_end, covered), lambda: _flow_window(label, window_end, covered))


# the memo of `flow_window`, in the worker's byte-bounded store (api/cache.py)
_WINDOWS = Cache("flow_windows")


def _flow_window(label: str, window_end: str, covered: int) -> dict[str, Any]:
    window = windows.flow_window(label, unix_seconds(window_end))
    return {
        "from": iso(window.start),
        "toExclusive": window_end,
        "durationSeconds": window.duration,
        "anchor": ANCHOR,
        "hoursCovered": covered,
        "hoursExpected": window.hours_expected,
        "complete": covered == window.hours_expected,
    }


def flow_windows(window_end: str | None, hours: dict[str, int]) -> dict[str, Any]:
    """Every window; `hours` maps HOURS_COLUMNS to the buckets found (the row holding them will
    do; unused without an end)."""
    if window_end is None:
        return {label: None for label in FLOW_WINDOWS}
    return {label: flow_window(label, window_end, hours[column]) for label, column in HOURS_COLUMNS.items()}
