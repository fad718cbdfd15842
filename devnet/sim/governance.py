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
from devnet.addresses import ZERO_ADDRESS, system_gauge_target
from devnet.sim.gauges import Gauge, build_timeline
from devnet.sim.votebook import VoteBook
from devnet.sim import epoch_extras, escrow_moves
from devnet.sim.rebases import Rebases

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


@dataclass
class EpochVotes:
    """The votes cast in one epoch by the planned (re-)voters: veNFT -> target -> weight. Only the
    iteration order of the next epoch's claims depends on it (the rewards use the allocations in
    effect, `VoteBook.epoch_alloc`)."""

    by_token: dict[int, dict[str, int]] = field(default_factory=dict)


class Governance:
    def __init__(self, chain):
        self.chain = chain
        p = chain.params
        self.params = p
        self.locks: list[Lock] = []
        self.owner_tokens: dict[str, list[int]] = {}  # every owner a veNFT ever had -> its ids
        self.escrow_events: list[dict] = []  # VotingEscrow's events (sim/escrow_moves.py `record`)
        self.escrow_log = (-1, 0)  # (block, log index) of the last one
        self.gauges: list[Gauge] = []
        self.gauge_by_pool: dict[str, Gauge] = {}  # target (pool or system address) -> gauge
        self.gauge_by_target = self.gauge_by_pool
        self.gauge_by_id: dict[str, Gauge] = {}
        self.votes: list[dict] = []
        self.bribes: list[dict] = []
        self.claims: list[dict] = []
        self.epoch_votes: dict[int, EpochVotes] = {}
        self.book = VoteBook(self)
        self.weekly: dict[int, int] = {}  # epoch -> emissions raw
        self.gauge_emissions: dict[int, dict[str, int]] = {}  # epoch -> target -> raw
        self.first_epoch = epoch_start(chain.genesis_ts)
        self.bribe_totals: dict[int, dict[str, dict[int, int]]] = {}  # epoch -> target -> token idx -> raw
        self.foundation_flows: dict[int, tuple[list[int], list[int]]] = {}  # token idx -> (ts, cum)
        self.foundation_ids: list[int] = []
        self._schedule: list[tuple] = []
        self._pending: list[tuple] = []
        self._sched_pos = 0
        self._seq = 0
        self._extra: list[tuple] = []  # events planned from the extra stream (epoch_extras)
        self._extra_pos = 0
        self._extra_seq = 0
        self._extra_new: list[tuple] = []
        self._ve_cache: dict[int, tuple[int, int, int]] = {}
        self.voters = [chain.user("voter", i) for i in range(p.voters)]
        self.rebases = Rebases(self)  # the RewardsDistributor (sim/rebases.py)

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
        return self.book.total(ts)

    def pool_weight(self, target: str, ts: int) -> int:
        return self.book.weight(target, ts)

    def token_pool_votes(self, token_id: int, target: str, ts: int) -> int:
        return self.book.votes(token_id, target, ts)

    def last_voted(self, token_id: int, ts: int) -> int:
        return self.book.last_voted(token_id, ts)

    def epoch_vote_weight(self, target: str, ts: int) -> int:
        """The sum of the epoch's Vote rows for a target visible at ts (see VoteBook)."""
        e = epoch_start(ts)
        return sum(v["weight"] for v in self.votes_of_epoch(e, ts) if v["target"] == target)

    def votes_of_epoch(self, epoch: int, ts: int) -> list[dict]:
        return [v for v in self.book.rows_by_epoch.get(epoch, ()) if v["timestamp"] <= ts]

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
        return self.gauge_emissions.get(epoch_start(ts), {}).get(gauge.target, 0) // WEEK

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

    def add_gauge(self, pool, ts: int, killed_ts: int | None, revived_ts: int | None = None) -> Gauge:
        """A gauge for a user pool (pool given) or the system gauge (pool None)."""
        c = self.chain
        label = pool.spec.label if pool is not None else "system"
        target = pool.address if pool is not None else system_gauge_target(c.chain_id)
        g = Gauge(address=c.label_address(f"gauge:{label}"), id="", pool=pool, created_ts=ts,
                  fees_reward=c.label_address(f"feesVotingReward:{label}"),
                  bribe_reward=c.label_address(f"bribeVotingReward:{label}"),
                  killed_ts=killed_ts, index=len(self.gauges), kind="pool" if pool is not None else "system",
                  target=target.lower(), target_address=target, revived_ts=revived_ts)
        g.id = g.address.lower()
        build_timeline(c, g)
        self.gauges.append(g)
        self.gauge_by_pool[g.target] = g
        self.gauge_by_id[g.id] = g
        if pool is not None:
            pool.gauge = g
        return g

    def mint_lock(self, ts: int, owner: str, amount: int, end: int, perm: bool, foundation=False) -> Lock:
        """A new veNFT with the next token ID (its log is the caller's: a create, or a split)."""
        tid = len(self.locks) + 1
        lock = Lock(tid, ts, self.chain.block_at(ts), (amount, 0 if perm else end, perm, owner), foundation)
        self.locks.append(lock)
        self.owner_tokens.setdefault(owner, []).append(tid)
        return lock

    def _new_lock(self, ts: int, owner: str, amount: int, end: int, perm: bool, foundation=False) -> Lock:
        lock = self.mint_lock(ts, owner, amount, end, perm, foundation)
        escrow_moves.record(self, ts, "create", lock.token_id, ZERO_ADDRESS, owner, amount, end, perm)
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
            self.rebases.run_until(ts)  # rebase claims before this operation, in chain order
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
            tid = lock.token_id
            if kind == 1 and live and amount > 0:
                added = self._lock_amount(rng) // 2
                lock.update(ts, (amount + added, end, perm, owner))
                escrow_moves.record(self, ts, "increase", tid, owner, owner, added, end, perm)
            elif kind == 2 and live and not perm:
                new_end = round_unlock(ts + MAXTIME)
                if new_end > end:
                    lock.update(ts, (amount, new_end, perm, owner))
                    escrow_moves.record(self, ts, "extend", tid, owner, owner, 0, new_end, perm)
            elif kind == 3 and live and not perm and amount > 0:
                lock.update(ts, (amount, 0, True, owner))
                escrow_moves.record(self, ts, "permanent", tid, owner, owner, amount, 0, True)
            elif kind == 4 and not perm and end <= ts and amount > 0 and not self.book.alloc.get(tid):
                # Velodrome: a veNFT with votes cannot withdraw (it resets first, epoch_extras)
                lock.update(ts, (0, 0, False, ZERO_ADDRESS))
                escrow_moves.record(self, ts, "withdraw", tid, owner, ZERO_ADDRESS, amount, 0, False)
        self.rebases.run_until(hour_ts + HOUR)

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
        # emissions for this epoch, split by the weights in effect at its start
        alive_all = [g for g in self.gauges if g.alive_at(hour_ts)]
        if epoch not in self.weekly:
            prev = self.weekly.get(epoch - WEEK)
            self.weekly[epoch] = to_raw(p.initial_weekly) if prev is None else prev * p.weekly_decay_bps // 10_000
            self.gauge_emissions[epoch] = self.emission_split(self.weekly[epoch], alive_all, hour_ts)
            self.rebases.flip(epoch)  # the ended week's rebase checkpoint and this epoch's claims
        # the planned draws below see the pool gauges only (the system gauge, pokes, resets and
        # carried allocations come from the extra stream, epoch_extras, after them)
        alive = [g for g in alive_all if g.kind == "pool"]
        if not alive:
            epoch_extras.plan(self, hour_ts, alive_all)
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
        # claims of the previous epoch's rewards (bribes and fees) by the veNFTs that voted in it
        # (the ones that carried or poked their allocation claim from the extra stream)
        prev = epoch - WEEK
        prev_votes = self.epoch_votes.get(prev)
        if prev_votes:
            for tid in sorted(prev_votes.by_token):
                lock = self.lock(tid)
                if not (lock.foundation or rng.random() < p.claim_probability):
                    continue
                rewards = self.claim_rewards(prev, tid)
                if rewards:
                    delay = 3 * HOUR + rng.uniform(0, 6 * 86400) if not lock.foundation else 40 * HOUR
                    self._schedule_add(at(delay), "claim", (tid, prev, rewards))
        epoch_extras.plan(self, hour_ts, alive_all)
        self._merge_pending()

    def emission_split(self, weekly: int, alive: list[Gauge], ts: int) -> dict[str, int]:
        """The epoch's emissions over the gauges alive at its start, in proportion to their weights
        in effect then (every event before `ts`); equal shares when no alive gauge has weight.
        Killed gauges' weights are not in the denominator."""
        weights = {g.target: self.book.weight(g.target, ts - 1) for g in alive}
        total = sum(weights.values())
        if total > 0:
            return {g.target: weekly * weights[g.target] // total for g in alive}
        return {g.target: weekly // len(alive) for g in alive} if alive else {}

    def claim_rewards(self, epoch: int, token_id: int) -> list:
        """What a veNFT earned in an ended epoch, as Velodrome's reward contracts checkpoint it: per
        target it voted for, its share w/W of the target's bribes (per token) and pool fees of the
        epoch, w its votes and W the target's votes at the epoch's last second (a vote cast earlier
        in the epoch and reset or replaced before its end earns nothing)."""
        c, end = self.chain, epoch + WEEK - 1
        rewards = []
        for target, w in self.book.allocation(token_id, end).items():
            W = self.book.weight(target, end)
            if W <= 0 or w <= 0:
                continue
            g = self.gauge_by_target[target]
            for tok_idx, raw in sorted(self.bribe_totals.get(epoch, {}).get(target, {}).items()):
                amt = raw * w // W
                if amt > 0:
                    rewards.append((g, c.all_tokens[tok_idx], amt, "bribe"))
            if g.pool is None:
                continue
            f0, f1 = g.pool.epoch_fees.get(epoch, (0, 0))
            for tok, raw in ((g.pool.token0, f0), (g.pool.token1, f1)):
                amt = raw * w // W
                if amt > 0:
                    rewards.append((g, tok, amt, "fee"))
        return rewards

    def _merge_pending(self) -> None:
        rest = self._schedule[self._sched_pos:]
        rest.extend(self._pending)
        rest.sort(key=lambda e: (e[0], e[1]))
        self._schedule = rest
        self._sched_pos = 0
        self._pending = []

    def run_scheduled(self, hour_ts: int) -> None:
        """Execute the planned events whose time falls in [hour_ts, hour_ts + 1h): the main plan's
        (transaction hashes and log indexes as before the extra stream existed) and the extra
        plan's (their own hash domain and log counter), merged in time order; then apply the
        hour's vote operations."""
        c = self.chain
        end = hour_ts + HOUR
        sched, extra = self._schedule, self._extra
        log = xlog = 0
        while True:
            main_next = sched[self._sched_pos][0] if self._sched_pos < len(sched) else None
            extra_next = extra[self._extra_pos][0] if self._extra_pos < len(extra) else None
            use_main = main_next is not None and main_next < end and (extra_next is None or main_next <= extra_next)
            if use_main:
                ts, seq, kind, payload = sched[self._sched_pos]
                self._sched_pos += 1
                block = c.block_at(ts)
                txh = c.tx_hash(block, self._seq + self._sched_pos, "gov")
                if kind == "vote":
                    self._do_vote(ts, txh, (0, seq), *payload)
                elif kind == "bribe":
                    self._do_bribe(ts, block, txh, log, *payload)
                    log += 1
                elif kind == "claim":
                    log = self._do_claim(ts, block, txh, log, *payload)
                continue
            if extra_next is None or extra_next >= end:
                break
            ts, seq, kind, payload = extra[self._extra_pos]
            self._extra_pos += 1
            block = c.block_at(ts)
            txh = c.tx_hash(block, seq, "gov2")
            if kind in ("poke", "reset", "carry"):
                self.book.add(ts, (1, seq), kind, payload, None, txh)
            elif kind == "bribe":
                self._do_bribe(ts, block, txh, xlog, *payload)
                xlog += 1
            elif kind == "claim":
                xlog = self._do_claim(ts, block, txh, xlog, *payload)
        self.book.flush()
        if self._extra_pos > 4096:
            del extra[:self._extra_pos]
            self._extra_pos = 0

    def add_extra(self, ts: int, kind: str, payload) -> None:
        """Queue an extra-stream event (planned at an epoch start, in any order)."""
        self._extra_seq += 1
        self._extra_new.append((ts, self._extra_seq, kind, payload))

    def merge_extra(self) -> None:
        rest = self._extra[self._extra_pos:] + self._extra_new
        rest.sort(key=lambda e: (e[0], e[1]))
        self._extra, self._extra_pos, self._extra_new = rest, 0, []

    def _do_vote(self, ts: int, txh: str, order: tuple, token_id: int, gauges: list[Gauge],
                 weights: list[float]) -> None:
        """A planned vote (applied with the hour's vote operations). The claims' iteration set
        records it as cast when it will succeed (voting power and an alive gauge at ts)."""
        self.book.add(ts, order, "vote", token_id, (gauges, weights), txh)
        if self.balance_of_nft(token_id, ts) > 0 and any(g.alive_at(ts) for g in gauges):
            self.epoch_votes.setdefault(epoch_start(ts), EpochVotes()).by_token[token_id] = {}

    def _do_bribe(self, ts, block, txh, log, gauge: Gauge, token, size: float, sender: str, foundation: bool):
        """A bribe deposit of `size` USD, or of `size` human units of a token without a price."""
        if not gauge.alive_at(ts):
            return
        price = self.chain.token_price(token, ts)
        amount = int((size / price if price is not None else size) * token.unit)
        if amount <= 0:
            return
        epoch = epoch_start(ts)
        self.bribes.append({
            "id": f"{txh}-{log}",
            "epoch": epoch,
            "gauge": gauge.id,
            "pool": gauge.pool.id if gauge.pool is not None else None,
            "target": gauge.target,
            "token": token.id,
            "amount": amount,  # raw; formatted with the token's decimals
            "amountUSD": amount / token.unit * price if price is not None else None,
            "from": sender,
            "isFoundation": foundation,
            "timestamp": ts,
            "blockNumber": block,
            "transactionHash": txh,
        })
        per_target = self.bribe_totals.setdefault(epoch, {}).setdefault(gauge.target, {})
        per_target[token.idx] = per_target.get(token.idx, 0) + amount
        if foundation:
            self._flow(token.idx, ts, -amount)

    def _do_claim(self, ts, block, txh, log, token_id: int, epoch: int, rewards: list) -> int:
        lock = self.lock(token_id)
        for g, token, amount, kind in rewards:
            price = self.chain.token_price(token, ts)
            self.claims.append({
                "id": f"{txh}-{log}",
                "epoch": epoch,
                "veNFT": str(token_id),
                "gauge": g.id,
                "pool": g.pool.id if g.pool is not None else None,
                "target": g.target,
                "token": token.id,
                "amount": amount,
                "amountUSD": amount / token.unit * price if price is not None else None,
                "kind": kind,
                "timestamp": ts,
                "blockNumber": block,
                "transactionHash": txh,
            })
            log += 1
            if lock.foundation:
                self._flow(token.idx, ts, amount)
        return log
