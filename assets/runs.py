"""What an asset reads of its Dagster run: the partition (range) window."""
from __future__ import annotations


def partition_range(context) -> tuple[int, int, str]:
    """(start, end) Unix seconds of a run's partition (range) window and its label for dedup tokens."""
    window, keys = context.partition_time_window, context.partition_key_range
    return int(window.start.timestamp()), int(window.end.timestamp()), f"{keys.start}..{keys.end}"
