"""Auto-managed liquidity vaults over existing pools: deposits, withdrawals, rebalances, reward
harvests, calm and pause windows, with time travel like the rest of the devnet.

Accounting. A vault's liquidity is accounted separately from its pool: the pool's reserves, swaps
and prices are the market simulation's, untouched (so every pre-existing output is unchanged);
the vault holds a *virtual* position valued with the pool's own math at the pool's state:
- CL: liquidity `liq` on [lower, upper) -> amounts from devnet.amm.cl at the pool's sqrt price
  (rounded down), plus idle balances;
- v2: `lp` units of the pool's LP supply (isqrt(reserve0 * reserve1), as Pool.totalSupply) ->
  lp * reserve / supply (rounded down), plus idle balances.
The keeper's swaps (rebalance, reward selling) are priced at the pool's spot price (CL) or USD
prices, minus the pool fee, and do not move the pool.

Randomness comes from its own stream, `default_rng([seed, chain, 777, hour])`, so the market and
governance streams are not consumed and their outputs stay bit-identical.
"""
from __future__ import annotations

import math
from bisect import bisect_right

import numpy as np

from devnet.timeutil import DAY, HOUR, hour_start
from devnet.deployments import vault_address, vault_contracts, vault_fee_recipient
from devnet.amm import cl as clmath
from devnet.params import VaultSpec
from devnet.sim.vault_fees import FeeLedger, split_reward, unstaked_fees

VAULT_STREAM = 777
UNIT_L = 10**24  # liquidity unit for per-unit position amounts
E18 = 10**18
_LOG_TICK = math.log(1.0001)
KEEPER_CHECKS = 4  # keeper looks at every vault this many times an hour


# -- pure math (also used by the RPC contracts) ---------------------------------------------------
def position_amounts(sqrt_p: int, tick: int, lower: int, upper: int, liq: int, round_up: bool) -> tuple[int, int]:
    """Token amounts of `liq` on [lower, upper) at a price (CLPool._position_amounts' rule)."""
    if liq <= 0:
        return 0, 0
    sa, sb = clmath.get_sqrt_ratio_at_tick(lower), clmath.get_sqrt_ratio_at_tick(upper)
    if tick < lower:
        return clmath.get_amount0_delta(sa, sb, liq, round_up), 0
    if tick < upper:
        return (clmath.get_amount0_delta(sqrt_p, sb, liq, round_up),
                clmath.get_amount1_delta(sa, sqrt_p, liq, round_up))
    return 0, clmath.get_amount1_delta(sa, sb, liq, round_up)


