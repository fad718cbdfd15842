"""Concentrated-liquidity ranges computed here, independently of ve_analytics.core.cl_ranges:
the three aprProfile ranges around a tick (docs/methodology/cl-emissions-apr.md)."""
from __future__ import annotations

from decimal import Decimal


def half_spread_ticks() -> int:
    """Ticks of a factor 1.1 in price: the smallest W with 1.0001^W >= 1.1."""
    w, power = 0, Decimal(1)
    while power < Decimal("1.1"):
        power *= Decimal("1.0001")
        w += 1
    return w


def ranges(tick: int, s: int) -> dict[str, tuple[int, int]]:
    low = tick - tick % s  # Python's % keeps this a floor for negative ticks
    w = half_spread_ticks()
    return {"minimum": (low, low + s), "five-spacing": (low - 2 * s, low + 3 * s),
            "standard": ((tick - w) // s * s, -(-(tick + 1 + w) // s) * s)}
