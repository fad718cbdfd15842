"""veNFTs changing hands within the vote escrow, from a random stream of their own
(`default_rng([seed, chain, 781, hour])`), at the first second of an hour before its lock activity
and its scheduled votes, so that the main stream's draws (and with them the market's) stay what
they were before these existed:

- transfer: a veNFT (not the foundation's) passes to another voter; its allocation, if any, stays
  with it and is the new owner's from then on (Velodrome V2 lets a voted veNFT move);
- merge: an owner's unlocked, unvoted, non-permanent veNFT with no reward left to claim (no
  allocation in this epoch or the last) is merged into one of its own that is still locked (VotingEscrow.merge: the target gets the amount and the later unlock time, or stays
  permanent; the source is burnt). Only unlocked sources are merged: an unlocked veNFT takes no draw
  of the main stream, so burning it changes none of them.

`record` writes every VotingEscrow event, these and the lock operations of sim/governance.py
(create, increase, extend, permanent, withdraw), to `Governance.escrow_events` in chain order: kind,
veNFT, the owners before and after, the amount it moved or added, the unlock time after, block,
transaction and log index. They are the truth of an account's lock activity.
"""
from __future__ import annotations

import numpy as np

from devnet.addresses import ZERO_ADDRESS
from devnet.timeutil import HOUR, WEEK, epoch_start

MOVES_STREAM = 781
TRANSFERS_PER_HOUR = 0.2
MERGES_PER_HOUR = 0.15
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
    if moved:
        gov._ve_cache.clear()  # totals read at this second before the moves


def _merge_target(gov, source, ts: int):
    """The owner's still-locked veNFT that `source` may merge into (the largest), or None when
    `source` is not an unlocked, unvoted, non-permanent veNFT of a voter's."""
    amount, end, perm, owner = source.current
    if source.created_ts >= ts or amount == 0 or perm or end > ts or gov.book.alloc.get(source.token_id):
        return None
    epoch = epoch_start(ts)
    if any(source.token_id in gov.book.epoch_alloc.get(e, {}) for e in (epoch, epoch - WEEK)):
        return None  # its rewards of those epochs are claimed later, by its owner then
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
                              "permanent": permanent, "mergedInto": None, **fields, "timestamp": ts,
                              "blockNumber": block, "transactionHash": tx, "logIndex": log})
