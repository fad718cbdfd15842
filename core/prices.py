"""Stored token prices: their kinds, generation, the periods of a price history and the gap
reasons of a period without a price (ADR 0011). Pure: the warehouse selects the samples, the
API shapes them; both take their words and period arithmetic from here."""
from __future__ import annotations

from typing import NamedTuple

from .epochs import DAY, HOUR, QUARTER_HOUR

# Bump when the way a stored price is derived changes; rows written since carry the new value.
PRICE_GENERATION = 1

CANONICAL = "canonical-observation"  # a token's price in a published 15-minute snapshot
HISTORICAL = "historical-valuation"  # its value at the close of an ended hour (token_hourly)

# Gap reasons of a price-history period, in precedence order: the first that holds is given.
BEFORE_FIRST_MARKET_ACTIVITY = "before_first_market_activity"
HISTORICAL_VALUATION_PENDING = "historical_valuation_pending"
NO_SAFE_PRICE_SOURCE = "no_safe_price_source"
HISTORY_RESOLUTION_UNAVAILABLE = "history_resolution_unavailable"
GAP_REASONS = (BEFORE_FIRST_MARKET_ACTIVITY, HISTORICAL_VALUATION_PENDING, NO_SAFE_PRICE_SOURCE,
               HISTORY_RESOLUTION_UNAVAILABLE)

# Why a current or reference price (price changes, current prices) is unavailable.
NO_PRICE_OBSERVATION = "no_price_observation"
PRICE_OBSERVATION_TOO_OLD = "price_observation_too_old"
REFERENCE_PRICE_ZERO = "reference_price_zero"  # the change is known, the percentage is not
CURRENT_PRICE_UNAVAILABLE = "current_price_unavailable"  # a comparison without its current price

DEFAULT_MAX_AGE_SECONDS = HOUR

# interval -> (period length, longest range)
INTERVALS = {"15m": (QUARTER_HOUR, 7 * DAY), "1h": (HOUR, 90 * DAY), "1d": (DAY, 3660 * DAY)}


class Period(NamedTuple):
    start: int  # inclusive, Unix seconds
    end: int  # exclusive
    boundary: int | None  # closing hour boundary: the latest hour boundary b with start < b <= end

    @property
    def sample_point(self) -> int:
        """Where a historical sample would be: the closing hour boundary, else the end."""
        return self.boundary if self.boundary is not None else self.end


def closing_boundary(start: int, end: int) -> int | None:
    b = end - end % HOUR
    return b if b > start else None


def period_count(start: int, end: int, step: int) -> int:
    """How many periods [start, end) has when anchored backward from end."""
    return -(-(end - start) // step)


def period(start: int, end: int, step: int, index: int) -> Period:
    """The index-th period (0 = the oldest) of [start, end) anchored backward from end."""
    k = period_count(start, end, step) - 1 - index  # periods between this one and the end
    hi = end - k * step
    lo = max(start, hi - step)
    return Period(lo, hi, closing_boundary(lo, hi))


def periods(start: int, end: int, step: int, first: int = 0, limit: int | None = None) -> list[Period]:
    """Periods `first`, `first + 1`, ... (oldest first) of [start, end), at most `limit`."""
    n = period_count(start, end, step)
    last = n if limit is None else min(n, first + limit)
    return [period(start, end, step, i) for i in range(first, last)]
