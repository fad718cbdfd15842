"""The in-process devnet: one `ChainSim` per chain, built from (chain_id, seed, genesis_ts,
history_days, scale) and queried at any block. No HTTP here; the server and the tests use it.

Time: block n has timestamp genesis_ts + (n - genesis_block) * block_time; the head is the block
at the clock's "now". The simulation is generated one hour at a time from an RNG seeded by
(seed, chain, hour index), always in order, so the same seed and genesis give the same events
whether the hours were generated at startup or later as the clock advanced. State "at block N"
is the state after every event with timestamp <= ts(N).
"""
from __future__ import annotations

import hashlib
import logging
import math
import threading
import time
from bisect import bisect_left

import numpy as np

from devnet.deployments import DEPLOYMENTS, MULTICALL3
from devnet.timeutil import DAY, HOUR, WEEK, epoch_start, hour_start, iso
from devnet import addresses
from devnet.clock import ManualClock, WallClock
from devnet.params import CHAIN_PARAMS, ChainParams, history_days_for
from devnet.specs import TokenSpec
from devnet.sim.governance import Governance
from devnet.sim.market import PoolSim, Swap, Token
from devnet.sim.prices import PricePaths
from devnet.sim import escrow_moves, vault_truth
from devnet.sim.liquidity import LiquidityBook
from devnet.sim.vaults import VaultBook
from devnet.sim.xcore import xcore_contracts
from devnet.synth import scaled_params

log = logging.getLogger("devnet")

LIQUIDITY_EVENT_PROB = {"v2-volatile": 0.03, "v2-stable": 0.03, "cl": 0.05}
MAX_SWAP_TVL_SHARE = 0.03
SIDE_EVERY_HOURS = 2  # a CL pool mints or burns its side position every this many hours
GOVERNANCE_STREAM = 785  # default_rng([seed, chain, 785, hour]): locks, epoch plans (votes, bribes, claims)


