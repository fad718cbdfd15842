"""Fees around the vaults (devnet/sim/vaults.py): the strategy's cut of harvested gauge rewards,
what its fee recipient has received, and the trading fees a CL vault's position collects when
it is burnt at a rebalance.

A position staked in an alive gauge earns the gauge's emissions and no trading fees (Velodrome:
the pool pays a staked position's fees to the voters). Only while the pool has no alive gauge
(none, or killed) does the position earn fees, and then only from swaps that start inside its
range: each such swap's fee x the vault's share of the active liquidity, vaultL / (poolL +
vaultL), with poolL and the tick taken before the swap. The vault's position is virtual (not in
the pool's tick table), so a swap that crosses ticks is credited with its whole fee at the
starting tick's liquidity: an approximation of Uniswap's per-step fee growth.
"""
from __future__ import annotations

from bisect import bisect_right

BPS = 10_000


def split_reward(amount: int, fee_bps: int) -> tuple[int, int]:
    """(fee, rest) of a claimed reward: fee = amount * bps // 10000, the rest is compounded."""
    fee = amount * fee_bps // BPS
    return fee, amount - fee


def staked_throughout(gauge, start: int, end: int) -> bool:
    """The pool's gauge is alive over all of [start, end]."""
    if gauge is None or gauge.created_ts > start:
        return False
    if gauge.killed_ts is None or gauge.killed_ts > end:
        return True
    return gauge.revived_ts is not None and gauge.revived_ts <= start


def unstaked_fees(v, start: int, end: int) -> tuple[int, int]:
    """Raw trading fees (token0, token1) the vault's position earned over the swaps of its pool
    with start < ts <= end during which the pool had no alive gauge (see the module docstring).
    The swaps at `end` are in: a rebalance at `end` sees the pool's state after its block."""
    g = v.gauge()
    if staked_throughout(g, start, end):
        return 0, 0
    sim, pool = v.sim, v.pool
    i, j = bisect_right(sim.swap_ts, start), bisect_right(sim.swap_ts, end)
    swaps = [s for s in sim.swaps[i:j] if s.pool is pool]
    # the pool's state stream has one entry per event; swaps are the entries with a USD amount
    # (creation, mints and burns record none), in the same order as the pool's swaps
    a, b = bisect_right(pool.ev_ts, start), bisect_right(pool.ev_ts, end)
    at = [k for k in range(a, b) if pool.ev_usd[k] > 0]
    if len(at) != len(swaps):
        raise RuntimeError(f"{pool.id}: {len(swaps)} swaps, {len(at)} swap states in ({start}, {end}]")
    f0 = f1 = 0
    for s, k in zip(swaps, at):
        if g is not None and g.alive_at(s.ts):
            continue
        vs = v.state_at(s.ts)
        _r0, _r1, _sqrt, pool_liq, tick = pool.ev_state[k - 1][:5]
        if vs is None or vs.liq <= 0 or not vs.lower <= tick < vs.upper:
            continue
        fee = s.fee_amount * vs.liq // (pool_liq + vs.liq)
        if s.amount0 > 0:
            f0 += fee
        else:
            f1 += fee
    return f0, f1


class FeeLedger:
    """The fee recipient's core-token receipts (every vault of the chain pays the same one), in
    chain order: what `balanceOf(feeRecipient)` answers at a time."""

    def __init__(self) -> None:
        self.ts: list[int] = []
        self.cum: list[int] = []

    def record(self, ts: int, fee: int) -> None:
        total = (self.cum[-1] if self.cum else 0) + fee
        if self.ts and self.ts[-1] == ts:
            self.cum[-1] = total
        else:
            self.ts.append(ts)
            self.cum.append(total)

    def received(self, ts: int) -> int:
        i = bisect_right(self.ts, ts) - 1
        return self.cum[i] if i >= 0 else 0
