"""Token USD prices: seeded random walks on a 5-minute grid.

Volatile tokens follow a log random walk with a common market factor; stables are an
AR(1) noise around their peg. The price at time t is the value of the 5-minute step containing
t. Steps are generated one hour at a time from that hour's RNG, so later hours never change
earlier ones.
"""
from __future__ import annotations

import math

import numpy as np

from devnet.params import TokenSpec

STEP = 300
STEPS_PER_HOUR = 3600 // STEP
_STEPS_PER_DAY = 86400 // STEP


class PricePaths:
    def __init__(self, tokens: tuple[TokenSpec, ...], genesis_ts: int):
        self.tokens = tokens
        self.genesis_ts = genesis_ts
        self.series: list[list[float]] = [[] for _ in tokens]
        self._noise = [0.0 for _ in tokens]  # stable peg deviation state

    def extend_hour(self, hour_ts: int, rng: np.random.Generator) -> None:
        """Append the 12 steps of the hour starting at hour_ts (must be the next hour)."""
        n = len(self.tokens)
        z = rng.standard_normal((n + 1, STEPS_PER_HOUR)).tolist()
        market = z[n]
        first = not self.series[0]
        for k, spec in enumerate(self.tokens):
            out = self.series[k]
            if spec.stable:
                sigma = spec.daily_vol
                x = self._noise[k]
                row = z[k]
                for i in range(STEPS_PER_HOUR):
                    if first and i == 0:
                        x = 0.0
                    else:
                        x = 0.92 * x + sigma * row[i]
                    out.append(spec.price * (1.0 + x))
                self._noise[k] = x
            else:
                sigma = spec.daily_vol / math.sqrt(_STEPS_PER_DAY)
                row = z[k]
                shocks = [sigma * (0.6 * m + 0.8 * e) for m, e in zip(market, row)]
                p = out[-1] if out else spec.price
                for i in range(STEPS_PER_HOUR):
                    if not (first and i == 0):
                        p *= math.exp(shocks[i])
                    out.append(p)

    def price(self, token: int, ts: int) -> float:
        i = (ts - self.genesis_ts) // STEP
        series = self.series[token]
        if i < 0:
            return series[0] if series else self.tokens[token].price
        return series[i]

    def generated_until(self) -> int:
        return self.genesis_ts + len(self.series[0]) * STEP
