"""veNFTs changing hands within the vote escrow, at the first second of an hour before its lock
activity and its scheduled votes, from random streams of their own (`default_rng([seed, chain,
781, hour])` for transfers and merges), apart from the governance's (model.GOVERNANCE_STREAM) and
the market's:

- transfer: a veNFT (not the foundation's) passes to another voter; its allocation, if any, stays
  with it and is the new owner's from then on (Velodrome V2 lets a voted veNFT move);
- merge: an owner's unvoted, non-permanent veNFT, locked or not, with no reward left to claim (no
  allocation in this epoch or the last) is merged into one of its own that is still locked
  (VotingEscrow.merge: the target gets the amount and the later unlock time, or stays permanent;
  the source is burnt).

- split (a stream of its own, `default_rng([seed, chain, 782, hour])`, after the transfers and
  merges): an owner's still-locked (or permanent), unvoted veNFT with no reward left to claim is
  split as VotingEscrow.split does: the source is burnt and two new veNFTs are minted to its owner
  with the next token IDs, the first keeping the rest of the amount and the second the part split
  off, both with the source's unlock time or permanence. The new veNFTs are ordinary locks from
  then on (the main stream's lock activity and votes draw over them).

`record` writes every VotingEscrow event, these, the lock operations of sim/governance.py
(create, increase, extend, permanent, withdraw) and the rebase claims deposited into locks
(depositFor, sim/rebases.py), to `Governance.escrow_events` in chain order: kind,
veNFT, the owners before and after, the amount it moved or added, the unlock time after, block,
transaction and log index. They are the truth of an account's lock activity.
"""
from __future__ import annotations

import numpy as np

from devnet.addresses import ZERO_ADDRESS
from devnet.timeutil import HOUR, WEEK, epoch_start

MOVES_STREAM = 781
SPLITS_STREAM = 782
TRANSFERS_PER_HOUR = 0.2
MERGES_PER_HOUR = 0.15
SPLITS_PER_HOUR = 0.05
MERGE_TRIES = 40  # random owners looked at per merge drawn


