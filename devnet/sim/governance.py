"""Governance: vote escrow (veNFT locks), voter (gauges, votes), minter (emissions), bribes
and claims. Everything is keyed to Thursday epochs (core.epochs).

At each epoch start the epoch is planned from that hour's RNG: who votes when and for which
pools, the bribe deposits, the claims of the previous epoch's rewards and the emission split.
Planned events are executed in their hour, valued at the prices of their own timestamp.
"""
from __future__ import annotations

import math
from bisect import bisect_right
from dataclasses import dataclass, field
from decimal import Decimal

import numpy as np

from devnet.timeutil import HOUR, WEEK, epoch_start
from devnet.addresses import ZERO_ADDRESS

MAXTIME = 4 * 365 * 86400
E18 = 10**18


def to_raw(human: float, decimals: int = 18) -> int:
    """Exact raw amount of a human amount written in the parameters (no float noise)."""
    return int(Decimal(repr(float(human))) * 10**decimals)


def voting_power(amount: int, end: int, permanent: bool, ts: int) -> int:
    """Voting power of a lock at ts: amount if permanent, else amount*(end-ts)/MAXTIME (>= 0)."""
    if permanent:
        return amount
    if end <= ts:
        return 0
    return amount * (end - ts) // MAXTIME


def round_unlock(ts: int) -> int:
    return ts // WEEK * WEEK


class Lock:
    __slots__ = ("token_id", "created_ts", "created_block", "hist_ts", "hist", "foundation")

    def __init__(self, token_id: int, ts: int, block: int, state: tuple, foundation: bool):
        self.token_id = token_id
        self.created_ts = ts
        self.created_block = block
        self.hist_ts = [ts]
        self.hist = [state]  # (amount raw, end, permanent, owner)
        self.foundation = foundation

    def state_at(self, ts: int) -> tuple | None:
        i = bisect_right(self.hist_ts, ts) - 1
        return self.hist[i] if i >= 0 else None

    @property
    def current(self) -> tuple:
        return self.hist[-1]

    def update(self, ts: int, state: tuple) -> None:
        if self.hist_ts[-1] == ts:
            self.hist[-1] = state
        else:
            self.hist_ts.append(ts)
            self.hist.append(state)


@dataclass(eq=False)
class Gauge:
    address: str
    id: str
    pool: object  # PoolSim
    created_ts: int
    fees_reward: str
    bribe_reward: str
    killed_ts: int | None = None
    index: int = 0  # position in Voter.pools

    def exists_at(self, ts: int) -> bool:
        return ts >= self.created_ts

    def alive_at(self, ts: int) -> bool:
        return self.created_ts <= ts and (self.killed_ts is None or ts < self.killed_ts)


@dataclass
class EpochVotes:
    """Votes cast in one epoch, with running totals for time-travel reads."""

    ts: list[int] = field(default_factory=list)
    cum_total: list[int] = field(default_factory=list)
    pool_ts: dict[str, list[int]] = field(default_factory=dict)
    pool_cum: dict[str, list[int]] = field(default_factory=dict)
    by_token: dict[int, dict[str, int]] = field(default_factory=dict)  # token -> pool -> weight

    def total_at(self, ts: int) -> int:
        i = bisect_right(self.ts, ts) - 1
        return self.cum_total[i] if i >= 0 else 0

    def pool_at(self, pool_id: str, ts: int) -> int:
        times = self.pool_ts.get(pool_id)
        if not times:
            return 0
        i = bisect_right(times, ts) - 1
        return self.pool_cum[pool_id][i] if i >= 0 else 0

    def pool_totals(self) -> dict[str, int]:
        return {p: c[-1] for p, c in self.pool_cum.items()}


