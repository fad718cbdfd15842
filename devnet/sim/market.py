"""Pools: AMM state, swaps, liquidity events, and the per-pool time series that make time
travel cheap (state after every event, hour and day aggregates).

Swap flow per pool-hour: Poisson arrivals on block timestamps, log-normal USD sizes. When the
pool price has drifted from the token USD prices by more than about twice the fee, the swap is
an arbitrage that moves the pool back to the market price; otherwise it is a noise trade whose
direction is biased toward the market price.
"""
from __future__ import annotations

import math
from bisect import bisect_right
from dataclasses import dataclass

from devnet.timeutil import HOUR, epoch_start
from devnet.amm import cl as clmath
from devnet.amm.cl import CLPool
from devnet.amm.v2 import V2Pool
from devnet.params import PoolSpec, TokenSpec


class Token:
    __slots__ = ("idx", "spec", "address", "id", "symbol", "decimals", "unit")

    def __init__(self, idx: int, spec: TokenSpec, address: str, id: str):
        self.idx = idx
        self.spec = spec
        self.address = address  # EIP-55
        self.id = id  # lower-case
        self.symbol = spec.symbol
        self.decimals = spec.decimals
        self.unit = 10**spec.decimals

    def __repr__(self) -> str:
        return f"Token({self.symbol}, {self.address})"


class Swap:
    """One swap event. amount0/amount1 are raw signed pool deltas (+ into the pool)."""

    __slots__ = ("id", "ts", "block", "log_index", "pool", "sender", "amount0", "amount1",
                 "amount_usd", "fees_usd", "fee_amount", "tick", "sqrt_price")

    def __init__(self, ts, pool, sender, amount0, amount1, amount_usd, fees_usd, fee_amount, tick,
                 sqrt_price):
        self.id = ""
        self.ts = ts
        self.block = 0
        self.log_index = 0
        self.pool = pool  # PoolSim
        self.sender = sender
        self.amount0 = amount0
        self.amount1 = amount1
        self.amount_usd = amount_usd
        self.fees_usd = fees_usd
        self.fee_amount = fee_amount
        self.tick = tick
        self.sqrt_price = sqrt_price


@dataclass(frozen=True)
class PoolState:
    """A pool as of some time: raw balances, price, cumulative activity, fee."""

    reserve0: int
    reserve1: int
    sqrt_price: int
    liquidity: int
    tick: int | None
    volume_usd: float
    fees_usd: float
    tx_count: int
    fee: int


