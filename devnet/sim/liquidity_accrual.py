"""What a liquidity position earns over a span of time, from its pool's swaps and its gauge's
emissions (devnet/sim/liquidity.py holds the positions).

Per pool, two growing tables, filled hour by hour after the market's hour is generated:
- the swaps: time, the pool's tick and active liquidity (CL) or LP supply (v2) just before the
  swap, and the fee in token0 and token1 (raw);
- the hours: the gauge's emission rate (raw core token per second, 0 when killed or absent) and the
  pool's tick, active liquidity and LP supply at the hour's start.

A position whose state is constant over (a, b] then earns, exactly to the swap:
- trading fees (unstaked only): each swap's fee x its share, CL L / (poolL + L) when the swap starts
  inside [lower, upper) (a swap that crosses ticks is credited at its starting tick, as the vaults'
  positions are: devnet/sim/vault_fees.py), v2 lp / supply;
- emissions (staked only): the rate x the seconds of each hour inside (a, b] x its share at the
  hour's start, CL L / poolL when the hour starts in range, v2 lp / supply.
Sums are in floats, truncated to raw integers: deterministic, which is all the devnet needs (its
truth, its contracts and its subgraph read these same functions).
"""
from __future__ import annotations

import math
from bisect import bisect_left, bisect_right

import numpy as np

from devnet.timeutil import HOUR


class _Rows:
    """A float table that grows by rows (capacity doubling: appends stay cheap, reads take views)."""

    def __init__(self, width: int):
        self.data = np.empty((64, width), dtype=np.float64)
        self.n = 0

    def extend(self, rows: list[tuple]) -> None:
        if self.n + len(rows) > len(self.data):
            grown = np.empty((max(2 * len(self.data), self.n + len(rows)), self.data.shape[1]), dtype=np.float64)
            grown[:self.n] = self.data[:self.n]
            self.data = grown
        self.data[self.n:self.n + len(rows)] = rows
        self.n += len(rows)


class PoolLedger:
    """One pool's swap and hour tables (the module docstring)."""

    def __init__(self, pool):
        self.pool = pool
        self.swap_ts: list[int] = []
        self.swaps = _Rows(4)  # tick, poolL (CL) or supply (v2), fee0, fee1
        self.hour_ts: list[int] = []
        self.hours = _Rows(5)  # start, rate/s, tick, poolL, supply

    def add_hour(self, h: int, swaps: list, gauge_rate: int) -> None:
        """The hour starting at h: its swaps of this pool (chain order) and the gauge's rate at h."""
        pool = self.pool
        st = pool.state_at(h)
        supply = float(math.isqrt(st.reserve0 * st.reserve1)) if st is not None and not pool.is_cl else 0.0
        self.hour_ts.append(h)
        self.hours.extend([(h, float(gauge_rate), st.tick if st is not None and pool.is_cl else 0,
                            float(st.liquidity) if st is not None else 0.0, supply)])
        if swaps:
            # the pool's state stream has one entry per event; swaps are the entries with a USD
            # amount, in the same order as the pool's swaps (sim/vault_fees.py `unstaked_fees`)
            a, b = bisect_left(pool.ev_ts, h), bisect_left(pool.ev_ts, h + HOUR)
            at = [k for k in range(a, b) if pool.ev_usd[k] > 0]
            if len(at) != len(swaps):
                raise RuntimeError(f"{pool.id}: {len(swaps)} swaps, {len(at)} swap states in hour {h}")
            rows = []
            for s, k in zip(swaps, at):
                r0, r1, _sqrt, liq, tick = pool.ev_state[k - 1][:5]
                base = float(liq) if pool.is_cl else float(math.isqrt(r0 * r1))
                fee = float(s.fee_amount)
                self.swap_ts.append(s.ts)
                rows.append((tick if pool.is_cl else 0, base, fee if s.amount0 > 0 else 0.0,
                             0.0 if s.amount0 > 0 else fee))
            self.swaps.extend(rows)

    def fees(self, a: int, b: int, amount: int, lower: int | None, upper: int | None) -> tuple[int, int]:
        """Raw fees (token0, token1) earned over (a, b] by `amount` (CL liquidity on [lower, upper),
        or v2 LP units)."""
        if amount <= 0 or b <= a:
            return 0, 0
        i, j = bisect_right(self.swap_ts, a), bisect_right(self.swap_ts, b)
        if i >= j:
            return 0, 0
        sw = self.swaps.data
        tick, base, f0, f1 = sw[i:j, 0], sw[i:j, 1], sw[i:j, 2], sw[i:j, 3]
        if self.pool.is_cl:
            share = np.where((tick >= lower) & (tick < upper), amount / (base + amount), 0.0)
        else:
            share = np.where(base > 0, amount / np.maximum(base, 1.0), 0.0)
        return int(float((f0 * share).sum())), int(float((f1 * share).sum()))

    def emissions(self, a: int, b: int, amount: int, lower: int | None, upper: int | None) -> int:
        """Raw core token earned over (a, b] by `amount` staked (the module docstring)."""
        if amount <= 0 or b <= a:
            return 0
        i = max(bisect_right(self.hour_ts, a) - 1, 0)
        j = bisect_right(self.hour_ts, b)
        if i >= j:
            return 0
        hr = self.hours.data
        start = hr[i:j, 0]
        seconds = np.clip(np.minimum(b, start + HOUR) - np.maximum(a, start), 0, None)
        rate, tick, liq, supply = hr[i:j, 1], hr[i:j, 2], hr[i:j, 3], hr[i:j, 4]
        if self.pool.is_cl:
            share = np.where((tick >= lower) & (tick < upper) & (liq > 0), amount / np.maximum(liq, 1.0), 0.0)
        else:
            share = np.where(supply > 0, amount / np.maximum(supply, 1.0), 0.0)
        return int(float((rate * seconds * np.minimum(share, 1.0)).sum()))