class Governance:
    def __init__(self, chain):
        self.chain = chain
        p = chain.params
        self.params = p
        self.locks: list[Lock] = []
        self.owner_tokens: dict[str, list[int]] = {}
        self.gauges: list[Gauge] = []
        self.gauge_by_pool: dict[str, Gauge] = {}
        self.gauge_by_id: dict[str, Gauge] = {}
        self.votes: list[dict] = []
        self.bribes: list[dict] = []
        self.claims: list[dict] = []
        self.epoch_votes: dict[int, EpochVotes] = {}
        self.token_votes: dict[int, list[tuple]] = {}  # token -> [(ts, epoch)]
        self.weekly: dict[int, int] = {}  # epoch -> emissions raw
        self.gauge_emissions: dict[int, dict[str, int]] = {}  # epoch -> pool id -> raw
        self.first_epoch = epoch_start(chain.genesis_ts)
        self.bribe_totals: dict[int, dict[str, dict[int, int]]] = {}  # epoch -> pool -> token idx -> raw
        self.foundation_flows: dict[int, tuple[list[int], list[int]]] = {}  # token idx -> (ts, cum)
        self.foundation_ids: list[int] = []
        self._schedule: list[tuple] = []
        self._pending: list[tuple] = []
        self._sched_pos = 0
        self._seq = 0
        self._ve_cache: dict[int, tuple[int, int, int]] = {}
        self.voters = [chain.user("voter", i) for i in range(p.voters)]

    # ------------------------------------------------------------------------------------------
    # vote-escrow reads
    def lock(self, token_id: int) -> Lock | None:
        if 1 <= token_id <= len(self.locks):
            return self.locks[token_id - 1]
        return None

    def lock_state(self, token_id: int, ts: int) -> tuple | None:
        lock = self.lock(token_id)
        return lock.state_at(ts) if lock else None

    def balance_of_nft(self, token_id: int, ts: int) -> int:
        st = self.lock_state(token_id, ts)
        if st is None:
            return 0
        return voting_power(st[0], st[1], st[2], ts)

    def ve_totals(self, ts: int) -> tuple[int, int, int]:
        """(supply = total locked raw, total voting power raw, permanent lock balance raw) at ts."""
        hit = self._ve_cache.get(ts)
        if hit is not None and ts < self.chain.generated_until:
            return hit
        supply = power = permanent = 0
        for lock in self.locks:
            if lock.created_ts > ts:
                break
            amount, end, perm, _owner = lock.state_at(ts)
            supply += amount
            if perm:
                permanent += amount
                power += amount
            elif end > ts:
                power += amount * (end - ts) // MAXTIME
        out = (supply, power, permanent)
        if len(self._ve_cache) > 4096:
            self._ve_cache.clear()
        self._ve_cache[ts] = out
        return out

    def tokens_of_owner(self, owner: str, ts: int) -> list[int]:
        out = []
        for tid in self.owner_tokens.get(owner.lower(), ()):
            st = self.lock_state(tid, ts)
            if st is not None and st[3] == owner.lower():
                out.append(tid)
        return out

    # voter reads
    def gauges_at(self, ts: int) -> list[Gauge]:
        return [g for g in self.gauges if g.created_ts <= ts]

    def total_weight(self, ts: int) -> int:
        ev = self.epoch_votes.get(epoch_start(ts))
        return ev.total_at(ts) if ev else 0

    def pool_weight(self, pool_id: str, ts: int) -> int:
        ev = self.epoch_votes.get(epoch_start(ts))
        return ev.pool_at(pool_id, ts) if ev else 0

    def token_pool_votes(self, token_id: int, pool_id: str, ts: int) -> int:
        hist = self.token_votes.get(token_id)
        if not hist:
            return 0
        i = bisect_right(hist, (ts, math.inf)) - 1
        if i < 0 or hist[i][1] != epoch_start(ts):
            return 0
        return hist[i][2].get(pool_id, 0)

    def last_voted(self, token_id: int, ts: int) -> int:
        hist = self.token_votes.get(token_id)
        if not hist:
            return 0
        i = bisect_right(hist, (ts, math.inf)) - 1
        return hist[i][0] if i >= 0 else 0

    # minter reads
    def weekly_at(self, ts: int) -> int:
        return self.weekly.get(max(epoch_start(ts), self.first_epoch), 0)

    def epoch_count(self, ts: int) -> int:
        if ts < self.chain.genesis_ts:
            return 0
        return (epoch_start(ts) - self.first_epoch) // WEEK

    def emitted_until(self, ts: int) -> int:
        """Core tokens minted by the minter up to ts (each epoch's weekly at its flip)."""
        return sum(v for e, v in self.weekly.items() if e <= ts)

    def gauge_reward_rate(self, gauge: Gauge, ts: int) -> int:
        if not gauge.alive_at(ts):
            return 0
        return self.gauge_emissions.get(epoch_start(ts), {}).get(gauge.pool.id, 0) // WEEK

    def foundation_balance_delta(self, token_idx: int, ts: int) -> int:
        flows = self.foundation_flows.get(token_idx)
        if not flows:
            return 0
        i = bisect_right(flows[0], ts) - 1
        return flows[1][i] if i >= 0 else 0

    # ------------------------------------------------------------------------------------------
    # generation
    def _flow(self, token_idx: int, ts: int, delta: int) -> None:
        times, cum = self.foundation_flows.setdefault(token_idx, ([], []))
        times.append(ts)
        cum.append((cum[-1] if cum else 0) + delta)

    def add_gauge(self, pool, ts: int, killed_ts: int | None) -> Gauge:
        c = self.chain
        g = Gauge(address=c.label_address(f"gauge:{pool.spec.label}"), id="", pool=pool, created_ts=ts,
                  fees_reward=c.label_address(f"feesVotingReward:{pool.spec.label}"),
                  bribe_reward=c.label_address(f"bribeVotingReward:{pool.spec.label}"),
                  killed_ts=killed_ts, index=len(self.gauges))
        g.id = g.address.lower()
        self.gauges.append(g)
        self.gauge_by_pool[pool.id] = g
        self.gauge_by_id[g.id] = g
        pool.gauge = g
        return g

    def _new_lock(self, ts: int, owner: str, amount: int, end: int, perm: bool, foundation=False) -> Lock:
        tid = len(self.locks) + 1
        lock = Lock(tid, ts, self.chain.block_at(ts), (amount, 0 if perm else end, perm, owner), foundation)
        self.locks.append(lock)
        self.owner_tokens.setdefault(owner, []).append(tid)
        return lock

    def _lock_amount(self, rng: np.random.Generator) -> int:
        human = math.exp(rng.normal(math.log(self.params.lock_median), 1.4))
        return int(min(human, 5_000_000.0) * E18)

    def _lock_end(self, ts: int, rng: np.random.Generator) -> tuple[int, bool]:
        if rng.random() < self.params.permanent_share:
            return 0, True
        if rng.random() < 0.5:
            dur = MAXTIME
        else:
            dur = int(rng.uniform(WEEK, MAXTIME))
        end = round_unlock(ts + dur)
        if end <= ts:
            end += WEEK
        return end, False

    def deploy(self, ts: int, rng: np.random.Generator) -> None:
        """Genesis: the foundation's veNFTs then the pre-existing lockers."""
        c = self.chain
        wallet = c.foundation_wallet.lower()
        for amount, perm, years in self.params.foundation_locks:
            end = 0 if perm else round_unlock(ts + int(years * 365 * 86400))
            lock = self._new_lock(ts, wallet, to_raw(amount), end, perm, foundation=True)
            self.foundation_ids.append(lock.token_id)
        for _ in range(self.params.initial_locks):
            t = ts
            owner = self.voters[int(len(self.voters) * rng.random() ** 2)]
            end, perm = self._lock_end(t, rng)
            self._new_lock(t, owner, self._lock_amount(rng), end, perm)

    def lock_activity(self, hour_ts: int, rng: np.random.Generator) -> None:
        p, c = self.params, self.chain
        scale = c.scale
        counts = rng.poisson(np.array([p.locks_per_hour, p.lock_increase_per_hour, p.lock_extend_per_hour,
                                       p.lock_permanent_per_hour, p.withdraw_per_hour]) * scale)
        events = []
        for kind, n in enumerate(counts):
            for _ in range(int(n)):
                events.append((hour_ts + int(rng.integers(0, c.blocks_per_hour)) * c.block_time, kind,
                               float(rng.random()), float(rng.random())))
        events.sort()
        for ts, kind, u, v in events:
            if kind == 0:
                owner = self.voters[int(len(self.voters) * u ** 2)]
                end, perm = self._lock_end(ts, rng)
                self._new_lock(ts, owner, self._lock_amount(rng), end, perm)
                continue
            candidates = len(self.locks) - len(self.foundation_ids)
            if candidates <= 0:
                continue
            lock = self.locks[len(self.foundation_ids) + int(u * candidates)]
            if lock.created_ts > ts:
                continue
            amount, end, perm, owner = lock.current
            live = perm or end > ts
            if kind == 1 and live and amount > 0:
                lock.update(ts, (amount + self._lock_amount(rng) // 2, end, perm, owner))
            elif kind == 2 and live and not perm:
                new_end = round_unlock(ts + MAXTIME)
                if new_end > end:
                    lock.update(ts, (amount, new_end, perm, owner))
            elif kind == 3 and live and not perm and amount > 0:
                lock.update(ts, (amount, 0, True, owner))
            elif kind == 4 and not perm and end <= ts and amount > 0:
                lock.update(ts, (0, 0, False, ZERO_ADDRESS))

    # -- epochs ----------------------------------------------------------------------------------
    def _schedule_add(self, ts: int, kind: str, payload) -> None:
        self._seq += 1
        self._pending.append((ts, self._seq, kind, payload))

    def plan_epoch(self, hour_ts: int, rng: np.random.Generator) -> None:
        """Called at the genesis hour and at every epoch start."""
        c, p = self.chain, self.params
        epoch = epoch_start(hour_ts)
        end = epoch + WEEK
        self._pending: list[tuple] = []
        # emissions for this epoch, split by the previous epoch's votes
        if epoch not in self.weekly:
            prev = self.weekly.get(epoch - WEEK)
            self.weekly[epoch] = to_raw(p.initial_weekly) if prev is None else prev * p.weekly_decay_bps // 10_000
            alive = [g for g in self.gauges if g.alive_at(hour_ts)]
            prev_votes = self.epoch_votes.get(epoch - WEEK)
            weights = prev_votes.pool_totals() if prev_votes else {}
            total = sum(weights.get(g.pool.id, 0) for g in alive)
            split: dict[str, int] = {}
            for g in alive:
                if total > 0:
                    split[g.pool.id] = self.weekly[epoch] * weights.get(g.pool.id, 0) // total
                elif alive:
                    split[g.pool.id] = self.weekly[epoch] // len(alive)
            self.gauge_emissions[epoch] = split
        alive = [g for g in self.gauges if g.alive_at(hour_ts)]
        if not alive:
            self._merge_pending()
            return
        pop = np.array([g.pool.spec.vote_popularity for g in alive])
        pop = pop / pop.sum()
        bt = c.block_time

        def at(offset: float) -> int:
            t = epoch + int(offset) // bt * bt
            return min(max(t, hour_ts + bt), end - HOUR)

        # foundation: bribes on a few gauges, then its veNFTs vote for them
        lo, hi = p.foundation_bribes_per_epoch
        nf = min(len(alive), int(rng.integers(lo, hi + 1)))
        core_bias = np.array([3.0 if p.core_symbol in (g.pool.token0.symbol, g.pool.token1.symbol) else 1.0
                              for g in alive]) * pop
        chosen = rng.choice(len(alive), size=nf, replace=False, p=core_bias / core_bias.sum())
        ftokens = [c.token_by_symbol[s] for s in p.foundation_bribe_tokens]
        for j in chosen:
            usd = float(rng.uniform(*p.foundation_bribe_usd))
            tok = ftokens[int(rng.integers(0, len(ftokens)))]
            self._schedule_add(at(2 * HOUR + rng.uniform(0, 28 * HOUR)), "bribe",
                               (alive[j], tok, usd, c.foundation_wallet.lower(), True))
        fweights = rng.random(nf) + 0.5
        for tid in self.foundation_ids:
            self._schedule_add(at(36 * HOUR + rng.uniform(0, 3 * HOUR)), "vote",
                               (tid, [alive[j] for j in chosen], [float(w) for w in fweights]))
        # third-party bribes
        for g in alive:
            n = int(rng.poisson(g.pool.spec.bribe_rate * c.scale))
            for _ in range(n):
                pool = g.pool
                choices = [c.token_by_symbol[p.core_symbol], pool.token0, pool.token1,
                           c.token_by_symbol.get("USDT", pool.token1)]
                tok = choices[int(rng.integers(0, len(choices)))]
                usd = math.exp(rng.normal(math.log(p.bribe_median_usd), 1.0))
                sender = self.voters[int(rng.integers(0, len(self.voters)))]
                self._schedule_add(at(HOUR + rng.uniform(0, 5.5 * 86400)), "bribe", (g, tok, usd, sender, False))
        # votes of everyone else
        for lock in self.locks:
            if lock.foundation or lock.created_ts > hour_ts:
                continue
            amount, lend, perm, owner = lock.current
            if amount == 0 or not (perm or lend > hour_ts):
                continue
            if rng.random() >= p.vote_probability:
                continue
            k = min(len(alive), 1 + int(rng.integers(0, 3)))
            picks = rng.choice(len(alive), size=k, replace=False, p=pop)
            weights = rng.random(k) + 0.2
            offset = min(rng.exponential(1.5 * 86400), 6.4 * 86400) + HOUR
            self._schedule_add(at(offset), "vote",
                               (lock.token_id, [alive[j] for j in picks], [float(w) for w in weights]))
        # claims of the previous epoch's rewards (bribes and fees) by its voters
        prev = epoch - WEEK
        prev_votes = self.epoch_votes.get(prev)
        if prev_votes:
            totals = prev_votes.pool_totals()
            for tid, per_pool in sorted(prev_votes.by_token.items()):
                lock = self.lock(tid)
                if not (lock.foundation or rng.random() < p.claim_probability):
                    continue
                rewards = []
                for pool_id, w in per_pool.items():
                    W = totals.get(pool_id, 0)
                    if W <= 0 or w <= 0:
                        continue
                    g = self.gauge_by_pool[pool_id]
                    for tok_idx, raw in sorted(self.bribe_totals.get(prev, {}).get(pool_id, {}).items()):
                        amt = raw * w // W
                        if amt > 0:
                            rewards.append((g, c.tokens[tok_idx], amt, "bribe"))
                    f0, f1 = g.pool.epoch_fees.get(prev, (0, 0))
                    for tok, raw in ((g.pool.token0, f0), (g.pool.token1, f1)):
                        amt = raw * w // W
                        if amt > 0:
                            rewards.append((g, tok, amt, "fee"))
                if rewards:
                    delay = 3 * HOUR + rng.uniform(0, 6 * 86400) if not lock.foundation else 40 * HOUR
                    self._schedule_add(at(delay), "claim", (tid, prev, rewards))
        self._merge_pending()

    def _merge_pending(self) -> None:
        rest = self._schedule[self._sched_pos:]
        rest.extend(self._pending)
        rest.sort(key=lambda e: (e[0], e[1]))
        self._schedule = rest
        self._sched_pos = 0
        self._pending = []

    def run_scheduled(self, hour_ts: int) -> None:
        """Execute the planned events whose time falls in [hour_ts, hour_ts + 1h)."""
        c = self.chain
        end = hour_ts + HOUR
        sched = self._schedule
        log = 0
        while self._sched_pos < len(sched) and sched[self._sched_pos][0] < end:
            ts, _seq, kind, payload = sched[self._sched_pos]
            self._sched_pos += 1
            block = c.block_at(ts)
            txh = c.tx_hash(block, self._seq + self._sched_pos, "gov")
            if kind == "vote":
                self._do_vote(ts, *payload)
            elif kind == "bribe":
                self._do_bribe(ts, block, txh, log, *payload)
                log += 1
            elif kind == "claim":
                log = self._do_claim(ts, block, txh, log, *payload)

    def _do_vote(self, ts: int, token_id: int, gauges: list[Gauge], weights: list[float]) -> None:
        power = self.balance_of_nft(token_id, ts)
        pairs = [(g, w) for g, w in zip(gauges, weights) if g.alive_at(ts)]
        if power <= 0 or not pairs:
            return
        epoch = epoch_start(ts)
        wsum = sum(w for _, w in pairs)
        scaled = [int(w / wsum * 1_000_000) for _, w in pairs]
        total_in = sum(scaled)
        ev = self.epoch_votes.setdefault(epoch, EpochVotes())
        mine: dict[str, int] = {}
        for (g, _w), s in zip(pairs, scaled):
            weight = power * s // total_in
            if weight <= 0:
                continue
            pid = g.pool.id
            mine[pid] = mine.get(pid, 0) + weight
            ev.ts.append(ts)
            ev.cum_total.append((ev.cum_total[-1] if ev.cum_total else 0) + weight)
            pts = ev.pool_ts.setdefault(pid, [])
            pcum = ev.pool_cum.setdefault(pid, [])
            pts.append(ts)
            pcum.append((pcum[-1] if pcum else 0) + weight)
            self.votes.append({
                "id": f"{epoch}-{token_id}-{pid}",
                "epoch": epoch,
                "veNFT": str(token_id),
                "pool": pid,
                "gauge": g.id,
                "weight": weight,
                "timestamp": ts,
                "blockNumber": self.chain.block_at(ts),
            })
        if mine:
            ev.by_token[token_id] = mine
            self.token_votes.setdefault(token_id, []).append((ts, epoch, mine))

    def _do_bribe(self, ts, block, txh, log, gauge: Gauge, token, usd: float, sender: str, foundation: bool):
        if not gauge.alive_at(ts):
            return
        price = self.chain.prices.price(token.idx, ts)
        amount = int(usd / price * token.unit)
        if amount <= 0:
            return
        epoch = epoch_start(ts)
        amount_usd = amount / token.unit * price
        self.bribes.append({
            "id": f"{txh}-{log}",
            "epoch": epoch,
            "gauge": gauge.id,
            "pool": gauge.pool.id,
            "token": token.id,
            "amount": amount,  # raw; formatted with the token's decimals
            "amountUSD": amount_usd,
            "from": sender,
            "isFoundation": foundation,
            "timestamp": ts,
            "blockNumber": block,
            "transactionHash": txh,
        })
        per_pool = self.bribe_totals.setdefault(epoch, {}).setdefault(gauge.pool.id, {})
        per_pool[token.idx] = per_pool.get(token.idx, 0) + amount
        if foundation:
            self._flow(token.idx, ts, -amount)

    def _do_claim(self, ts, block, txh, log, token_id: int, epoch: int, rewards: list) -> int:
        lock = self.lock(token_id)
        for g, token, amount, kind in rewards:
            price = self.chain.prices.price(token.idx, ts)
            self.claims.append({
                "id": f"{txh}-{log}",
                "epoch": epoch,
                "veNFT": str(token_id),
                "gauge": g.id,
                "pool": g.pool.id,
                "token": token.id,
                "amount": amount,
                "amountUSD": amount / token.unit * price,
                "kind": kind,
                "timestamp": ts,
                "blockNumber": block,
                "transactionHash": txh,
            })
            log += 1
            if lock.foundation:
                self._flow(token.idx, ts, amount)
        return log