class PoolSim:
    def __init__(self, idx: int, spec: PoolSpec, address: str, token0: Token, token1: Token,
                 created_ts: int, created_block: int, prices):
        self.idx = idx
        self.spec = spec
        self.kind = spec.kind
        self.is_cl = spec.kind == "cl"
        self.address = address
        self.id = address.lower()
        self.token0 = token0
        self.token1 = token1
        self.created_ts = created_ts
        self.created_block = created_block
        self.prices = prices
        self.tick_spacing = spec.tick_spacing
        self.is_dynamic = spec.dynamic_fee is not None
        self.is_custom = spec.custom_fee is not None
        self.default_fee = spec.fee
        self.gauge = None  # set by governance
        fee = spec.custom_fee if self.is_custom else (spec.dynamic_fee[0] if self.is_dynamic else spec.fee)
        self.fee = fee
        self.amm: V2Pool | CLPool | None = None
        # CL: [lower, upper, liquidity, half width (-1 full range, -2 side position)]
        self.positions: list[list[int]] = []
        # CL: the positions after every change, so the full tick table can be rebuilt at any
        # time (exact swap quotes in the past: the vault zapper); recording draws no randomness
        self.pos_ts: list[int] = []
        self.pos_snap: list[tuple[tuple[int, int, int], ...]] = []
        self._ticks_cache: dict[int, tuple[tuple[int, int, int], ...]] = {}  # pos_snap index -> ticks
        self.side_mints = 0
        # streams: state after each event (creation, swap, mint, burn)
        self.ev_ts: list[int] = []
        self.ev_state: list[tuple] = []  # (r0, r1, sqrtP, L, tick, cumVol, cumFees, txCount)
        self.ev_usd: list[float] = []
        self.ev_fees: list[float] = []
        self.fee_ts: list[int] = []
        self.fee_val: list[int] = []
        self.cum_volume = 0.0
        self.cum_fees = 0.0
        self.tx_count = 0
        self.reserve0 = 0
        self.reserve1 = 0
        self.hours: list[dict] = []  # closed hour rows (the generated hour included)
        self.days: list[dict] = []
        self._day_acc: dict | None = None
        self.epoch_fees: dict[int, list[int]] = {}  # epoch -> [fee0 raw, fee1 raw]
        self._last_hour_tick: int | None = None
        self.arb_cap_usd = max(8.0 * spec.median_swap_usd, 0.004 * spec.tvl_usd)

    # -- queries --------------------------------------------------------------------------------
    def exists_at(self, ts: int) -> bool:
        return ts >= self.created_ts

    def state_at(self, ts: int) -> PoolState | None:
        i = bisect_right(self.ev_ts, ts) - 1
        if i < 0:
            return None
        r0, r1, sp, liq, tick, vol, fees, txc = self.ev_state[i]
        return PoolState(r0, r1, sp, liq, tick, vol, fees, txc, self.fee_at(ts))

    def fee_at(self, ts: int) -> int:
        i = bisect_right(self.fee_ts, ts) - 1
        return self.fee_val[i] if i >= 0 else self.fee

    def tvl_usd(self, state: PoolState, ts: int) -> float:
        return (state.reserve0 / self.token0.unit * self.prices.price(self.token0.idx, ts)
                + state.reserve1 / self.token1.unit * self.prices.price(self.token1.idx, ts))

    def price1_per_0(self, state: PoolState) -> float:
        """Human token1 per token0 from a state (the subgraph's token1Price)."""
        if self.is_cl:
            raw = (state.sqrt_price / clmath.Q96) ** 2
            return raw * self.token0.unit / self.token1.unit
        v2 = V2Pool(self.kind == "v2-stable", self.token0.decimals, self.token1.decimals, 0,
                    state.reserve0, state.reserve1)
        return v2.price()

    def events_between(self, start: int, end: int) -> tuple[int, int]:
        """Index range of events with start <= ts <= end."""
        return bisect_right(self.ev_ts, start - 1), bisect_right(self.ev_ts, end)

    # -- generation -----------------------------------------------------------------------------
    def _record(self, ts: int, usd: float = 0.0, fees: float = 0.0, tx: bool = True) -> None:
        if tx:
            self.tx_count += 1
        a = self.amm
        if self.is_cl:
            state = (self.reserve0, self.reserve1, a.sqrt_price, a.liquidity, a.tick,
                     self.cum_volume, self.cum_fees, self.tx_count)
        else:
            state = (self.reserve0, self.reserve1, 0, 0, None, self.cum_volume, self.cum_fees,
                     self.tx_count)
        self.ev_ts.append(ts)
        self.ev_state.append(state)
        self.ev_usd.append(usd)
        self.ev_fees.append(fees)

    def _pool_price(self) -> float:
        a = self.amm
        if self.is_cl:
            return (a.sqrt_price / clmath.Q96) ** 2 * self.token0.unit / self.token1.unit
        return a.price()

    def _sqrt_for_price(self, price: float) -> int:
        raw = price * self.token1.unit / self.token0.unit
        sp = int(math.sqrt(raw) * clmath.Q96)
        return max(clmath.MIN_SQRT_RATIO + 1, min(clmath.MAX_SQRT_RATIO - 1, sp))

    def _liquidity_for_usd(self, lower: int, upper: int, usd: float, p0: float, p1: float) -> int:
        unit = 10**24
        a0, a1 = self.amm._position_amounts(lower, upper, unit, True)
        value = a0 / self.token0.unit * p0 + a1 / self.token1.unit * p1
        if value <= 0:
            return 0
        return int(unit * usd / value)

    def _range(self, half: int | None) -> tuple[int, int]:
        sp = self.tick_spacing
        if half is None:
            return self.amm.min_tick(), self.amm.max_tick()
        base = (self.amm.tick // sp) * sp
        lo = max(self.amm.min_tick(), base - half * sp)
        hi = min(self.amm.max_tick(), base + (half + 1) * sp)
        return lo, hi

    def create(self, ts: int) -> None:
        p0 = self.prices.price(self.token0.idx, ts)
        p1 = self.prices.price(self.token1.idx, ts)
        tvl = self.spec.tvl_usd
        if self.is_cl:
            self.amm = CLPool(self._sqrt_for_price(p0 / p1), self.fee, self.tick_spacing)
            for half, share in self.spec.positions:
                lo, hi = self._range(half)
                liq = self._liquidity_for_usd(lo, hi, tvl * share, p0, p1)
                if liq > 0:
                    a0, a1 = self.amm.mint(lo, hi, liq)
                    self.reserve0 += a0
                    self.reserve1 += a1
                    self.positions.append([lo, hi, liq, half if half is not None else -1])
            self._last_hour_tick = self.amm.tick
            self._snap_positions(ts)
        else:
            r0 = int(tvl / 2 / p0 * self.token0.unit)
            r1 = int(tvl / 2 / p1 * self.token1.unit)
            self.amm = V2Pool(self.kind == "v2-stable", self.token0.decimals, self.token1.decimals,
                              self.fee, r0, r1)
            self.reserve0, self.reserve1 = r0, r1
        self.fee_ts.append(ts)
        self.fee_val.append(self.fee)
        self._record(ts)

    def update_dynamic_fee(self, ts: int) -> None:
        if not self.is_dynamic or self.amm is None:
            return
        base, cap, scaling = self.spec.dynamic_fee
        moved = abs(self.amm.tick - (self._last_hour_tick if self._last_hour_tick is not None else self.amm.tick))
        self._last_hour_tick = self.amm.tick
        fee = min(cap, base + moved * scaling // 1_000_000)
        if fee != self.fee:
            self.fee = fee
            self.amm.fee = fee
            self.fee_ts.append(ts)
            self.fee_val.append(fee)

    def swap(self, ts: int, size_usd: float, u: float, sender: str) -> Swap | None:
        t0, t1 = self.token0, self.token1
        p0 = self.prices.price(t0.idx, ts)
        p1 = self.prices.price(t1.idx, ts)
        market = p0 / p1
        pool_price = self._pool_price()
        if pool_price <= 0:
            return None
        dev = math.log(market / pool_price)
        fee_frac = self.amm.fee / 1_000_000
        amm = self.amm
        try:
            if self.kind != "v2-stable" and abs(dev) > max(2.0 * fee_frac, 0.0015):
                # arbitrage back to the market price, at most `arb_cap_usd` per trade
                if self.is_cl:
                    zero_in = market < pool_price
                    limit = self._sqrt_for_price(market)
                    if (zero_in and limit >= amm.sqrt_price) or (not zero_in and limit <= amm.sqrt_price):
                        return None
                    cap = int(self.arb_cap_usd / (p0 if zero_in else p1) * (t0.unit if zero_in else t1.unit))
                    amount_in, amount_out, fee_amount, _ = amm.swap(zero_in, max(cap, 1), limit)
                else:
                    plan = amm.amount_in_for_price(market)
                    if plan is None:
                        return None
                    amount_in, zero_in = plan
                    cap = int(self.arb_cap_usd / (p0 if zero_in else p1) * (t0.unit if zero_in else t1.unit))
                    amount_in = min(amount_in, cap)
                    if amount_in <= 0:
                        return None
                    amount_out, fee_amount = amm.swap(amount_in, zero_in)
            else:
                if self.kind == "v2-stable":
                    x = amm.reserve0 / amm.dec0
                    y = amm.reserve1 / amm.dec1
                    bias = dev / 0.001 + 3.0 * math.log(x / y)
                else:
                    bias = dev / 0.004
                zero_in = u < 0.5 - 0.45 * math.tanh(bias)
                price_in = p0 if zero_in else p1
                amount_in = int(size_usd / price_in * (t0.unit if zero_in else t1.unit))
                if amount_in <= 0:
                    return None
                if self.is_cl:
                    amount_in, amount_out, fee_amount, _ = amm.swap(zero_in, amount_in)
                else:
                    amount_out, fee_amount = amm.swap(amount_in, zero_in)
        except (ArithmeticError, ValueError):
            return None
        if amount_in <= 0 or amount_out <= 0:
            return None
        net = amount_in - fee_amount
        if zero_in:
            self.reserve0 += net
            self.reserve1 -= amount_out
            amount0, amount1 = amount_in, -amount_out
            usd = amount_in / t0.unit * p0
            fees_usd = fee_amount / t0.unit * p0
        else:
            self.reserve1 += net
            self.reserve0 -= amount_out
            amount0, amount1 = -amount_out, amount_in
            usd = amount_in / t1.unit * p1
            fees_usd = fee_amount / t1.unit * p1
        acc = self.epoch_fees.setdefault(epoch_start(ts), [0, 0])
        acc[0 if zero_in else 1] += fee_amount
        self.cum_volume += usd
        self.cum_fees += fees_usd
        self._record(ts, usd, fees_usd)
        if self.is_cl:
            return Swap(ts, self, sender, amount0, amount1, usd, fees_usd, fee_amount, amm.tick, amm.sqrt_price)
        return Swap(ts, self, sender, amount0, amount1, usd, fees_usd, fee_amount, None, None)

    def liquidity_event(self, ts: int, u: float, v: float) -> int:
        """An LP adds/removes liquidity (v2) or re-centres a position (CL). Returns tx count."""
        p0 = self.prices.price(self.token0.idx, ts)
        p1 = self.prices.price(self.token1.idx, ts)
        if not self.is_cl:
            a = self.amm
            tvl = a.reserve0 / self.token0.unit * p0 + a.reserve1 / self.token1.unit * p1
            add = u < 0.5 + 0.35 * math.tanh(math.log(self.spec.tvl_usd / max(tvl, 1.0)) * 2)
            frac = 0.01 + 0.04 * v
            d0, d1 = int(a.reserve0 * frac), int(a.reserve1 * frac)
            if add:
                a.reserve0 += d0
                a.reserve1 += d1
            else:
                a.reserve0 -= d0
                a.reserve1 -= d1
            self.reserve0, self.reserve1 = a.reserve0, a.reserve1
            self._record(ts)
            return 1
        amm = self.amm
        tick = amm.tick
        worst, worst_dist = None, 0
        for pos in self.positions:
            if pos[3] < 0:
                continue
            if tick < pos[0]:
                dist = pos[0] - tick
            elif tick >= pos[1]:
                dist = tick - pos[1] + 1
            else:
                dist = 0
            if dist > worst_dist:
                worst, worst_dist = pos, dist
        if worst is None:
            narrow = [p for p in self.positions if p[3] >= 0]
            if not narrow or u > 0.3:
                return 0
            worst = narrow[int(v * len(narrow)) % len(narrow)]
        lo, hi, liq, half = worst
        b0, b1 = amm.burn(lo, hi, liq)
        self.reserve0 -= b0
        self.reserve1 -= b1
        self._record(ts)
        usd = b0 / self.token0.unit * p0 + b1 / self.token1.unit * p1
        nlo, nhi = self._range(half)
        nliq = self._liquidity_for_usd(nlo, nhi, usd, p0, p1)
        if nliq <= 0:
            self.positions.remove(worst)
            self._snap_positions(ts)
            return 1
        a0, a1 = amm.mint(nlo, nhi, nliq)
        self.reserve0 += a0
        self.reserve1 += a1
        worst[0], worst[1], worst[2] = nlo, nhi, nliq
        self._record(ts)
        self._snap_positions(ts)
        return 2

    def toggle_side(self, ts: int) -> int:
        """Burn the side position (pos[3] = -2, never re-centred) if any, else mint one, by turns far
        above the price or on the lowest ticks: ~2% of TVL, at most maxLiquidityPerTick. Draws no
        randomness (the model calls it on a fixed schedule). Tx count."""
        amm, sp = self.amm, self.tick_spacing
        p0 = self.prices.price(self.token0.idx, ts)
        p1 = self.prices.price(self.token1.idx, ts)
        side = next((p for p in self.positions if p[3] == -2), None)
        if side is not None:
            b0, b1 = amm.burn(side[0], side[1], side[2])
            d0, d1 = -b0, -b1
            self.positions.remove(side)
        else:
            lo_end, hi_end = amm.min_tick(), amm.max_tick()
            self.side_mints += 1
            if self.side_mints % 2:
                base = (amm.tick // sp) * sp
                lo, hi = min(base + 400 * sp, hi_end - 20 * sp), min(base + 420 * sp, hi_end)
            else:
                lo, hi = lo_end, lo_end + 10 * sp
            room = clmath.max_liquidity_per_tick(sp) - max(amm.ticks.get(t, (0,))[0] for t in (lo, hi))
            liq = min(self._liquidity_for_usd(lo, hi, 0.02 * self.spec.tvl_usd, p0, p1), room)
            if liq <= 0:
                return 0
            d0, d1 = amm.mint(lo, hi, liq)
            self.positions.append([lo, hi, liq, -2])
        self.reserve0 += d0
        self.reserve1 += d1
        self._record(ts)
        self._snap_positions(ts)
        return 1

    def _snap_positions(self, ts: int) -> None:
        self.pos_ts.append(ts)
        self.pos_snap.append(tuple((p[0], p[1], p[2]) for p in self.positions))

    def amm_at(self, ts: int) -> V2Pool | CLPool | None:
        """A fresh AMM equal to the pool as of ts (state, fee and, for CL, the tick table)."""
        st = self.state_at(ts)
        if st is None:
            return None
        fee = self.fee_at(ts)
        if not self.is_cl:
            return V2Pool(self.kind == "v2-stable", self.token0.decimals, self.token1.decimals, fee,
                          st.reserve0, st.reserve1)
        amm = CLPool(st.sqrt_price, fee, self.tick_spacing)
        for lo, hi, liq in self.pos_snap[bisect_right(self.pos_ts, ts) - 1]:
            amm.mint(lo, hi, liq)
        # the recorded tick/liquidity are authoritative (a swap ending on a tick boundary leaves
        # tick = boundary - 1, which get_tick_at_sqrt_ratio would not give back)
        amm.tick, amm.liquidity = st.tick, st.liquidity
        return amm

    def ticks_at(self, ts: int) -> tuple[tuple[int, int, int], ...]:
        """CL: the initialized ticks as of ts, (tick, liquidityNet, liquidityGross) by tick."""
        i = bisect_right(self.pos_ts, ts) - 1
        if i < 0:
            return ()
        ticks = self._ticks_cache.get(i)
        if ticks is None:
            if len(self._ticks_cache) >= 64:
                self._ticks_cache.clear()
            ticks = self._ticks_cache[i] = clmath.tick_table(self.pos_snap[i])
        return ticks

    def close_hour(self, hour_ts: int, close_ts: int, vol: float, fees: float, txc: int) -> None:
        """Store the aggregate row of the hour [hour_ts, hour_ts+3600)."""
        p0 = self.prices.price(self.token0.idx, close_ts)
        p1 = self.prices.price(self.token1.idx, close_ts)
        tvl = self.reserve0 / self.token0.unit * p0 + self.reserve1 / self.token1.unit * p1
        price = self._pool_price()
        row = {
            "id": f"{self.id}-{hour_ts // HOUR}",
            "periodStartUnix": hour_ts,
            "pool": self.id,
            "volumeUSD": vol,
            "feesUSD": fees,
            "tvlUSD": tvl,
            "txCount": txc,
            "close": 1.0 / price if price > 0 else 0.0,
            "token1Price": price,
        }
        self.hours.append(row)
        day = hour_ts - hour_ts % 86400
        acc = self._day_acc
        if acc is None or acc["date"] != day:
            acc = self._day_acc = {"id": f"{self.id}-{day // 86400}", "date": day, "pool": self.id,
                                   "volumeUSD": 0.0, "feesUSD": 0.0, "tvlUSD": 0.0, "txCount": 0}
            self.days.append(acc)
        acc["volumeUSD"] += vol
        acc["feesUSD"] += fees
        acc["txCount"] += txc
        acc["tvlUSD"] = tvl
