"""Velodrome v2's RewardsDistributor: veNFT rebases.

- Checkpoint: at each epoch flip F (the hour the governance sets `weekly[F]`), for the epoch that
  just ended E = F - WEEK (E >= the governance's first epoch), the minter mints the rebase R_E to
  the distributor, which checkpoints it wholly to week E: `tokensPerWeek[E] = R_E`,
  `veSupply[E]` = the total voting power at E (VotingEscrow.totalSupplyAt(E)). R_E follows
  Minter.calculateGrowth, `weekly[E] * V // S * V // S // 2`, with V = veSupply[E] and S the core
  token's total supply just before the flip (F - 1: emissions and earlier rebases included); a
  week with no voting power gets nothing (nobody could claim it). FALLBACK_BPS of weekly[E] only
  if S were 0 (never with the configured supplies).
- A veNFT's rebase for week E: `balanceOfNFTAt(tid, E) * tokensPerWeek[E] // veSupply[E]`.
- Claims, from a random stream of their own (`default_rng([seed, chain, 783, F // HOUR])`, drawn
  at each flip F, so the market's and governance's draws are untouched): every veNFT existing and
  not burnt at F draws one claim in the epoch [F, F + WEEK): the foundation's always, at a uniform
  second of its second day, the others with probability CLAIM_PROBABILITY at a uniform second of
  [F + 1 h, F + WEEK - 1 h) (block grid). A claim takes every checkpointed week from the veNFT's
  cursor (`timeCursorOf`: the first unclaimed week, first the first epoch start at or after its
  creation) to the last checkpoint, and moves the cursor past it. It is sent only when the veNFT
  is not burnt then (merged, split or withdrawn: its rebases are lost, as in Velodrome) and pays
  something. Live lock (permanent, or unlock after now): VotingEscrow.depositFor (the lock grows;
  an escrow event `depositFor`, owner to owner, in the same transaction); expired: the core token
  goes to the owner's wallet and the lock is unchanged.
Claims are applied in time order with the hour's lock operations (Governance.lock_activity calls
`run_until`), so each lock's history and the escrow log stay in chain order.
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right

import numpy as np

from devnet.addresses import ZERO_ADDRESS
from devnet.sim import escrow_moves
from devnet.timeutil import DAY, HOUR, WEEK

REBASE_STREAM = 783
CLAIM_PROBABILITY = 0.4  # a non-foundation veNFT's chance to claim in a given epoch
FALLBACK_BPS = 100  # 1% of the ended epoch's emission, only without a core supply figure


def first_week(created_ts: int) -> int:
    """The first epoch start at or after a veNFT's creation (Velodrome's first cursor)."""
    return -(-created_ts // WEEK) * WEEK


class Rebases:
    def __init__(self, gov):
        self.gov = gov
        self.chain = gov.chain
        self.epochs: list[int] = []  # checkpointed weeks, ascending (consecutive)
        self.cp_ts: list[int] = []  # when each was checkpointed (its flip)
        self.tokens_per_week: dict[int, int] = {}
        self.ve_supply: dict[int, int] = {}
        self.checkpoints: list[dict] = []  # RebaseCheckpoint rows, chain order
        self.claims: list[dict] = []  # RebaseClaim (Claimed) rows, chain order
        self._claim_ts: dict[int, list[int]] = {}  # veNFT -> its claims' times
        self._claim_rows: dict[int, list[dict]] = {}  # veNFT -> its claims
        self._minted: tuple[list[int], list[int]] = ([], [])  # (ts, cumulative) of the mints
        self._paid: tuple[list[int], list[int]] = ([], [])  # (ts, cumulative) of the claims
        self._planned: list[tuple[int, int]] = []  # (ts, veNFT) of the running epoch, sorted
        self._pos = 0
        self._log = (-1, 0)  # (block, last log index) of the distributor's logs

    # -- reads ---------------------------------------------------------------------------------
    def checkpointed(self, ts: int) -> int:
        """How many weeks are checkpointed at ts."""
        return bisect_right(self.cp_ts, ts)

    def week_known(self, week: int, ts: int) -> bool:
        return week in self.tokens_per_week and week + WEEK <= ts

    def last_token_time(self, ts: int) -> int:
        n = self.checkpointed(ts)
        return self.cp_ts[n - 1] if n else 0

    def rebase_of(self, token_id: int, week: int) -> int:
        """balanceOfNFTAt(tid, week) * tokensPerWeek[week] // veSupply[week] (0 without supply)."""
        supply = self.ve_supply.get(week, 0)
        if supply <= 0:
            return 0
        return self.gov.balance_of_nft(token_id, week) * self.tokens_per_week[week] // supply

    def cursor_at(self, token_id: int, ts: int) -> int:
        """timeCursorOf at ts: the week after the last claim's, else the first week; 0 before the
        veNFT exists."""
        lock = self.gov.lock(token_id)
        if lock is None or lock.created_ts > ts:
            return 0
        i = bisect_right(self._claim_ts.get(token_id, ()), ts)
        return self._claim_rows[token_id][i - 1]["toEpoch"] if i else first_week(lock.created_ts)

    def unclaimed(self, token_id: int, ts: int) -> list[tuple[int, int]]:
        """(week, rebase) of every checkpointed week at ts from the cursor on; none for a veNFT
        burnt by then (or not existing)."""
        lock = self.gov.lock(token_id)
        if lock is None or lock.created_ts > ts or lock.state_at(ts)[3] == ZERO_ADDRESS:
            return []
        n = self.checkpointed(ts)
        start = bisect_left(self.epochs, self.cursor_at(token_id, ts), 0, n)
        return [(w, self.rebase_of(token_id, w)) for w in self.epochs[start:n]]

    def claimable(self, token_id: int, ts: int) -> int:
        return sum(r for _w, r in self.unclaimed(token_id, ts))

    def minted_until(self, ts: int) -> int:
        return _cum_at(self._minted, ts)

    def paid_until(self, ts: int) -> int:
        return _cum_at(self._paid, ts)

    def claims_until(self, ts: int) -> list[dict]:
        return self.claims[:bisect_right(self.claims, ts, key=lambda r: r["timestamp"])]

    # -- generation ----------------------------------------------------------------------------
    def flip(self, flip_ts: int) -> None:
        """At an epoch flip: checkpoint the ended week, then plan the epoch's claims."""
        gov, c = self.gov, self.chain
        week = flip_ts - WEEK
        if week >= gov.first_epoch and week not in self.tokens_per_week:
            supply = gov.ve_totals(week)[1]
            core = c.core_total_supply(flip_ts - 1)
            emission = gov.weekly.get(week, 0)
            amount = (emission * supply // core * supply // core // 2 if core > 0
                      else emission * FALLBACK_BPS // 10_000 * (supply > 0))
            block = c.block_at(flip_ts)
            log = self._next_log(block)
            tx = c.tx_hash(block, log, "rebase")
            self.epochs.append(week)
            self.cp_ts.append(flip_ts)
            self.tokens_per_week[week] = amount
            self.ve_supply[week] = supply
            _push(self._minted, flip_ts, amount)
            self.checkpoints.append({"id": str(week), "epoch": week, "amount": amount, "veSupply": supply,
                                     "timestamp": flip_ts, "blockNumber": block, "transactionHash": tx,
                                     "logIndex": log})
        self._plan(flip_ts)

    def _plan(self, flip_ts: int) -> None:
        c, gov = self.chain, self.gov
        rng = np.random.default_rng([c.seed, c.chain_id, REBASE_STREAM, flip_ts // HOUR])
        locks = [lk for lk in gov.locks if lk.created_ts < flip_ts and lk.current[3] != ZERO_ADDRESS]
        u, when = rng.random(len(locks)), rng.random(len(locks))
        bt = c.block_time
        planned = self._planned[self._pos:]
        for lock, ui, wi in zip(locks, u.tolist(), when.tolist()):
            if lock.foundation:
                offset = DAY + wi * DAY
            elif ui < CLAIM_PROBABILITY:
                offset = HOUR + wi * (WEEK - 2 * HOUR)
            else:
                continue
            planned.append((flip_ts + int(offset) // bt * bt, lock.token_id))
        planned.sort()
        self._planned, self._pos = planned, 0

    def run_until(self, ts: int) -> None:
        """Send the planned claims due before ts (exclusive), in time order."""
        planned = self._planned
        while self._pos < len(planned) and planned[self._pos][0] < ts:
            t, tid = planned[self._pos]
            self._pos += 1
            self._claim(t, tid)

    def _claim(self, ts: int, token_id: int) -> None:
        gov, c = self.gov, self.chain
        lock = gov.lock(token_id)
        amount, end, perm, owner = lock.current  # the state at ts (earlier operations applied)
        weeks = self.unclaimed(token_id, ts)
        paid = sum(r for _w, r in weeks)
        if not weeks or paid <= 0 or owner == ZERO_ADDRESS:
            return
        block = c.block_at(ts)
        to_lock = perm or end > ts
        if to_lock:  # VotingEscrow.depositFor, in the claim's transaction
            lock.update(ts, (amount + paid, end, perm, owner))
            escrow_moves.record(gov, ts, "depositFor", token_id, owner, owner, paid, end, perm)
            tx = gov.escrow_events[-1]["transactionHash"]
            cache = gov._ve_cache  # totals cached at or after ts no longer hold
            for k in [k for k in cache if k >= ts]:
                del cache[k]
        else:
            tx = None
            if owner == c.foundation_wallet.lower():
                gov._flow(c.core.idx, ts, paid)  # the foundation's wallet balance is modelled
        log = self._next_log(block)
        tx = tx or c.tx_hash(block, log, "rebase")
        price = c.token_price(c.core, ts)  # the claim's USD as the indexer prices claims (Claim.amountUSD)
        row = {"id": f"{tx}-{log}", "tokenId": token_id, "owner": owner, "fromEpoch": weeks[0][0],
               "toEpoch": weeks[-1][0] + WEEK, "amount": paid,
               "amountUSD": paid / c.core.unit * price if price is not None else None, "toLock": to_lock, "timestamp": ts,
               "blockNumber": block, "transactionHash": tx, "logIndex": log}
        self.claims.append(row)
        self._claim_ts.setdefault(token_id, []).append(ts)
        self._claim_rows.setdefault(token_id, []).append(row)
        _push(self._paid, ts, paid)

    def _next_log(self, block: int) -> int:
        last_block, log = self._log
        log = log + 1 if block == last_block else 0
        self._log = (block, log)
        return log


def _push(series: tuple[list[int], list[int]], ts: int, amount: int) -> None:
    times, cum = series
    times.append(ts)
    cum.append((cum[-1] if cum else 0) + amount)


def _cum_at(series: tuple[list[int], list[int]], ts: int) -> int:
    i = bisect_right(series[0], ts)
    return series[1][i - 1] if i else 0


__all__ = ["CLAIM_PROBABILITY", "REBASE_STREAM", "Rebases", "first_week"]
