"""Foundation KPI classification (docs/methodology/kpi-classification.md, version in
core.methodology.METHODOLOGY_VERSION). Pure logic: the KPI asset computes the inputs, this decides."""
from __future__ import annotations

import math
from dataclasses import dataclass

CLASSES = ("scale", "repeat", "monitor", "reduce", "stop", "insufficient_data")

MIN_ELAPSED_HOURS = 24  # an epoch younger than this at the snapshot has too little flow to judge
STOP_BELOW = 0.5  # value per bribe dollar
REDUCE_BELOW = 1.0
SCALE_FROM = 2.0


@dataclass(frozen=True)
class KpiInputs:
    elapsed_hours: int  # ended hours of the epoch at the snapshot
    foundation_votes: int  # raw
    bribe_cost_usd: float
    value_per_bribe_usd: float | None  # (emissions directed USD + fee share USD) / bribe cost; None if unknown
    tvl_delta: float | None
    volume_delta: float | None
    fees_delta: float | None


def relative_change(current: float | None, previous: float | None) -> float | None:
    if current is None or previous is None or previous <= 0 or not math.isfinite(previous):
        return None
    return current / previous - 1.0


def classify(k: KpiInputs) -> str:
    """The first rule that holds, in this order."""
    if k.elapsed_hours < MIN_ELAPSED_HOURS or (k.foundation_votes <= 0 and k.bribe_cost_usd <= 0):
        return "insufficient_data"
    if k.bribe_cost_usd <= 0:  # votes without a bribe cost nothing: judge by flows only
        if k.volume_delta is None or k.fees_delta is None:
            return "insufficient_data"
        return "repeat" if k.fees_delta >= 0 else "monitor"
    if k.value_per_bribe_usd is None or k.volume_delta is None or k.fees_delta is None or k.tvl_delta is None:
        return "insufficient_data"
    v = k.value_per_bribe_usd
    if v < STOP_BELOW and k.fees_delta <= 0:
        return "stop"
    if v < REDUCE_BELOW:
        return "reduce"
    if v >= SCALE_FROM and k.volume_delta > 0 and k.tvl_delta >= 0:
        return "scale"
    if k.volume_delta >= 0:
        return "repeat"
    return "monitor"
