"""Rolling flow sums over hourly buckets, for many snapshot times from one load.

A window sums the buckets present in [end - duration, end); `hours` says how many there were.
No bucket present means unknown: the sums are None (never zero). The windows of a snapshot at T
end where the newest stored protocol bucket that had ended by T ends (core.windows).
"""
from __future__ import annotations

import bisect
import math
from dataclasses import dataclass
from typing import Sequence

from .epochs import HOUR
from .windows import FLOW_WINDOWS, window_end


@dataclass(frozen=True)
class WindowSum:
    volume_usd: float | None
    fees_usd: float | None
    hours: int


class HourlySeries:
    """One series of hourly buckets (sorted by hour), summed over windows by slicing."""

    def __init__(self, hours: list[int], volume: list[float], fees: list[float]):
        order = sorted(range(len(hours)), key=hours.__getitem__)
        self.hours = [int(hours[i]) for i in order]
        self.volume = [float(volume[i]) for i in order]
        self.fees = [float(fees[i]) for i in order]

    def newest_ended_by(self, ts: int) -> int | None:
        """Start of the newest bucket with hour_start + 1h <= ts."""
        i = bisect.bisect_right(self.hours, ts - HOUR)
        return self.hours[i - 1] if i else None

    def window(self, start: int, end: int) -> WindowSum:
        lo = bisect.bisect_left(self.hours, start)
        hi = bisect.bisect_left(self.hours, end)
        if hi <= lo:
            return WindowSum(None, None, 0)
        return WindowSum(math.fsum(self.volume[lo:hi]), math.fsum(self.fees[lo:hi]), hi - lo)


class HourlyCloses(HourlySeries):
    """Hourly buckets that also carry each hour's closing TVL (None where unknown)."""

    def __init__(self, hours: list[int], volume: list[float], fees: list[float], tvl_close: list[float | None]):
        super().__init__(hours, volume, fees)
        order = sorted(range(len(hours)), key=hours.__getitem__)
        self.tvl_close = [None if tvl_close[i] is None else float(tvl_close[i]) for i in order]

    def close_before(self, ts: int) -> float | None:
        """TVL close of the newest bucket that ended by ts."""
        i = bisect.bisect_right(self.hours, ts - HOUR)
        return self.tvl_close[i - 1] if i else None


def flow_end(protocol: HourlySeries, snapshot_at: int) -> int | None:
    """Exclusive end of a snapshot's flow windows (None when no bucket had ended by then)."""
    return window_end(snapshot_at, protocol.newest_ended_by(snapshot_at))


def protocol_flows(protocol: HourlySeries, end: int | None) -> dict[str, WindowSum]:
    """{"24h": ..., "7d": ..., "30d": ...} ending at `end`."""
    if end is None:
        return {label: WindowSum(None, None, 0) for label in FLOW_WINDOWS}
    return {label: protocol.window(end - seconds, end) for label, seconds in FLOW_WINDOWS.items()}


def combined(series: Sequence[HourlySeries]) -> HourlySeries:
    """One series summing several series per hour (hours = distinct hours present)."""
    volume: dict[int, list[float]] = {}
    fees: dict[int, list[float]] = {}
    for s in series:
        for h, v, f in zip(s.hours, s.volume, s.fees):
            volume.setdefault(h, []).append(v)
            fees.setdefault(h, []).append(f)
    hours = sorted(volume)
    return HourlySeries(hours, [math.fsum(volume[h]) for h in hours], [math.fsum(fees[h]) for h in hours])


def series_by_key(keys: list[str], hours: list[int], volume: list[float], fees: list[float]) -> dict[str, HourlySeries]:
    """Split parallel columns into one series per key (e.g. per pool)."""
    grouped: dict[str, tuple[list[int], list[float], list[float]]] = {}
    for k, h, v, f in zip(keys, hours, volume, fees):
        g = grouped.setdefault(k, ([], [], []))
        g[0].append(h)
        g[1].append(v)
        g[2].append(f)
    return {k: HourlySeries(*g) for k, g in grouped.items()}