def diurnal(hour_ts: int) -> float:
    hod = (hour_ts % DAY) / HOUR
    f = 1.0 + 0.4 * math.sin(2 * math.pi * (hod - 9.0) / 24.0)
    dow = (hour_ts // DAY + 3) % 7  # 0 = Monday (1970-01-01 was a Thursday)
    return f * (0.8 if dow >= 5 else 1.0)


class ChainSim:
    def __init__(self, chain_id: int, seed: int, genesis_ts: int, history_days: float = 90,
                 scale: float = 1.0, clock=None, contracts: dict[str, str] | None = None,
                 params: ChainParams | None = None):
        if chain_id not in CHAIN_PARAMS and params is None:
            raise KeyError(f"no devnet parameters for chain {chain_id}")
        self.chain_id = chain_id
        self.seed = int(seed)
        self.genesis_ts = hour_start(int(genesis_ts))
        self.history_days = history_days
        self.scale = float(scale)
        self.params = params or CHAIN_PARAMS[chain_id]
        deployment = DEPLOYMENTS[chain_id]
        self.deployment = deployment
        self.block_time = deployment.block_time_seconds
        if HOUR % self.block_time:
            raise ValueError("block time must divide an hour")
        self.blocks_per_hour = HOUR // self.block_time
        self.genesis_block = self.params.genesis_block
        self.clock = clock or ManualClock(self.genesis_ts + int(history_days * DAY))
        self.contracts = dict(contracts or deployment.contracts)
        self.contracts.setdefault("multicall3", MULTICALL3)
        self.foundation_wallet = deployment.foundation_wallet or addresses.ZERO_ADDRESS
        self.generated_until = self.genesis_ts
        self._lock = threading.RLock()
        history_s = int(history_days * DAY)

        # tokens
        self.tokens: list[Token] = []
        for i, spec in enumerate(self.params.tokens):
            if spec.contract_key and spec.contract_key in self.contracts:
                addr = self.contracts[spec.contract_key]
            else:
                addr = self.label_address(f"token:{spec.symbol}")
            self.tokens.append(Token(i, spec, addr, addr.lower()))
        self.token_by_symbol = {t.symbol: t for t in self.tokens}
        # a bribe token with no price anywhere: no pool, no price path, priceUSD 0 in the subgraph
        sym, name, dec = self.params.unpriced_token
        addr = self.label_address(f"token:{sym}")
        self.unpriced = Token(len(self.tokens), TokenSpec(sym, name, dec, 0.0, 0.0, supply=1e9), addr, addr.lower())
        self.all_tokens = self.tokens + [self.unpriced]
        self.token_by_id = {t.id: t for t in self.all_tokens}
        self.core = self.token_by_symbol[self.params.core_symbol]
        self.native = self.token_by_symbol[self.params.wrapped_native]
        self.prices = PricePaths(self.params.tokens, self.genesis_ts)

        # pools (created at genesis or later in the history)
        self.pools: list[PoolSim] = []
        self._gauge_kill: dict[int, tuple[int | None, int | None]] = {}  # pool idx -> (kill, revive)
        for i, spec in enumerate(self.params.pools):
            a, b = self.token_by_symbol[spec.token_a], self.token_by_symbol[spec.token_b]
            t0, t1 = (a, b) if a.id < b.id else (b, a)
            created = self.genesis_ts
            if spec.created_frac > 0:
                created = hour_start(self.genesis_ts + int(spec.created_frac * history_s)) + 20 * 60
            addr = self.label_address(f"pool:{spec.label}")
            pool = PoolSim(i, spec, addr, t0, t1, created, self.block_at(created), self.prices)
            self.pools.append(pool)
            kill = revive = None
            if spec.gauge_killed_frac is not None:
                kill = hour_start(self.genesis_ts + int(spec.gauge_killed_frac * history_s)) + 30 * 60
            if kill is not None and spec.gauge_revived_frac is not None:
                revive = hour_start(self.genesis_ts + int(spec.gauge_revived_frac * history_s)) + 40 * 60
            self._gauge_kill[i] = (kill, revive)
        self.pool_by_id = {p.id: p for p in self.pools}
        self.gov = Governance(self)
        self.traders = [self.user("trader", i) for i in range(self.params.traders)]
        self.swaps: list[Swap] = []
        self.swap_ts: list[int] = []
        # period aggregates, time-ordered (the subgraph's hour/day entities)
        self.hour_rows: list[dict] = []
        self.day_rows: list[dict] = []
        self.token_hour_rows: list[dict] = []
        self.stats = {"swaps": 0, "liquidityEvents": 0, "hours": 0}
        # vaults draw from their own RNG stream, after the market's hour (see sim/vaults.py)
        self.vaults = VaultBook(self)
        # liquidity providers' positions, from their own stream too, after the vaults' hour (sim/liquidity.py)
        self.liquidity = LiquidityBook(self)
        # this chain's side of the cross-chain messages (sim/bridge.py): the devnet's shared book
        # gives it once every chain is built (server.build_state); None: no bridge
        self.bridge = None
        # this chain's xCORE (sim/xcore.py), a view of the devnet's book attached likewise; None: none here
        self.xcore = None

    # -- identities -----------------------------------------------------------------------------
    def label_address(self, label: str) -> str:
        return addresses.label_address(self.chain_id, label)

    def user(self, kind: str, index: int) -> str:
        return addresses.user_address(self.chain_id, kind, index)

    def tx_hash(self, block: int, index: int, domain: str = "tx") -> str:
        return addresses.tx_hash(self.chain_id, self.seed, block, index, domain)

    def block_hash(self, number: int) -> str:
        return addresses.block_hash(self.chain_id, self.seed, number)

    # -- time and blocks ------------------------------------------------------------------------
    def block_ts(self, number: int) -> int:
        return self.genesis_ts + (number - self.genesis_block) * self.block_time

    def block_at(self, ts: int) -> int:
        return self.genesis_block + (ts - self.genesis_ts) // self.block_time

    def now(self) -> int:
        return self.clock.now()

    def head(self) -> int:
        """Head block number (the block at the clock's now); generates data up to it."""
        now = self.now()
        self.sync(now)
        return self.block_at(now)

    def sync(self, now: int | None = None) -> None:
        now = self.now() if now is None else now
        target = hour_start(now)
        if self.generated_until <= target:
            with self._lock:
                while self.generated_until <= target:
                    self._run_hour(self.generated_until)
        if self.bridge is not None:
            self.bridge.sync(self.generated_until)
        if self.xcore is not None:
            self.xcore.sync(self.generated_until)

    def generate_history(self) -> float:
        """Generate everything up to the clock's now; returns the seconds it took."""
        t0 = time.perf_counter()
        self.sync()
        return time.perf_counter() - t0

    # -- generation -----------------------------------------------------------------------------
    def _run_hour(self, h: int) -> None:
        rng = np.random.default_rng([self.seed, self.chain_id, h // HOUR])
        # the governance draws from a stream of its own, so what voters and lockers do never moves the
        # market's draws (pools, swaps, liquidity)
        gov_rng = np.random.default_rng([self.seed, self.chain_id, GOVERNANCE_STREAM, h // HOUR])
        self.prices.extend_hour(h, rng)
        end = h + HOUR
        for pool in self.pools:
            if h <= pool.created_ts < end:
                pool.create(pool.created_ts)
                if pool.spec.gauge:
                    self.gov.add_gauge(pool, pool.created_ts, *self._gauge_kill[pool.idx])
        if h == self.genesis_ts:
            if self.params.system_gauge and any(p.spec.gauge for p in self.pools):
                self.gov.add_gauge(None, h, None)
            self.gov.deploy(h, gov_rng)
        if h == self.genesis_ts or h % WEEK == 0:
            self.gov.plan_epoch(h, gov_rng)
        live = [p for p in self.pools if p.created_ts < end]
        for pool in live:
            if pool.created_ts < h:
                pool.update_dynamic_fee(h)
        hour_swaps: list[Swap] = []
        token_vol = [0.0] * len(self.tokens)
        for pool, events in zip(live, self._draw_pool_events(live, h, rng)):
            vol, fees = self._run_pool_hour(pool, h, events, hour_swaps)
            token_vol[pool.token0.idx] += vol
            token_vol[pool.token1.idx] += vol
        for t in self.tokens:
            self.token_hour_rows.append({
                "id": f"{t.id}-{h // HOUR}",
                "periodStartUnix": h,
                "token": t.id,
                "priceUSD": self.prices.price(t.idx, end - self.block_time),
                "volumeUSD": token_vol[t.idx],
            })
        escrow_moves.run_hour(self.gov, h)
        self.gov.lock_activity(h, gov_rng)
        self.gov.run_scheduled(h)
        # blocks, log indexes and ids in chain order
        hour_swaps.sort(key=lambda s: (s.ts, s.pool.idx))
        last_block, index = -1, 0
        for sw in hour_swaps:
            block = self.block_at(sw.ts)
            index = index + 1 if block == last_block else 0
            last_block = block
            sw.block = block
            sw.log_index = index
            sw.id = f"{self.tx_hash(block, index)}#{index}"
            self.swaps.append(sw)
            self.swap_ts.append(sw.ts)
        self.stats["swaps"] += len(hour_swaps)
        self.stats["hours"] += 1
        self.vaults.run_hour(h)
        self.liquidity.run_hour(h)
        self.generated_until = end

    def _draw_pool_events(self, live: list[PoolSim], h: int, rng: np.random.Generator) -> list[list[tuple]]:
        """The hour's arrivals for every live pool, drawn in one batch (swaps and LP events)."""
        f = diurnal(h) * self.scale
        counts = rng.poisson(np.array([p.spec.swaps_per_hour * f for p in live])) if live else []
        total = int(sum(counts))
        offsets = rng.integers(0, self.blocks_per_hour, total).tolist()
        z = rng.standard_normal(total).tolist()
        u = rng.random(total).tolist()
        senders = rng.integers(0, len(self.traders), total).tolist()
        liq_u = rng.random((len(live), 4)).tolist()
        bt = self.block_time
        out, pos = [], 0
        for k, pool in enumerate(live):
            n = int(counts[k])
            spec = pool.spec
            mu = math.log(spec.median_swap_usd)
            cap = spec.tvl_usd * MAX_SWAP_TVL_SHARE
            events = [(h + offsets[i] * bt, 0, min(math.exp(mu + 1.1 * z[i]), cap), u[i], senders[i])
                      for i in range(pos, pos + n)]
            pos += n
            lu = liq_u[k]
            if lu[0] < LIQUIDITY_EVENT_PROB[pool.kind]:
                events.append((h + int(lu[1] * self.blocks_per_hour) * bt, 1, 0.0, lu[2], lu[3]))
            events.sort()
            out.append(events)
        return out

    def _run_pool_hour(self, pool: PoolSim, h: int, events: list[tuple], hour_swaps: list[Swap]
                       ) -> tuple[float, float]:
        """Apply one pool's events of the hour and close its hour row; returns (volume, fees) USD."""
        vol = fees = 0.0
        txc = 0
        if pool.is_cl and pool.created_ts < h and (h // HOUR + pool.idx) % SIDE_EVERY_HOURS == 0:
            txc += pool.toggle_side(h)  # tick tables change between snapshots, far from the price too
        for ts, kind, size, uu, extra in events:
            if ts < pool.created_ts or (ts == pool.created_ts and kind == 1):
                continue
            if kind == 0:
                sw = pool.swap(ts, size, uu, self.traders[extra])
                if sw is not None:
                    hour_swaps.append(sw)
                    vol += sw.amount_usd
                    fees += sw.fees_usd
                    txc += 1
            else:
                n_tx = pool.liquidity_event(ts, uu, extra)
                txc += n_tx
                self.stats["liquidityEvents"] += n_tx
        end = h + HOUR
        if h <= pool.created_ts < end:
            txc += 1  # the creation mint
        n_days = len(pool.days)
        pool.close_hour(h, end - self.block_time, vol, fees, txc)
        self.hour_rows.append(pool.hours[-1])
        if len(pool.days) != n_days:
            self.day_rows.append(pool.days[-1])
        return vol, fees

    # -- reads -----------------------------------------------------------------------------------
    def token_price(self, token: Token, ts: int) -> float | None:
        """A token's USD price at ts; None for the token without a price."""
        return None if token is self.unpriced else self.prices.price(token.idx, ts)

    def price(self, token: Token | str, ts: int) -> float:
        if isinstance(token, str):
            token = self.token_by_symbol.get(token) or self.token_by_id[token.lower()]
        return self.prices.price(token.idx, ts)

    def pool(self, key: str) -> PoolSim:
        key = key.lower()
        if key in self.pool_by_id:
            return self.pool_by_id[key]
        for p in self.pools:
            if p.spec.label.lower() == key:
                return p
        raise KeyError(key)

    def pools_at(self, ts: int) -> list[PoolSim]:
        return [p for p in self.pools if p.created_ts <= ts]

    def swaps_between(self, start: int, end: int, pool: str | None = None) -> list[Swap]:
        """Swaps with start <= ts < end (and ts <= head), optionally for one pool."""
        head_ts = self.block_ts(self.head())
        end = min(end, head_ts + 1)
        i, j = bisect_left(self.swap_ts, start), bisect_left(self.swap_ts, end)
        out = self.swaps[i:j]
        if pool:
            pid = pool.lower()
            out = [s for s in out if s.pool.id == pid]
        return out

    def flows(self, start: int, end: int, pool: str | None = None) -> dict:
        """Ground truth: exact totals over swaps with start <= ts < end, from the event list."""
        swaps = self.swaps_between(start, end, pool)
        head_ts = self.block_ts(self.head())
        tx = 0  # every pool event is a transaction: creation mint, swaps, mints and burns
        for p in self.pools:
            if pool and p.id != pool.lower():
                continue
            tx += bisect_left(p.ev_ts, min(end, head_ts + 1)) - bisect_left(p.ev_ts, start)
        return {
            "from": start,
            "to": end,
            "pool": pool.lower() if pool else None,
            "volumeUsd": math.fsum(s.amount_usd for s in swaps),
            "feesUsd": math.fsum(s.fees_usd for s in swaps),
            "swapCount": len(swaps),
            "txCount": tx,
        }

    def state_at_block(self, block: int | None = None) -> dict:
        """Ground truth: protocol state at a block, straight from the model."""
        head = self.head()
        block = head if block is None else block
        if block > head:
            raise ValueError(f"block {block} is above the head {head}")
        ts = self.block_ts(block)
        pools = {}
        tvl_v2, tvl_cl = [], []
        for p in self.pools_at(ts):
            st = p.state_at(ts)
            tvl = p.tvl_usd(st, ts)
            (tvl_cl if p.is_cl else tvl_v2).append(tvl)
            pools[p.id] = {
                "label": p.spec.label,
                "type": p.kind,
                "tvlUsd": tvl,
                "reserve0": str(st.reserve0),
                "reserve1": str(st.reserve1),
                # concentrated liquidity: the pool's slot0 price and tick and its active liquidity
                "sqrtPriceX96": str(st.sqrt_price) if p.is_cl else None,
                "tick": st.tick if p.is_cl else None,
                "liquidity": str(st.liquidity) if p.is_cl else None,
                "volumeUsd": st.volume_usd,
                "feesUsd": st.fees_usd,
                "txCount": st.tx_count,
                "fee": st.fee,
            }
        supply, power, permanent = self.gov.ve_totals(ts)
        alive = [g for g in self.gov.gauges if g.alive_at(ts)]
        return {
            "chainId": self.chain_id,
            "block": block,
            "timestamp": ts,
            "epoch": epoch_start(ts),
            "tvlUsd": math.fsum(tvl_v2 + tvl_cl),
            "tvlV2Usd": math.fsum(tvl_v2),
            "tvlClUsd": math.fsum(tvl_cl),
            "pools": pools,
            "tokens": {t.id: {"symbol": t.symbol, "priceUsd": self.price(t, ts)} for t in self.tokens},
            "corePriceUsd": self.price(self.core, ts),
            "nativePriceUsd": self.price(self.native, ts),
            "activeGaugeCount": len(alive),
            "gaugeCount": len([g for g in self.gov.gauges if g.exists_at(ts)]),
            "weeklyEmissions": str(self.gov.weekly_at(ts)),
            "epochCount": self.gov.epoch_count(ts),
            "veSupply": str(supply),
            "veVotingPower": str(power),
            "vePermanentLocked": str(permanent),
            "veNftCount": sum(1 for lk in self.gov.locks if lk.created_ts <= ts),
            **self.ve_lock_stats(ts),
            "totalVoteWeight": str(self.gov.total_weight(ts)),
            "coreTotalSupply": str(self.core_total_supply(ts)),
        }

    def core_total_supply(self, ts: int) -> int:
        """The initial supply, the minter's weekly emissions and the rebases it minted (sim/rebases.py)."""
        initial = int(self.core.spec.supply) * self.core.unit
        return initial + self.gov.emitted_until(ts) + self.gov.rebases.minted_until(ts)

    def bribe_totals(self, epoch: int | None = None) -> list[dict] | dict:
        head_ts = self.block_ts(self.head())
        groups: dict[int, list[dict]] = {}
        for b in self.gov.bribes:
            if b["timestamp"] > head_ts:
                break
            groups.setdefault(b["epoch"], []).append(b)

        def usd(values: list) -> float | None:  # null when a deposit has no USD value
            return None if None in values else math.fsum(values)

        def summary(e: int) -> dict:
            rows = groups.get(e, [])
            found = [r["amountUSD"] for r in rows if r["isFoundation"]]
            per_pool: dict[str, list[float]] = {}
            for r in rows:
                per_pool.setdefault(r["target"], []).append(r["amountUSD"])
            return {
                "epoch": e,
                "count": len(rows),
                "totalUsd": usd([r["amountUSD"] for r in rows]),
                "pricedUsd": math.fsum(r["amountUSD"] for r in rows if r["amountUSD"] is not None),
                "unpricedCount": sum(1 for r in rows if r["amountUSD"] is None),
                "foundationCount": len(found),
                "foundationUsd": usd(found),
                "pools": {pid: {"count": len(v), "totalUsd": usd(v)} for pid, v in sorted(per_pool.items())},
            }

        if epoch is not None:
            return summary(epoch_start(epoch))
        return [summary(e) for e in sorted(groups)]

    def vote_totals(self, epoch: int, block: int | None = None) -> dict:
        """Ground truth: the epoch's Vote rows visible at a block (default the head; the
        allocations set or carried for the epoch, sim/votebook.py), per target (pool, or the system
        gauge's target) and in total (raw 1e18 strings), and the foundation veNFTs' share."""
        head = self.head()
        block = head if block is None else block
        if block > head:
            raise ValueError(f"block {block} is above the head {head}")
        ts = self.block_ts(block)
        epoch = epoch_start(epoch)
        foundation = set(self.gov.foundation_ids)
        per_pool: dict[str, int] = {}
        total = found = count = 0
        for v in self.gov.votes_of_epoch(epoch, ts):
            per_pool[v["target"]] = per_pool.get(v["target"], 0) + v["weight"]
            total += v["weight"]
            count += 1
            if int(v["veNFT"]) in foundation:
                found += v["weight"]
        return {
            "epoch": epoch,
            "block": block,
            "count": count,
            "totalWeight": str(total),
            "foundationWeight": str(found),
            "pools": {pid: str(w) for pid, w in sorted(per_pool.items())},
        }

    def ve_lock_stats(self, ts: int) -> dict:
        """Ground truth: lock counts by kind and the mean remaining time of decaying locks at ts."""
        permanent = decaying = expired = 0
        remaining = []
        for lock in self.gov.locks:
            if lock.created_ts > ts:
                break
            amount, end, perm, _owner = lock.state_at(ts)
            if amount <= 0:
                continue
            if perm:
                permanent += 1
            elif end > ts:
                decaying += 1
                remaining.append(end - ts)
            else:
                expired += 1
        return {
            "veLockCount": permanent + decaying + expired,
            "vePermanentLockCount": permanent,
            "veDecayingLockCount": decaying,
            "veExpiredLockCount": expired,
            "veAverageRemainingLockSeconds": (math.fsum(remaining) / len(remaining)) if remaining else None,
        }

    def vault_book_entries(self) -> list[dict]:
        """The chain's vaults as the product's vault book lists them: key, address, kind."""
        return [{"key": v.key, "address": v.address, "kind": v.kind} for v in self.vaults.vaults]

    def features(self) -> dict[str, bool]:
        """What the chain has (the chain book's `features`): pool kinds, gauges, ve, bribes, vaults."""
        kinds = {p.kind for p in self.pools}
        gauges = any(p.spec.gauge for p in self.pools)
        return {
            "pools": bool(self.pools),
            "v2Pools": bool(kinds & {"v2-volatile", "v2-stable"}),
            "stablePools": "v2-stable" in kinds,
            "clPools": "cl" in kinds,
            "clTicks": "cl" in kinds,
            "gauges": gauges,
            "gaugePools": gauges,  # the Voter answers poolForGauge for every gauge
            "votingEscrow": "votingEscrow" in self.contracts,
            "bribes": gauges,
            "vaults": bool(self.vaults.vaults),
            "bridge": self.bridge is not None,
            "xcore": self.xcore is not None,
            "liquidityPositions": True,  # every chain's book names its LpSugar (rpc/liquidity.py)
            # the RewardsDistributor's rebases (sim/rebases.py); /book lists it only when asked (deployments.chain_book)
            "rebases": "rewardsDistributor" in self.contracts and "votingEscrow" in self.contracts,
        }

    def book_facts(self) -> dict:
        """The simulation's part of the chain book entry (see deployments.chain_book)."""
        return {"vaults": self.vault_book_entries(), "features": self.features(),
                "deployedAt": iso(self.genesis_ts), "startBlock": self.genesis_block,
                "xcoreContracts": xcore_contracts(self.chain_id) if self.xcore is not None else {}}

    def deployment_info(self) -> dict:
        head = self.head()
        return {
            "chainId": self.chain_id,
            "name": self.deployment.name,
            "seed": self.seed,
            "scale": self.scale,
            "genesis": {"timestamp": self.genesis_ts, "block": self.genesis_block},
            "historyDays": self.history_days,
            "blockTime": self.block_time,
            "head": {"number": head, "timestamp": self.block_ts(head)},
            "contracts": self.contracts,
            "foundation": {"wallet": self.foundation_wallet, "veNftIds": list(self.gov.foundation_ids)},
            "tokens": [{"address": t.address, "symbol": t.symbol, "name": t.spec.name,
                        "decimals": t.decimals} for t in self.tokens],
            "pools": [{
                "address": p.address, "label": p.spec.label, "type": p.kind,
                "token0": p.token0.address, "token1": p.token1.address,
                "tickSpacing": p.tick_spacing, "isDynamicFee": p.is_dynamic, "isCustomFee": p.is_custom,
                "gauge": p.gauge.address if p.gauge else None,
                "createdAtTimestamp": p.created_ts, "createdAtBlock": p.created_block,
            } for p in self.pools],
            "gauges": [{
                "address": g.address, "kind": g.kind, "target": g.target_address,
                "pool": g.pool.address if g.pool is not None else None, "createdAtTimestamp": g.created_ts,
                "createdAtBlock": g.created_block, "killedAtTimestamp": g.killed_ts, "revivedAtTimestamp": g.revived_ts,
            } for g in self.gov.gauges],
            "unpricedTokens": [{"address": u.address, "symbol": u.symbol, "name": u.spec.name, "decimals": u.decimals}
                               for u in (self.unpriced,)],
            "vaultContracts": self.vaults.contracts,
            "xcoreContracts": xcore_contracts(self.chain_id) if self.xcore is not None else {},
            "vaults": [{
                "key": v.key, "address": v.address, "kind": v.kind, "strategy": v.strategy,
                "pool": v.pool.address, "createdAtTimestamp": v.created_ts, "createdAtBlock": v.created_block,
            } for v in self.vaults.vaults],
        }

    def counts(self) -> dict:
        return {
            "swaps": len(self.swaps),
            "liquidityEvents": self.stats["liquidityEvents"],
            "bribes": len(self.gov.bribes),
            "locks": len(self.gov.locks),
            "votes": len(self.gov.votes),
            "claims": len(self.gov.claims),
            "hours": self.stats["hours"],
        }

    def fingerprint(self) -> str:
        """Digest of every generated event (for determinism checks)."""
        h = hashlib.sha256()
        for s in self.swaps:
            h.update(f"{s.id}|{s.ts}|{s.pool.id}|{s.amount0}|{s.amount1}|{s.amount_usd!r}\n".encode())
        for rows in (self.gov.bribes, self.gov.votes, self.gov.claims):
            for r in rows:
                h.update(repr(sorted(r.items())).encode())
        for lk in self.gov.locks:
            h.update(repr((lk.token_id, lk.hist_ts, lk.hist)).encode())
        for r in self.gov.book.events:
            h.update(repr(sorted(r.items())).encode())
        for rows in (self.gov.rebases.checkpoints, self.gov.rebases.claims):
            for r in rows:
                h.update(repr(sorted(r.items())).encode())
        return h.hexdigest()

    def vault_fingerprint(self) -> str:
        """Digest of every vault event and hour row (kept apart from `fingerprint`, whose value
        predates the vaults)."""
        h = hashlib.sha256()
        for r in self.vaults.fingerprint_rows():
            h.update(repr(sorted(r.items())).encode())
        for r in self.vaults.hour_rows:
            h.update(repr(sorted(r.items())).encode())
        return h.hexdigest()

    def vault_truth(self, block: int | None = None) -> dict:
        ts, block = self._truth_ts(block)
        return {"chainId": self.chain_id, "block": block, "timestamp": ts,
                "globalPause": self.vaults.global_paused(ts), "vaults": vault_truth.vaults(self.vaults, ts)}

    def vault_positions(self, user: str, block: int | None = None) -> dict:
        ts, block = self._truth_ts(block)
        return {"chainId": self.chain_id, "block": block, "timestamp": ts, "user": user.lower(),
                "positions": vault_truth.positions(self.vaults, user, ts)}

    def vault_users(self, block: int | None = None) -> dict:
        ts, block = self._truth_ts(block)
        return {"chainId": self.chain_id, "block": block, "timestamp": ts, "users": vault_truth.users(self.vaults, ts)}

    def vault_events(self, vault: str, block: int | None = None) -> dict:
        """Ground truth: one vault's events up to the block (sim/vault_truth.py). LookupError: an
        unknown vault or one not created yet; ValueError: a block above the head."""
        ts, block = self._truth_ts(block)
        return {"chainId": self.chain_id, "block": block, "timestamp": ts,
                **vault_truth.events(self.vaults, vault, ts)}

    def ticks_truth(self, pool: str, block: int | None = None) -> dict:
        """Ground truth: a CL pool's initialized ticks at a block, with the state slot0() and
        liquidity() answer there (big integers as decimal strings). LookupError: an unknown or v2
        pool, or one not created yet at the block; ValueError: a block above the head."""
        ts, block = self._truth_ts(block)
        p = self.pool_by_id.get(pool.lower())
        if p is None or not p.is_cl:
            raise LookupError(f"{pool.lower()} is not a CL pool of chain {self.chain_id}")
        st = p.state_at(ts)
        if st is None:
            raise LookupError(f"pool {p.id} does not exist at block {block}")
        return {"pool": p.id, "block": block, "timestamp": ts, "tick": st.tick,
                "sqrtPriceX96": str(st.sqrt_price), "liquidity": str(st.liquidity),
                "ticks": [{"tick": t, "liquidityNet": str(net), "liquidityGross": str(gross)}
                          for t, net, gross in p.ticks_at(ts)]}

    def _truth_ts(self, block: int | None) -> tuple[int, int]:
        head = self.head()
        block = head if block is None else block
        if block > head:
            raise ValueError(f"block {block} is above the head {head}")
        return self.block_ts(block), block


def build_chain(chain_id: int = 56, seed: int = 56, genesis_ts: int | None = None,
                history_days: float | None = None, scale: float = 1.0, clock=None, now: int | None = None,
                contracts: dict[str, str] | None = None, generate: bool = True, pools: int | None = None,
                tokens: int | None = None) -> ChainSim:
    """Build a chain simulation and generate its history up to the clock's now.

    `history_days` overrides the chain's default length (`params.history_days_for`). Without
    `genesis_ts`, genesis is floor_to_hour(now) - history. Without `clock`, a manual clock at
    `now` (default: genesis + history) is used, so a build is reproducible. `pools`/`tokens`
    grow the chain's tables (devnet/synth.py).
    """
    params = scaled_params(CHAIN_PARAMS[chain_id], pools, tokens)
    history_days = history_days_for(params, history_days)
    if clock is None:
        if now is None:
            now = (genesis_ts + int(history_days * DAY)) if genesis_ts is not None else int(time.time())
        clock = ManualClock(now)
    if genesis_ts is None:
        genesis_ts = hour_start(clock.now()) - int(history_days * DAY)
    sim = ChainSim(chain_id, seed, genesis_ts, history_days, scale, clock, contracts, params=params)
    if generate:
        sim.generate_history()
    return sim


__all__ = ["ChainSim", "build_chain", "ManualClock", "WallClock"]