def run_hour(gov, hour_ts: int) -> None:
    c = gov.chain
    rng = np.random.default_rng([c.seed, c.chain_id, MOVES_STREAM, hour_ts // HOUR])
    transfers, merges = (int(n) for n in rng.poisson(np.array([TRANSFERS_PER_HOUR, MERGES_PER_HOUR]) * c.scale))
    first = len(gov.foundation_ids)
    if len(gov.locks) <= first:
        return
    moved = False
    for _ in range(transfers):
        lock = gov.locks[first + int(rng.random() * (len(gov.locks) - first))]
        receiver = gov.voters[int(len(gov.voters) * rng.random() ** 2)]
        amount, end, perm, owner = lock.current
        if lock.created_ts >= hour_ts or amount == 0 or receiver == owner:
            continue
        lock.update(hour_ts, (amount, end, perm, receiver))
        gov.owner_tokens.setdefault(receiver, []).append(lock.token_id)
        record(gov, hour_ts, "transfer", lock.token_id, owner, receiver, amount, end, perm)
        moved = True
    for _ in range(merges):
        for _ in range(MERGE_TRIES):
            source = gov.locks[first + int(rng.random() * (len(gov.locks) - first))]
            target = _merge_target(gov, source, hour_ts)
            if target is not None:
                _merge(gov, hour_ts, source, target)
                moved = True
                break
    srng = np.random.default_rng([c.seed, c.chain_id, SPLITS_STREAM, hour_ts // HOUR])
    for _ in range(int(srng.poisson(SPLITS_PER_HOUR * c.scale))):
        for _ in range(MERGE_TRIES):
            source = gov.locks[first + int(srng.random() * (len(gov.locks) - first))]
            if _splittable(gov, source, hour_ts):
                _split(gov, hour_ts, source, float(srng.uniform(0.2, 0.5)))
                moved = True
                break
    if moved:
        gov._ve_cache.clear()  # totals read at this second before the moves


def _unclaimed(gov, token_id: int, ts: int) -> bool:
    """The veNFT has had an allocation this epoch or the last, so a reward of it may be claimed later
    (by its owner then): burning it would strand that claim."""
    epoch = epoch_start(ts)
    return any(token_id in gov.book.epoch_alloc.get(e, {}) for e in (epoch, epoch - WEEK))


def _splittable(gov, source, ts: int) -> bool:
    """VotingEscrow.split's conditions (a normal veNFT, not voted, not expired) on a voter's veNFT
    with more than one wei locked and no reward left to claim."""
    amount, end, perm, _ = source.current
    return (source.created_ts < ts and amount > 1 and (perm or end > ts) and not gov.book.alloc.get(source.token_id)
            and not _unclaimed(gov, source.token_id, ts))


def _split(gov, ts: int, source, share: float) -> None:
    """VotingEscrow.split(source, amount * share): the source burnt, then two veNFTs minted to its
    owner (the rest, then the part split off), each logged with the veNFT it was split from."""
    amount, end, perm, owner = source.current
    part = max(1, int(amount * share))
    source.update(ts, (0, 0, False, ZERO_ADDRESS))
    record(gov, ts, "split", source.token_id, owner, ZERO_ADDRESS, amount, end, perm)
    for value in (amount - part, part):
        lock = gov.mint_lock(ts, owner, value, end, perm)
        record(gov, ts, "split", lock.token_id, ZERO_ADDRESS, owner, value, end, perm, splitFrom=source.token_id)


def _merge_target(gov, source, ts: int):
    """The owner's still-locked veNFT that `source` may merge into (the largest), or None when
    `source` is not an unvoted, non-permanent veNFT of a voter's (VotingEscrow.merge's conditions)."""
    amount, _end, perm, owner = source.current
    if source.created_ts >= ts or amount == 0 or perm or gov.book.alloc.get(source.token_id):
        return None
    if _unclaimed(gov, source.token_id, ts):
        return None
    live = []
    for tid in dict.fromkeys(gov.owner_tokens.get(owner, ())):
        lock = gov.lock(tid)
        t_amount, t_end, t_perm, t_owner = lock.current
        if tid != source.token_id and t_owner == owner and t_amount > 0 and (t_perm or t_end > ts) \
                and lock.created_ts < ts:
            live.append((t_amount, tid, lock))
    return max(live)[2] if live else None


def _merge(gov, ts: int, source, target) -> None:
    amount, end, _perm, owner = source.current
    t_amount, t_end, t_perm, _ = target.current
    target.update(ts, (t_amount + amount, 0 if t_perm else max(end, t_end), t_perm, owner))
    source.update(ts, (0, 0, False, ZERO_ADDRESS))
    record(gov, ts, "merge", source.token_id, owner, ZERO_ADDRESS, amount, *target.current[1:3],
           mergedInto=target.token_id)


def record(gov, ts: int, kind: str, token_id: int, owner: str, receiver: str, amount: int, end: int,
           permanent: bool, **fields) -> None:
    """One VotingEscrow event: `owner` holds the veNFT before it, `receiver` after it (the zero
    address once burnt); `amount` is what it locked, added or moved; `end` and `permanent` the lock
    after it. Log indexes run per block, in the order the events are written."""
    c = gov.chain
    block = c.block_at(ts)
    last_block, log = gov.escrow_log
    log = log + 1 if block == last_block else 0
    gov.escrow_log = (block, log)
    tx = c.tx_hash(block, log, "escrow")
    gov.escrow_events.append({"id": f"{tx}-{log}", "kind": kind, "tokenId": token_id, "veNFT": str(token_id),
                              "from": owner, "to": receiver, "amount": amount, "unlockTime": None if permanent else end,
                              "permanent": permanent, "mergedInto": None, "splitFrom": None, **fields, "timestamp": ts,
                              "blockNumber": block, "transactionHash": tx, "logIndex": log})
