"""Epochs as /v1 parameters: a week starting Thursday 00:00 UTC (core.epochs), given as an ISO
8601 timestamp; one that is not such a start is 400 `epoch_not_aligned`, not rounded."""
from __future__ import annotations

from ...errors import ApiError
from ....core.epochs import epoch_start, iso, is_epoch_start

EPOCH_NOT_ALIGNED = "epoch_not_aligned"


def aligned_epoch(value: int | None, name: str) -> int | None:
    """The validated timestamp parameter `name` (Unix seconds; None when absent) as an epoch start."""
    if value is None or is_epoch_start(value):
        return value
    raise ApiError(400, EPOCH_NOT_ALIGNED, f"{name} {iso(value)} is not an epoch start (Thursday 00:00 UTC); the epoch "
                   f"holding it starts at {iso(epoch_start(value))}", details={"epochStart": iso(epoch_start(value))})
