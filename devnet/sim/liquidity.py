"""Liquidity providers as actors: wallets that add and remove v2 liquidity, mint and burn CL
positions, stake and unstake them in the pools' gauges, collect trading fees and claim emissions.

Accounting. Like the vaults' (devnet/sim/vaults.py), the providers' liquidity is virtual: the
pools' reserves, swaps and prices are the market's, untouched, and a position is valued with the
pool's own math at the pool's state: v2 `lp` units of the pool's LP supply (isqrt(r0 * r1)) are
lp * reserve / supply of each token (rounded down); a CL position's liquidity on [lower, upper)
gives devnet.amm.cl's amounts at the pool's sqrt price (rounded down).

Positions:
- v2: one per (owner, pool), with a wallet balance and a staked balance (the gauge's), in LP
  units. Wallet LP earns trading fees (claimable, Velodrome v2's PoolFees); staked LP earns the
  gauge's emissions instead.
- CL: one per NFT (token id from CL_FIRST_TOKEN_ID up, per chain), liquidity on a range, staked or
  not. Unstaked, it earns trading fees (uncollected until a collect or the burn); staked, emissions.
Leaving a gauge (unstake) claims the emissions earned, as Velodrome's CL gauge does on withdraw
(and the devnet's v2 gauge too, for one rule). What each earns is devnet/sim/liquidity_accrual.py.

Providers: the first `LP_VOTERS` voters of the governance (so some accounts hold veNFTs as well)
and `lp_providers` wallets of their own. Each hour every provider draws, from its own stream
(`default_rng([seed, chain, 790, hour])`: the market, governance and vault streams are untouched),
whether it does each action once; drawn for every provider every hour, so later hours never
depend on earlier outcomes.
"""
from __future__ import annotations

import math
from bisect import bisect_right

import numpy as np

from devnet.timeutil import HOUR
from devnet.sim.liquidity_accrual import PoolLedger
from devnet.sim.vaults import position_amounts

LP_STREAM = 790
LP_VOTERS = 6  # voters who provide liquidity too
CL_FIRST_TOKEN_ID = 50_000_001  # apart from the vaults' NFT ids (vault index x 1,000,000 + n)
# per provider-hour probabilities at scale 1
ACTIONS = ("v2Add", "v2Remove", "v2Stake", "v2Unstake", "clMint", "clStake", "clUnstake", "clCollect",
           "clBurn", "claim")
RATES = np.array([0.012, 0.006, 0.010, 0.004, 0.012, 0.006, 0.004, 0.008, 0.006, 0.010])
MEDIAN_USD, SIGMA = 4_000.0, 1.0
MAX_POOL_SHARE = 0.02  # one deposit is at most this share of the pool's value
WIDTHS = (1, 2, 4, 10, 40)  # CL ranges: this many tick spacings either side of the current one


