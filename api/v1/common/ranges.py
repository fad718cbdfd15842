"""The rolling-period range rules of the period routes (price history, ADR 0011; the xCORE rate
history): `from` (a timestamp or `earliest`), `to` (exclusive, not after the server time), and the
longest range per interval (core.prices.INTERVALS). One place, so both routes refuse the same
ranges with the same codes and hints."""
from __future__ import annotations

from ...errors import ApiError
from ....core.epochs import DAY, iso
from ....core.prices import INTERVALS
from .prices import INVALID_TO

DEFAULT_SPAN = DAY  # `from` defaults to 24 hours before the end
EARLIEST = "earliest"
INVALID_RANGE = "invalid_range"
COARSER = {"15m": "1h", "1h": "1d"}
CAPS = ", ".join(f"{name}: {cap // DAY} days" for name, (_, cap) in INTERVALS.items())


def invalid_range(message: str) -> ApiError:
    return ApiError(400, INVALID_RANGE, message)


def range_issue(to_param: int | None, now: int, start: int | None, end: int, interval: str) -> ApiError | None:
    """What is wrong with the requested range (None: nothing, or its start is still `earliest`)."""
    if to_param is not None and to_param > now:
        return ApiError(400, INVALID_TO, f"to ({iso(to_param)}) is later than the server time ({iso(now)}); omit it "
                        "for the server time")
    if start is None:
        return None
    if start >= end:
        return invalid_range(f"from ({iso(start)}) must be before to ({iso(end)})")
    cap = INTERVALS[interval][1]
    if end - start > cap:
        coarser = COARSER.get(interval)
        hint = f"; use interval={coarser} or a shorter range" if coarser else "; page a shorter range"
        return invalid_range(f"interval {interval} spans at most {cap // DAY} days; the range is {end - start} seconds "
                             f"long (at most {cap}){hint}")
    return None