def liquidity_for_amounts(sqrt_p: int, tick: int, lower: int, upper: int, a0: int, a1: int) -> int:
    """Largest liquidity whose rounded-up amounts fit in (a0, a1)."""
    sa, sb = clmath.get_sqrt_ratio_at_tick(lower), clmath.get_sqrt_ratio_at_tick(upper)
    q96 = clmath.Q96

    def from0(lo, hi):
        return a0 * (lo * hi // q96) // (hi - lo)

    def from1(lo, hi):
        return a1 * q96 // (hi - lo)

    if tick < lower:
        liq = from0(sa, sb)
    elif tick < upper:
        liq = min(from0(sqrt_p, sb), from1(sa, sqrt_p))
    else:
        liq = from1(sa, sb)
    while liq > 0:
        n0, n1 = position_amounts(sqrt_p, tick, lower, upper, liq, True)
        if n0 <= a0 and n1 <= a1:
            break
        liq -= max(1, liq // 10**9)
    return max(liq, 0)


def preview_deposit(t0: int, t1: int, supply: int, a0: int, a1: int) -> tuple[int, int, int]:
    """(shares, used0, used1): shares proportional to the current totals; the vault takes only the
    ratio-limited amounts (rounded up, in the vault's favour), the rest stays with the caller."""
    if supply == 0 or (t0 == 0 and t1 == 0):
        return 0, 0, 0
    if t0 == 0:
        shares = a1 * supply // t1
    elif t1 == 0:
        shares = a0 * supply // t0
    else:
        shares = min(a0 * supply // t0, a1 * supply // t1)
    return shares, -(-shares * t0 // supply), -(-shares * t1 // supply)


def price_tick(pool, st) -> int:
    """The pool's tick (CL) or the tick of its reserve ratio (v2), for the calm rule."""
    if pool.is_cl:
        return st.tick
    return math.floor(math.log(st.reserve1 / st.reserve0) / _LOG_TICK)


class VaultState:
    """Book values of a vault after one event (amounts need the pool's state as well)."""

    __slots__ = ("supply", "liq", "lower", "upper", "idle0", "idle1", "last_rebalance",
                 "last_harvest", "nft_id")

    def __init__(self, supply=0, liq=0, lower=0, upper=0, idle0=0, idle1=0, last_rebalance=0,
                 last_harvest=0, nft_id=0):
        self.supply, self.liq, self.lower, self.upper = supply, liq, lower, upper
        self.idle0, self.idle1 = idle0, idle1
        self.last_rebalance, self.last_harvest, self.nft_id = last_rebalance, last_harvest, nft_id

    def copy(self) -> "VaultState":
        return VaultState(self.supply, self.liq, self.lower, self.upper, self.idle0, self.idle1,
                          self.last_rebalance, self.last_harvest, self.nft_id)


class VaultSim:
    def __init__(self, book, idx: int, spec: VaultSpec, address: str, pool, created_ts: int):
        sim = book.sim
        self.book = book
        self.sim = sim
        self.idx = idx
        self.spec = spec
        self.key = spec.key
        self.address = address
        self.id = address.lower()
        self.kind = "cl" if pool.is_cl else "v2"
        self.pool = pool
        self.token0, self.token1 = pool.token0, pool.token1
        self.strategy = sim.label_address(f"vaultStrategy:{spec.key}")
        self.created_ts = created_ts
        self.created_block = sim.block_at(created_ts)
        self.pause_window = book.window(spec.strategy_pause)
        self.live = VaultState()
        self.ev_ts: list[int] = []
        self.ev_state: list[VaultState] = []
        self.balances: dict[str, tuple[list[int], list[int]]] = {}  # user -> (ts, shares)
        self.rw_ts: list[int] = []  # reward accrual: segment start, cumulative at start, rate/s
        self.rw_cum: list[int] = []
        self.rw_rate: list[int] = []
        self.hours: list[dict] = []
        self._day: dict | None = None
        self.harvest_ts: list[int] = []
        self.harvest_cum_usd: list[float] = []

    # -- reads at a time ------------------------------------------------------------------------
    def exists_at(self, ts: int) -> bool:
        return ts >= self.created_ts

    def state_at(self, ts: int) -> VaultState | None:
        i = bisect_right(self.ev_ts, ts) - 1
        return self.ev_state[i] if i >= 0 else None

    def gauge(self):
        return self.pool.gauge

    def totals(self, vs: VaultState, ts: int) -> tuple[int, int]:
        st = self.pool.state_at(ts)
        return self._totals(vs, st)

    def _totals(self, vs: VaultState, st) -> tuple[int, int]:
        if self.kind == "cl":
            p0, p1 = position_amounts(st.sqrt_price, st.tick, vs.lower, vs.upper, vs.liq, False)
        else:
            lp_supply = math.isqrt(st.reserve0 * st.reserve1)
            p0, p1 = vs.liq * st.reserve0 // lp_supply, vs.liq * st.reserve1 // lp_supply
        return p0 + vs.idle0, p1 + vs.idle1

    def usd(self, a0: int, a1: int, ts: int) -> float:
        return (a0 / self.token0.unit * self.sim.price(self.token0, ts)
                + a1 / self.token1.unit * self.sim.price(self.token1, ts))

    def tick_at(self, ts: int) -> int:
        return price_tick(self.pool, self.pool.state_at(max(ts, self.pool.created_ts)))

    def is_calm(self, ts: int) -> bool:
        return abs(self.tick_at(ts) - self.tick_at(ts - self.spec.calm_window)) <= self.spec.calm_ticks

    def strategy_paused(self, ts: int) -> bool:
        w = self.pause_window
        return w is not None and w[0] <= ts < w[1]

    def paused(self, ts: int) -> bool:
        """Effective pause of the vault: its strategy's or the factory's global pause."""
        return self.strategy_paused(ts) or self.book.global_paused(ts)

    def band(self) -> int:
        return self.spec.band * (self.pool.tick_spacing or 0)

    def needs_rebalance(self, vs: VaultState, ts: int) -> bool:
        if self.kind != "cl":
            return False
        tick = self.pool.state_at(ts).tick
        return tick < vs.lower + self.band() or tick >= vs.upper - self.band()

    def earned(self, ts: int, since: int | None = None) -> int:
        """Gauge rewards (core token, raw) accrued to the vault from `since` (default: its last
        harvest as of ts) to ts."""
        if since is None:
            vs = self.state_at(ts)
            if vs is None:
                return 0
            since = vs.last_harvest
        return self.reward_cum(ts) - self.reward_cum(since)

    def reward_cum(self, ts: int) -> int:
        i = bisect_right(self.rw_ts, ts) - 1
        if i < 0:
            return 0
        return self.rw_cum[i] + self.rw_rate[i] * (ts - self.rw_ts[i])

    def balance_of(self, user: str, ts: int) -> int:
        hist = self.balances.get(user.lower())
        if not hist:
            return 0
        i = bisect_right(hist[0], ts) - 1
        return hist[1][i] if i >= 0 else 0

    def harvested_usd(self, start: int, end: int) -> float:
        """Harvested rewards in USD with start <= ts <= end."""
        def cum(t):
            i = bisect_right(self.harvest_ts, t) - 1
            return self.harvest_cum_usd[i] if i >= 0 else 0.0
        return cum(end) - cum(start - 1)

    def snapshot(self, ts: int) -> dict | None:
        """Everything the truth, the subgraph and the contracts report, as of ts."""
        vs = self.state_at(ts)
        if vs is None:
            return None
        t0, t1 = self.totals(vs, ts)
        tvl = self.usd(t0, t1, ts)
        return {"state": vs, "amount0": t0, "amount1": t1, "tvlUsd": tvl,
                "sharePriceUsd": tvl / (vs.supply / E18) if vs.supply else 0.0}

    # -- generation -----------------------------------------------------------------------------
    def _commit(self, ts: int) -> None:
        vs = self.live.copy()
        if self.ev_ts and self.ev_ts[-1] == ts:
            self.ev_state[-1] = vs
        else:
            self.ev_ts.append(ts)
            self.ev_state.append(vs)

    def _set_balance(self, user: str, ts: int, delta: int) -> int:
        times, vals = self.balances.setdefault(user, ([], []))
        new = (vals[-1] if vals else 0) + delta
        if times and times[-1] == ts:
            vals[-1] = new
        else:
            times.append(ts)
            vals.append(new)
        return new

    def _centred_range(self, tick: int) -> tuple[int, int]:
        sp = self.pool.tick_spacing
        base = (tick // sp) * sp
        return base - self.spec.half_width * sp, base + (self.spec.half_width + 1) * sp

    def create(self, ts: int, deployer: str) -> dict:
        """The deployer's first deposit: seed_usd split at the pool's price, share price $1."""
        st = self.pool.state_at(ts)
        vs = self.live
        usd = self.spec.seed_usd
        p0, p1 = self.sim.price(self.token0, ts), self.sim.price(self.token1, ts)
        if self.kind == "cl":
            vs.lower, vs.upper = self._centred_range(st.tick)
            unit0, unit1 = position_amounts(st.sqrt_price, st.tick, vs.lower, vs.upper, UNIT_L, True)
            per_unit = unit0 / self.token0.unit * p0 + unit1 / self.token1.unit * p1
            vs.liq = int(UNIT_L * usd / per_unit)
            a0, a1 = position_amounts(st.sqrt_price, st.tick, vs.lower, vs.upper, vs.liq, True)
            vs.last_rebalance = ts
            vs.nft_id = self.idx * 1_000_000 + 1
        else:
            a0 = int(usd / 2 / p0 * self.token0.unit)
            a1 = int(usd / 2 / p1 * self.token1.unit)
            lp_supply = math.isqrt(st.reserve0 * st.reserve1)
            vs.liq = min(a0 * lp_supply // st.reserve0, a1 * lp_supply // st.reserve1)
            a0 = -(-vs.liq * st.reserve0 // lp_supply)
            a1 = -(-vs.liq * st.reserve1 // lp_supply)
        shares = int(self.usd(a0, a1, ts) * E18)
        vs.supply = shares
        vs.last_harvest = ts
        self._set_balance(deployer, ts, shares)
        self._commit(ts)
        return self._event("deposit", ts, deployer, shares, a0, a1)

    def _event(self, kind: str, ts: int, user: str | None, shares: int, a0: int, a1: int, **extra) -> dict:
        row = {"kind": kind, "vault": self.id, "timestamp": ts, "user": user, "shares": shares,
               "amount0": a0, "amount1": a1, "amountUSD": self.usd(a0, a1, ts)}
        row.update(extra)
        return row

    def deposit(self, ts: int, user: str, a0: int, a1: int) -> dict | None:
        vs = self.live
        t0, t1 = self._totals(vs, self.pool.state_at(ts))
        shares, used0, used1 = preview_deposit(t0, t1, vs.supply, a0, a1)
        if shares <= 0:
            return None
        vs.idle0 += used0
        vs.idle1 += used1
        vs.supply += shares
        self._set_balance(user, ts, shares)
        self._commit(ts)
        return self._event("deposit", ts, user, shares, used0, used1)

    def withdraw_amounts(self, vs: VaultState, st, shares: int) -> tuple[int, int, int]:
        """previewWithdraw: burn liq*shares/supply of the position (CL: at the pool's price,
        rounded down; v2: lp*shares/supply LP units) plus the same share of the idle balances.
        Returns (amount0, amount1, liquidity burnt)."""
        if vs.supply == 0 or shares <= 0:
            return 0, 0, 0
        burn = vs.liq * shares // vs.supply
        if self.kind == "cl":
            b0, b1 = position_amounts(st.sqrt_price, st.tick, vs.lower, vs.upper, burn, False)
        else:
            lp_supply = math.isqrt(st.reserve0 * st.reserve1)
            b0, b1 = burn * st.reserve0 // lp_supply, burn * st.reserve1 // lp_supply
        return (b0 + vs.idle0 * shares // vs.supply, b1 + vs.idle1 * shares // vs.supply, burn)

    def withdraw(self, ts: int, user: str, shares: int) -> dict | None:
        vs = self.live
        if shares <= 0 or shares >= vs.supply:
            return None
        a0, a1, burn = self.withdraw_amounts(vs, self.pool.state_at(ts), shares)
        vs.idle0 -= vs.idle0 * shares // vs.supply
        vs.idle1 -= vs.idle1 * shares // vs.supply
        vs.liq -= burn
        vs.supply -= shares
        self._set_balance(user, ts, -shares)
        self._commit(ts)
        return self._event("withdrawal", ts, user, shares, a0, a1)

    def _compound(self, st) -> None:
        """Put the idle balances into the position (as much as the current ratio allows)."""
        vs = self.live
        if self.kind == "cl":
            add = liquidity_for_amounts(st.sqrt_price, st.tick, vs.lower, vs.upper, vs.idle0, vs.idle1)
            if add > 0:
                m0, m1 = position_amounts(st.sqrt_price, st.tick, vs.lower, vs.upper, add, True)
                vs.liq += add
                vs.idle0 -= m0
                vs.idle1 -= m1
            return
        lp_supply = math.isqrt(st.reserve0 * st.reserve1)
        add = min(vs.idle0 * lp_supply // st.reserve0, vs.idle1 * lp_supply // st.reserve1)
        if add > 0:
            vs.liq += add
            vs.idle0 -= -(-add * st.reserve0 // lp_supply)
            vs.idle1 -= -(-add * st.reserve1 // lp_supply)

    def harvest(self, ts: int) -> dict | None:
        """Claim the gauge rewards, send the strategy's fee (`reward_fee_bps` of the claim) to the
        fee recipient, sell the rest for the vault's tokens (USD prices minus the pool fee, split
        by the vault's current value split) and compound everything idle. The row's amount and
        amountUSD are the gross claim, feeAmount/feeAmountUSD the cut."""
        vs = self.live
        amount = self.earned(ts, vs.last_harvest)
        fee, rest = split_reward(amount, self.spec.reward_fee_bps)
        st = self.pool.state_at(ts)
        core = self.sim.core
        core_price = self.sim.price(core, ts)
        usd = amount / core.unit * core_price
        sold = rest / core.unit * core_price
        t0, t1 = self._totals(vs, st)
        v0 = t0 / self.token0.unit * self.sim.price(self.token0, ts)
        v1 = t1 / self.token1.unit * self.sim.price(self.token1, ts)
        keep = 1.0 - self.pool.fee_at(ts) / 1e6
        share0 = v0 / (v0 + v1) if v0 + v1 > 0 else 0.5
        vs.idle0 += int(sold * keep * share0 / self.sim.price(self.token0, ts) * self.token0.unit)
        vs.idle1 += int(sold * keep * (1 - share0) / self.sim.price(self.token1, ts) * self.token1.unit)
        vs.last_harvest = ts
        self._compound(st)
        self._commit(ts)
        self.harvest_ts.append(ts)
        self.harvest_cum_usd.append((self.harvest_cum_usd[-1] if self.harvest_cum_usd else 0.0) + usd)
        return {"kind": "harvest", "vault": self.id, "timestamp": ts, "token": core.id,
                "amount": amount, "amountUSD": usd, "feeAmount": fee, "feeAmountUSD": fee / core.unit * core_price}

    def rebalance(self, ts: int) -> dict:
        """Withdraw everything (collecting the trading fees the position earned unstaked, see
        sim/vault_fees.py), re-centre the range on the current tick, swap the surplus side at the
        pool's spot price (minus the pool fee) and mint the new position; dust stays idle. The
        row carries the totals (position + idle, raw) just before and just after, the fees, the
        pool's sqrtPriceX96 and the surplus swap."""
        vs = self.live
        st = self.pool.state_at(ts)
        old = (vs.lower, vs.upper)
        before = self._totals(vs, st)
        fees0, fees1 = unstaked_fees(self, vs.last_rebalance, ts)
        tot0, tot1 = before[0] + fees0, before[1] + fees1
        lo, hi = self._centred_range(st.tick)
        price = (st.sqrt_price / clmath.Q96) ** 2  # raw token1 per raw token0
        fee = self.pool.fee_at(ts) / 1e6
        x, y = position_amounts(st.sqrt_price, st.tick, lo, hi, UNIT_L, True)
        per_unit = x * price + y
        value = tot0 * price + tot1
        liq = value / per_unit * UNIT_L
        if tot0 > x * liq / UNIT_L:
            surplus = tot0 - x * liq / UNIT_L
            for _ in range(3):
                liq = (value - surplus * price * fee) / per_unit * UNIT_L
                surplus = tot0 - x * liq / UNIT_L
            sell, zero_for_one = int(surplus), True
            got = int(sell * price * (1 - fee))
            new0, new1 = tot0 - sell, tot1 + got
        else:
            surplus = tot1 - y * liq / UNIT_L
            for _ in range(3):
                liq = (value - surplus * fee) / per_unit * UNIT_L
                surplus = tot1 - y * liq / UNIT_L
            sell, zero_for_one = int(surplus), False
            got = int(sell / price * (1 - fee))
            new0, new1 = tot0 + got, tot1 - sell
        vs.lower, vs.upper = lo, hi
        vs.liq = liquidity_for_amounts(st.sqrt_price, st.tick, lo, hi, new0, new1)
        m0, m1 = position_amounts(st.sqrt_price, st.tick, lo, hi, vs.liq, True)
        vs.idle0, vs.idle1 = new0 - m0, new1 - m1
        vs.last_rebalance = ts
        vs.nft_id += 1
        self._commit(ts)
        after = self._totals(vs, st)
        return {"kind": "rebalance", "vault": self.id, "timestamp": ts, "oldTickLower": old[0],
                "oldTickUpper": old[1], "newTickLower": lo, "newTickUpper": hi, "tick": st.tick,
                "sqrtPriceX96": st.sqrt_price, "amount0Before": before[0], "amount1Before": before[1],
                "amount0After": after[0], "amount1After": after[1], "fees0": fees0, "fees1": fees1,
                "swapAmountIn": sell, "swapAmountOut": got, "swapZeroForOne": zero_for_one}

    def accrue(self, start: int) -> None:
        """Open a reward segment at `start`: the gauge's rate times the vault's share of the
        staked value (vault TVL / (pool TVL + vault TVL)) at that time, fixed until the next one."""
        g = self.gauge()
        cum = self.reward_cum(start)
        rate = 0
        vs = self.state_at(start)
        if g is not None and vs is not None:
            st = self.pool.state_at(start)
            vault_usd = self.usd(*self._totals(vs, st), start)
            pool_usd = self.pool.tvl_usd(st, start)
            rate = int(self.sim.gov.gauge_reward_rate(g, start) * vault_usd / (pool_usd + vault_usd))
        self.rw_ts.append(start)
        self.rw_cum.append(cum)
        self.rw_rate.append(rate)

    def close_hour(self, h: int) -> None:
        """The hour row (as of the hour's last block) and the running day row."""
        close = h + HOUR - self.sim.block_time
        snap = self.snapshot(close)
        if snap is None:
            return
        row = self.period_row(h, close, HOUR, snap)
        self.hours.append(row)
        self.book.hour_rows.append(row)
        day = h - h % DAY
        if self._day is None or self._day["periodStartUnix"] != day:
            self._day = {"periodStartUnix": day}
            self.book.day_rows.append(self._day)
        self._day.clear()
        self._day.update(self.period_row(day, close, DAY, snap))

    def period_row(self, start: int, ts: int, length: int, snap: dict) -> dict:
        """A period row (hour or day) as of ts: state at ts, rewards harvested in [start, ts]."""
        harvested = self.harvested_usd(max(start, self.created_ts), ts)
        tvl = snap["tvlUsd"]
        return {
            "id": f"{self.id}-{start // length}",
            "periodStartUnix": start,
            "vault": self.id,
            "totalSupply": snap["state"].supply,
            "amount0": snap["amount0"],
            "amount1": snap["amount1"],
            "tvlUSD": tvl,
            "sharePriceUSD": snap["sharePriceUsd"],
            "harvestedUSD": harvested,
            "apr": harvested / tvl * (365 * DAY / length) if tvl > 0 else 0.0,
        }


class VaultBook:
    """Every vault of a chain, the users, the pause windows and the time-ordered event lists."""

    def __init__(self, sim):
        self.sim = sim
        p = sim.params
        history_s = int(sim.history_days * DAY)
        self._history_s = history_s
        self.global_pause = self.window(p.vault_global_pause)
        # the shared vault contracts exist only on chains with vaults
        self.contracts = vault_contracts(sim.chain_id) if p.vaults else {}
        self.fee_recipient = vault_fee_recipient(sim.chain_id) if p.vaults else None
        self.fees = FeeLedger()
        self.vaults: list[VaultSim] = []
        for i, spec in enumerate(p.vaults):
            address = vault_address(sim.chain_id, spec.key)
            pool = sim.pool(spec.pool)
            created = hour_start(pool.created_ts) + HOUR + (10 + 5 * i) * 60
            self.vaults.append(VaultSim(self, i, spec, address, pool, created))
        self.by_id = {v.id: v for v in self.vaults}
        self.by_strategy = {v.strategy.lower(): v for v in self.vaults}
        self.users = [sim.user("vault-user", i) for i in range(p.vault_users)]
        # a few users are much more active than the rest (repeat depositors)
        w = 1.0 / np.arange(1, len(self.users) + 1) ** 0.8
        self._user_weights = w / w.sum()
        # Generator.choice(n, k, p=w) is cdf.searchsorted(random(k), side="right") with this cdf
        # (numpy's own algorithm, the same draws); computed once instead of per vault and hour
        cdf = self._user_weights.cumsum()
        cdf /= cdf[-1]
        self._user_cdf = cdf
        self.deployer = sim.user("vault-deployer", 0)
        self.deposits: list[dict] = []
        self.withdrawals: list[dict] = []
        self.rebalances: list[dict] = []
        self.harvests: list[dict] = []
        self.hour_rows: list[dict] = []
        self.day_rows: list[dict] = []
        self.by_user: dict[str, list[dict]] = {}

    def window(self, frac: tuple[float, float] | None) -> tuple[int, int] | None:
        """A window given as fractions of the history -> [start, end) seconds, hour-aligned + 25 min."""
        if frac is None:
            return None
        g = self.sim.genesis_ts
        return tuple(hour_start(g + int(f * self._history_s)) + 25 * 60 for f in frac)  # type: ignore[return-value]

    def global_paused(self, ts: int) -> bool:
        w = self.global_pause
        return w is not None and w[0] <= ts < w[1]

    def vault(self, address: str) -> VaultSim | None:
        return self.by_id.get(address.lower())

    def vaults_at(self, ts: int) -> list[VaultSim]:
        return [v for v in self.vaults if v.exists_at(ts)]

    # -- generation -----------------------------------------------------------------------------
    def run_hour(self, h: int) -> None:
        """Generate the hour [h, h + 1h) for every vault (after the pools' hour is generated)."""
        if not self.vaults:
            return
        sim = self.sim
        rng = np.random.default_rng([sim.seed, sim.chain_id, VAULT_STREAM, h // HOUR])
        end = h + HOUR
        bt = sim.block_time
        bph = sim.blocks_per_hour
        events: list[dict] = []
        for v in self.vaults:
            spec = v.spec
            # the draws are made for every vault every hour, so later hours never depend on
            # how many events earlier hours had
            n_dep, n_wd = rng.poisson([spec.deposits_per_hour * sim.scale, spec.withdrawals_per_hour * sim.scale])
            dep_off = rng.integers(0, bph, 8).tolist()
            dep_z = rng.standard_normal(8).tolist()
            dep_u = rng.random((8, 3)).tolist()
            dep_user = self._user_cdf.searchsorted(rng.random(8), side="right").tolist()
            wd_off = rng.integers(0, bph, 8).tolist()
            wd_u = rng.random((8, 2)).tolist()
            keeper_off = rng.integers(0, bph // KEEPER_CHECKS, KEEPER_CHECKS).tolist()
            harvest_u = rng.random(2).tolist()
            if end <= v.created_ts:
                continue
            if h <= v.created_ts < end:
                events.append(v.create(v.created_ts, self.deployer))
            start = max(h, v.created_ts)
            v.accrue(start)
            plan = []  # (ts, order, kind, payload)
            for k in range(min(int(n_dep), 8)):
                plan.append((h + dep_off[k] * bt, 1, "deposit", k))
            for k in range(min(int(n_wd), 8)):
                plan.append((h + wd_off[k] * bt, 2, "withdraw", k))
            for k in range(KEEPER_CHECKS):
                plan.append((h + (k * bph // KEEPER_CHECKS + keeper_off[k]) * bt, 0, "keeper", k))
            if harvest_u[0] < spec.harvest_per_hour:
                plan.append((h + int(harvest_u[1] * bph) * bt, 3, "harvest", 0))
            plan.sort()
            for ts, _order, kind, k in plan:
                if ts <= v.created_ts:
                    continue
                row = None
                if kind == "deposit":
                    if v.paused(ts) or not v.is_calm(ts):
                        continue  # the deposit would revert: the user does not send it
                    row = self._user_deposit(v, ts, self.users[dep_user[k]], dep_z[k], dep_u[k])
                elif kind == "withdraw":
                    row = self._user_withdraw(v, ts, wd_u[k])
                elif kind == "keeper":
                    if (v.kind == "cl" and not v.paused(ts) and v.is_calm(ts)
                            and v.needs_rebalance(v.live, ts)):
                        row = v.rebalance(ts)
                elif not v.paused(ts):
                    row = v.harvest(ts)
                if row is not None:
                    row["_order"] = (ts, v.idx, len(events))
                    events.append(row)
        self._assign_ids(events)
        for v in self.vaults:
            v.close_hour(h)

    def _user_deposit(self, v: VaultSim, ts: int, user: str, z: float, u: list[float]) -> dict | None:
        """A user brings tokens worth a log-normal USD size in about the vault's ratio, with a
        surplus of 0-8% on one side (the vault takes the ratio-limited part)."""
        usd = math.exp(math.log(v.spec.median_deposit_usd) + 1.0 * z)
        t0, t1 = v._totals(v.live, v.pool.state_at(ts))
        p0, p1 = self.sim.price(v.token0, ts), self.sim.price(v.token1, ts)
        v0, v1 = t0 / v.token0.unit * p0, t1 / v.token1.unit * p1
        w0 = v0 / (v0 + v1)
        extra0 = 1.0 + (0.08 * u[1] if u[0] < 0.5 else 0.0)
        extra1 = 1.0 + (0.08 * u[1] if u[0] >= 0.5 else 0.0)
        a0 = int(usd * w0 / p0 * v.token0.unit * extra0)
        a1 = int(usd * (1 - w0) / p1 * v.token1.unit * extra1)
        return v.deposit(ts, user.lower(), a0, a1)

    def _user_withdraw(self, v: VaultSim, ts: int, u: list[float]) -> dict | None:
        holders = sorted(usr for usr, (_t, vals) in v.balances.items() if vals[-1] > 0 and usr != self.deployer)
        if not holders:
            return None
        user = holders[int(u[0] * len(holders)) % len(holders)]
        bal = v.balances[user][1][-1]
        frac = 1.0 if u[1] < 0.4 else 0.2 + 0.6 * (u[1] - 0.4) / 0.6
        shares = bal if frac >= 1.0 else int(bal * frac)
        return v.withdraw(ts, user, shares)

    def _assign_ids(self, events: list[dict]) -> None:
        """Blocks, log indexes, transaction hashes and ids in chain order; file the events."""
        events.sort(key=lambda r: r.get("_order", (r["timestamp"], -1, 0)))
        sim = self.sim
        last_block, index = -1, 0
        target = {"deposit": self.deposits, "withdrawal": self.withdrawals,
                  "rebalance": self.rebalances, "harvest": self.harvests}
        for row in events:
            row.pop("_order", None)
            block = sim.block_at(row["timestamp"])
            index = index + 1 if block == last_block else 0
            last_block = block
            txh = sim.tx_hash(block, index, "vault")
            row["blockNumber"] = block
            row["logIndex"] = index
            row["transactionHash"] = txh
            row["id"] = f"{txh}#{index}"
            target[row["kind"]].append(row)
            if row["kind"] == "harvest":
                self.fees.record(row["timestamp"], row["feeAmount"])
            if row["kind"] in ("deposit", "withdrawal"):
                self.by_user.setdefault(row["user"], []).append(row)

    def fingerprint_rows(self):
        for rows in (self.deposits, self.withdrawals, self.rebalances, self.harvests):
            yield from rows
