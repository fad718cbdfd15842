"""What a /v1/protocol flow figure summed, and how per-chain figures combine (pure functions).

Every flow figure of a chain is a span of its hourly buckets, [from, toExclusive), ending at or
before the chain's own anchor: the end of its latest completed bucket at the snapshot the answer
rests on. A span says how many buckets it found (`hoursCovered`) and how many it needed
(`hoursExpected`: its hours from the chain's first market activity to its anchor), so a missing
bucket is never a silent zero hour; a span holding no bucket has null values and a `gap` reason.

Totals sum independently observed spans (each chain's own anchor, not one synchronized block).
A chain that is not fresh, or whose span is incomplete or missing, makes the total incomplete and
is named in `missingChainIds` when its value is missing; a total no chain has a value for is null.
"""
from __future__ import annotations

import time
from typing import Any, Iterable

from ...coverage import FRESH
from ....core.epochs import HOUR


_DATES: dict[int, str] = {}  # day number -> "YYYY-MM-DDT"
_TIMES: dict[int, str] = {}  # second of the day -> "HH:MM:SSZ"
_DATES_KEPT = 100_000  # days of dates kept (about 3 MB); past it the memo starts again


def stamp(unix: int) -> str:
    """`core.epochs.iso(unix)` of whole seconds: thousands per long series, so its date and its time
    of day are each formatted once and kept (the time of day: at most 86,400 texts). Plain dicts
    without a lock: long series are printed off the event loop (api/offload.py), and a lock would
    make the loop wait for a thread that holds it; the GIL keeps each get and set whole."""
    day, second = divmod(int(unix), 86400)
    date = _DATES.get(day)
    if date is None:
        if len(_DATES) >= _DATES_KEPT:
            _DATES.clear()
        date = _DATES[day] = time.strftime("%Y-%m-%dT", time.gmtime(day * 86400))
    clock = _TIMES.get(second)
    if clock is None:
        clock = _TIMES[second] = time.strftime("%H:%M:%SZ", time.gmtime(second))
    return date + clock

ANCHOR = "latest_completed_hour"  # where a chain's spans end (core.windows names it the same)
BEFORE_FIRST_ACTIVITY = "before_first_market_activity"  # the span ends before the chain's market began
NOT_YET_OBSERVED = "not_yet_observed"  # the span starts at or after the chain's anchor (a stale chain)
NOT_INDEXED = "not_indexed"  # hours of market activity with no stored bucket
GAPS = (BEFORE_FIRST_ACTIVITY, NOT_YET_OBSERVED, NOT_INDEXED)

# Spec semantics 6: additive metrics exclude backing, bridge balances, holders, prices and APRs.
POLICY = {
    "additiveMetrics": ["tvlUsd", "poolCount", "activeGaugeCount", "volumeUsd", "feesUsd"],
    "excludedFromTotals": ["backing", "bridgeBalances", "holders", "prices", "aprs"],
    "windows": "independent",
    "description": "Totals add each chain's own observation: flows over each chain's own window, ending at its latest "
                   "completed hourly bucket (not one synchronized cross-chain block); TVL at each chain's own snapshot. "
                   "Backing, bridge balances, holders, prices and APRs are never added across chains.",
}


def span(start: int, end: int, anchor: int, first_hour: int | None, found: dict[str, Any] | None) -> dict[str, Any]:
    """One span [start, end) of a chain whose anchor is `anchor` (buckets only before it) and whose
    first market activity began in the hour `first_hour`; `found` is its row of summed buckets
    (volume_usd, fees_usd, hours), None when none was found."""
    observed_end = min(end, anchor)
    observed_start = start if first_hour is None else max(start, first_hour)
    expected = max(0, (observed_end - observed_start) // HOUR)
    covered = int(found["hours"]) if found else 0
    if first_hour is not None and end <= first_hour:
        gap = BEFORE_FIRST_ACTIVITY
    elif start >= anchor:
        gap = NOT_YET_OBSERVED
    elif covered == 0:
        gap = NOT_INDEXED
    else:
        gap = None
    stop = observed_end if start < anchor else end
    return {
        "from": stamp(start),
        "toExclusive": stamp(stop),
        "durationSeconds": stop - start,
        "partial": start < anchor < end,
        "volumeUsd": found["volume_usd"] if covered else None,
        "feesUsd": found["fees_usd"] if covered else None,
        "hoursCovered": covered,
        "hoursExpected": expected,
        "complete": gap in (None, BEFORE_FIRST_ACTIVITY) and covered == expected,
        "gap": gap,
    }


def add(values: Iterable[float | int | None]) -> float | int | None:
    """The sum of the known values; None when none is known."""
    known = [v for v in values if v is not None]
    return sum(known) if known else None


def combine(parts: list[tuple[int, str, dict[str, Any] | None]], metrics: tuple[str, ...]) -> dict[str, Any]:
    """The total of per-chain figures: `parts` is (chain id, chain state, its figure or None when
    the chain has none). A figure is complete when it knows every metric and has no `complete`
    member or it is true; one that knows none is missing (unless its span precedes the market)."""
    total: dict[str, Any] = dict.fromkeys(metrics)
    summed: list[int] = []
    missing: set[int] = set()
    complete = True
    for cid, state, fig in parts:
        if fig is None:
            missing.add(cid)
            continue
        known = 0
        for m in metrics:
            value = fig.get(m)
            if value is not None:
                total[m] = value if total[m] is None else total[m] + value
                known += 1
        if known:
            summed.append(cid)
        elif fig.get("gap") != BEFORE_FIRST_ACTIVITY:
            missing.add(cid)
        complete = complete and state == FRESH and fig.get("complete", True) and known in (0, len(metrics))
    return {**total, "chainIds": summed, "missingChainIds": sorted(missing), "complete": complete and not missing}