class LiquidityPosition:
    """One position's states (after each change, in time order) and what it has earned at them.

    A state: (amount, staked, lower, upper, fees0, fees1, taken0, taken1, emitted, claimed):
    v2 `amount` is the wallet LP and `staked` the gauge's; CL `amount` is the liquidity and
    `staked` 1 or 0. fees/emitted: everything earned up to the state's time; taken/claimed: what
    was collected or claimed of it."""

    __slots__ = ("key", "owner", "pool", "kind", "token_id", "ledger", "created_ts", "ev_ts", "ev_state")

    def __init__(self, key: str, owner: str, pool, token_id: int | None, ledger: PoolLedger, ts: int):
        self.key, self.owner, self.pool, self.token_id, self.ledger = key, owner, pool, token_id, ledger
        self.kind = "cl" if pool.is_cl else "v2"
        self.created_ts = ts
        self.ev_ts: list[int] = []
        self.ev_state: list[tuple] = []

    def state_at(self, ts: int) -> tuple | None:
        i = bisect_right(self.ev_ts, ts) - 1
        return (self.ev_ts[i], self.ev_state[i]) if i >= 0 else None

    def live(self) -> tuple:
        return self.ev_state[-1] if self.ev_state else (0, 0, None, None, 0, 0, 0, 0, 0, 0)

    def earned(self, ts: int) -> tuple[int, int, int, int, int, int] | None:
        """(fees0, fees1, taken0, taken1, emitted, claimed) as of ts; None before it exists."""
        found = self.state_at(ts)
        if found is None:
            return None
        t, (amount, staked, lower, upper, f0, f1, k0, k1, em, cl) = found
        if self.kind == "cl":
            fee_amount, stake_amount = (0 if staked else amount), (amount if staked else 0)
        else:
            fee_amount, stake_amount = amount, staked
        d0, d1 = self.ledger.fees(t, ts, fee_amount, lower, upper)
        return f0 + d0, f1 + d1, k0, k1, em + self.ledger.emissions(t, ts, stake_amount, lower, upper), cl

    def change(self, ts: int, amount: int, staked: int, lower=None, upper=None, collect=False, claim=False) -> dict:
        """Settle what was earned up to ts, then set the new balances; returns what the change paid
        out ({fees0, fees1, emissions})."""
        if self.ev_state:
            lower, upper = self.live()[2], self.live()[3]
            f0, f1, k0, k1, em, cl = self.earned(ts)
        else:
            f0 = f1 = k0 = k1 = em = cl = 0
        paid = {"fees0": f0 - k0 if collect else 0, "fees1": f1 - k1 if collect else 0,
                "emissions": em - cl if claim else 0}
        if collect:
            k0, k1 = f0, f1
        if claim:
            cl = em
        state = (amount, staked, lower, upper, f0, f1, k0, k1, em, cl)
        if self.ev_ts and self.ev_ts[-1] == ts:
            self.ev_state[-1] = state
        else:
            self.ev_ts.append(ts)
            self.ev_state.append(state)
        return paid

    def view(self, ts: int, sim) -> dict | None:
        """The position as of ts: balances, token amounts at the pool's state, what it has earned
        and not taken (None before it exists; a burnt NFT or an emptied v2 position stays, zero)."""
        found = self.state_at(ts)
        if found is None:
            return None
        _t, (amount, staked, lower, upper, *_rest) = found
        f0, f1, k0, k1, em, cl = self.earned(ts)
        st = self.pool.state_at(ts)
        out = {"kind": self.kind, "pool": self.pool.id, "owner": self.owner, "tokenId": self.token_id,
               "fees0": f0 - k0, "fees1": f1 - k1, "emissions": em - cl}
        if self.kind == "cl":
            a0, a1 = position_amounts(st.sqrt_price, st.tick, lower, upper, amount, False)
            out.update(liquidity=amount, staked=bool(staked), tickLower=lower, tickUpper=upper,
                       inRange=lower <= st.tick < upper, amount0=a0, amount1=a1)
        else:
            supply = math.isqrt(st.reserve0 * st.reserve1)
            out.update(wallet=amount, stakedLp=staked, supply=supply,
                       amount0=amount * st.reserve0 // supply, amount1=amount * st.reserve1 // supply,
                       staked0=staked * st.reserve0 // supply, staked1=staked * st.reserve1 // supply)
        return out


class LiquidityBook:
    """A chain's providers, their positions and events (chain order)."""

    def __init__(self, sim):
        self.sim = sim
        p = sim.params
        voters = [sim.user("voter", i) for i in range(min(LP_VOTERS, p.voters))]
        self.providers = voters + [sim.user("lp", i) for i in range(p.lp_providers)]
        self.ledgers = {pool.id: PoolLedger(pool) for pool in sim.pools}
        self.positions: dict[str, LiquidityPosition] = {}  # key -> position, in creation order
        self.by_owner: dict[str, list[LiquidityPosition]] = {}
        self.events: list[dict] = []
        self.next_token_id = CL_FIRST_TOKEN_ID
        self._swap_cursor = 0

    # -- reads ----------------------------------------------------------------------------------
    def positions_of(self, owner: str, ts: int) -> list[dict]:
        """The owner's positions as of ts, in creation order; not the ones emptied by then (a burnt
        NFT, v2 LP all removed), which have nothing left to take either (a burn or a removal
        collects the fees, an unstake claims the emissions)."""
        out = []
        for pos in self.by_owner.get(owner.lower(), []):
            found = pos.state_at(ts)
            if found is not None and (found[1][0] > 0 or found[1][1] > 0):
                out.append(pos.view(ts, self.sim))
        return out

    def events_of(self, owner: str, ts: int) -> list[dict]:
        return [e for e in self.events if e["owner"] == owner.lower() and e["timestamp"] <= ts]

    # -- generation -----------------------------------------------------------------------------
    def run_hour(self, h: int) -> None:
        """The hour [h, h + 1h), after the market's, governance's and vaults' hour."""
        sim = self.sim
        swaps = sim.swaps[self._swap_cursor:]
        self._swap_cursor = len(sim.swaps)
        by_pool: dict[str, list] = {}
        for s in swaps:
            by_pool.setdefault(s.pool.id, []).append(s)
        for pool in sim.pools:
            if pool.created_ts < h + HOUR:
                g = pool.gauge
                rate = sim.gov.gauge_reward_rate(g, h) if g is not None else 0
                self.ledgers[pool.id].add_hour(h, by_pool.get(pool.id, []), rate)
        rng = np.random.default_rng([sim.seed, sim.chain_id, LP_STREAM, h // HOUR])
        n = len(self.providers)
        fire = rng.random((n, len(ACTIONS))) < RATES * sim.scale
        offsets = rng.integers(0, sim.blocks_per_hour, (n, len(ACTIONS)))
        pick = rng.random((n, len(ACTIONS), 3))
        size = rng.standard_normal((n, len(ACTIONS)))
        todo = sorted((h + int(offsets[i, a]) * sim.block_time, i, a) for i, a in zip(*np.nonzero(fire)))
        for ts, i, a in todo:
            row = getattr(self, "_" + ACTIONS[a])(ts, self.providers[i], pick[i, a].tolist(), float(size[i, a]))
            if row is not None:
                self._record(row)

    def _record(self, row: dict) -> None:
        block = self.sim.block_at(row["timestamp"])
        txh = self.sim.tx_hash(block, 0, f"lp:{row['owner']}:{row['kind']}:{row['position']}")
        row.update(blockNumber=block, transactionHash=txh, logIndex=0, id=f"{txh}-0")
        self.events.append(row)

    def _pools(self, ts: int, cl: bool) -> list:
        return [p for p in self.sim.pools if p.is_cl == cl and p.created_ts < ts and p.state_at(ts) is not None]

    def _mine(self, owner: str, cl: bool, test) -> list[LiquidityPosition]:
        return [p for p in self.by_owner.get(owner, []) if (p.kind == "cl") == cl and test(p.live())]

    def _usd(self, pool, ts: int, z: float) -> float:
        st = pool.state_at(ts)
        return min(MEDIAN_USD * math.exp(SIGMA * z), MAX_POOL_SHARE * pool.tvl_usd(st, ts))

    def _event(self, kind: str, ts: int, pos: LiquidityPosition, **fields) -> dict:
        return {"kind": kind, "timestamp": ts, "owner": pos.owner, "pool": pos.pool.id, "position": pos.key,
                "tokenId": pos.token_id, **fields}

    def _open(self, owner: str, pool, token_id: int | None, ts: int) -> LiquidityPosition:
        key = f"cl:{token_id}" if token_id is not None else f"v2:{owner}:{pool.id}"
        pos = self.positions.get(key)
        if pos is None:
            pos = LiquidityPosition(key, owner, pool, token_id, self.ledgers[pool.id], ts)
            self.positions[key] = pos
            self.by_owner.setdefault(owner, []).append(pos)
        return pos

    @staticmethod
    def _alive(pool, ts: int) -> bool:
        return pool.gauge is not None and pool.gauge.alive_at(ts)

    # -- actions (each returns its event row, or None when there is nothing to do) ----------------
    def _v2Add(self, ts: int, owner: str, u: list[float], z: float) -> dict | None:
        pools = self._pools(ts, cl=False)
        if not pools:
            return None
        pool = pools[int(u[0] * len(pools))]
        st, usd = pool.state_at(ts), self._usd(pool, ts, z)
        supply = math.isqrt(st.reserve0 * st.reserve1)
        a0 = int(usd / 2 / self.sim.price(pool.token0, ts) * pool.token0.unit)
        a1 = int(usd / 2 / self.sim.price(pool.token1, ts) * pool.token1.unit)
        lp = min(a0 * supply // st.reserve0, a1 * supply // st.reserve1)
        if lp <= 0:
            return None
        pos = self._open(owner, pool, None, ts)
        wallet, staked = pos.live()[:2]
        pos.change(ts, wallet + lp, staked)
        return self._event("v2Add", ts, pos, lp=lp, amount0=-(-lp * st.reserve0 // supply),
                           amount1=-(-lp * st.reserve1 // supply))

    def _v2Remove(self, ts: int, owner: str, u: list[float], z: float) -> dict | None:
        mine = self._mine(owner, False, lambda s: s[0] > 0)
        if not mine:
            return None
        pos = mine[int(u[0] * len(mine))]
        wallet, staked = pos.live()[:2]
        lp = wallet if u[1] < 0.4 else max(wallet * int(20 + 60 * u[2]) // 100, 1)
        st = pos.pool.state_at(ts)
        supply = math.isqrt(st.reserve0 * st.reserve1)
        paid = pos.change(ts, wallet - lp, staked, collect=True)  # Pool.burn claims the wallet's fees first
        return self._event("v2Remove", ts, pos, lp=lp, amount0=lp * st.reserve0 // supply,
                           amount1=lp * st.reserve1 // supply, fees0=paid["fees0"], fees1=paid["fees1"])

    def _v2Stake(self, ts: int, owner: str, u: list[float], z: float) -> dict | None:
        mine = self._mine(owner, False, lambda s: s[0] > 0)
        mine = [p for p in mine if self._alive(p.pool, ts)]
        if not mine:
            return None
        pos = mine[int(u[0] * len(mine))]
        wallet, staked = pos.live()[:2]
        paid = pos.change(ts, 0, staked + wallet, collect=True)  # the wallet's fees are claimed as it leaves
        return self._event("v2Stake", ts, pos, lp=wallet, fees0=paid["fees0"], fees1=paid["fees1"])

    def _v2Unstake(self, ts: int, owner: str, u: list[float], z: float) -> dict | None:
        mine = self._mine(owner, False, lambda s: s[1] > 0)
        if not mine:
            return None
        pos = mine[int(u[0] * len(mine))]
        wallet, staked = pos.live()[:2]
        paid = pos.change(ts, wallet + staked, 0, claim=True)
        return self._event("v2Unstake", ts, pos, lp=staked, emissions=paid["emissions"])

    def _clMint(self, ts: int, owner: str, u: list[float], z: float) -> dict | None:
        pools = self._pools(ts, cl=True)
        if not pools:
            return None
        pool = pools[int(u[0] * len(pools))]
        st, usd, sp = pool.state_at(ts), self._usd(pool, ts, z), pool.tick_spacing
        width = WIDTHS[int(u[1] * len(WIDTHS))]
        base = (st.tick // sp) * sp
        lower, upper = base - width * sp, base + (width + 1) * sp
        unit = 10**24
        x, y = position_amounts(st.sqrt_price, st.tick, lower, upper, unit, True)
        per_unit = x / pool.token0.unit * self.sim.price(pool.token0, ts) + y / pool.token1.unit * self.sim.price(pool.token1, ts)
        liq = int(unit * usd / per_unit) if per_unit > 0 else 0
        if liq <= 0:
            return None
        token_id, self.next_token_id = self.next_token_id, self.next_token_id + 1
        pos = self._open(owner, pool, token_id, ts)
        stake = u[2] < 0.5 and self._alive(pool, ts)
        pos.change(ts, liq, int(stake), lower, upper)
        a0, a1 = position_amounts(st.sqrt_price, st.tick, lower, upper, liq, True)
        return self._event("clMint", ts, pos, liquidity=liq, tickLower=lower, tickUpper=upper, amount0=a0,
                           amount1=a1, staked=stake)

    def _cl_pick(self, owner: str, u: float, test) -> LiquidityPosition | None:
        mine = self._mine(owner, True, lambda s: s[0] > 0 and test(s))
        return mine[int(u * len(mine))] if mine else None

    def _clStake(self, ts: int, owner: str, u: list[float], z: float) -> dict | None:
        pos = self._cl_pick(owner, u[0], lambda s: not s[1])
        if pos is None or not self._alive(pos.pool, ts):
            return None
        paid = pos.change(ts, pos.live()[0], 1, collect=True)  # staking collects the fees first
        return self._event("clStake", ts, pos, fees0=paid["fees0"], fees1=paid["fees1"])

    def _clUnstake(self, ts: int, owner: str, u: list[float], z: float) -> dict | None:
        pos = self._cl_pick(owner, u[0], lambda s: s[1])
        if pos is None:
            return None
        paid = pos.change(ts, pos.live()[0], 0, claim=True)
        return self._event("clUnstake", ts, pos, emissions=paid["emissions"])

    def _clCollect(self, ts: int, owner: str, u: list[float], z: float) -> dict | None:
        pos = self._cl_pick(owner, u[0], lambda s: not s[1])
        if pos is None:
            return None
        paid = pos.change(ts, pos.live()[0], 0, collect=True)
        return self._event("clCollect", ts, pos, fees0=paid["fees0"], fees1=paid["fees1"])

    def _clBurn(self, ts: int, owner: str, u: list[float], z: float) -> dict | None:
        pos = self._cl_pick(owner, u[0], lambda s: not s[1])
        if pos is None:
            return None
        liq, _staked, lower, upper = pos.live()[:4]
        st = pos.pool.state_at(ts)
        a0, a1 = position_amounts(st.sqrt_price, st.tick, lower, upper, liq, False)
        paid = pos.change(ts, 0, 0, collect=True)
        return self._event("clBurn", ts, pos, liquidity=liq, amount0=a0, amount1=a1,
                           fees0=paid["fees0"], fees1=paid["fees1"])

    def _claim(self, ts: int, owner: str, u: list[float], z: float) -> dict | None:
        staked = [p for p in self.by_owner.get(owner, []) if p.live()[1]]
        if not staked:
            return None
        pos = staked[int(u[0] * len(staked))]
        amount, stk = pos.live()[:2]
        paid = pos.change(ts, amount, stk, claim=True)
        return self._event("claim", ts, pos, emissions=paid["emissions"])
