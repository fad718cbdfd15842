"""The devnet's VotingEscrow log (sim/escrow_moves.py `record`) against its own locks: replaying
the log from nothing gives every lock's state after each second that logged it and at the end
(so every create, increase, extension, permanent lock, withdrawal, transfer, merge and split is
in it, with what it moved); merges follow VotingEscrow.merge (an unvoted, non-permanent source, locked or
not, is burnt into a locked veNFT of the same owner, which takes the amount and the later unlock); splits follow
VotingEscrow.split (a locked, unvoted source is burnt and two veNFTs with the next IDs are minted
to its owner, splitting its amount, with its unlock); a rebase claim deposited into a live lock
(sim/rebases.py, VotingEscrow.depositFor) adds to its amount and nothing else; log indexes run
per block; every kind but withdraw happens over 60 days of chain 56."""
from __future__ import annotations

import pytest

from devnet.model import build_chain

ZERO = "0x" + "00" * 20
GENESIS = 1750000000 - 1750000000 % 3600
KINDS = {"create", "increase", "extend", "permanent", "withdraw", "transfer", "merge", "split", "depositFor"}


@pytest.fixture(scope="module")
def sim():
    chain = build_chain(56, 56, genesis_ts=GENESIS, history_days=60)
    chain.sync()
    return chain


def test_the_log_replayed_is_every_locks_state(sim):
    events, gov = sim.gov.escrow_events, sim.gov
    state: dict[int, tuple] = {}
    owners, split_locks, parts = {}, {}, {}  # a split source's owner, lock and the amounts minted from it
    for i, e in enumerate(events):
        tid, ts = e["tokenId"], e["timestamp"]
        end = e["unlockTime"] or 0
        if e["kind"] == "create" or (e["kind"] == "split" and e["splitFrom"] is not None):
            assert tid not in state and tid == max(state, default=0) + 1 and e["from"] == ZERO
            state[tid] = (e["amount"], end, e["permanent"], e["to"])
            if e["kind"] == "split":  # minted to the source's owner, with its lock; the two parts make its amount
                source = state[e["splitFrom"]]
                assert (e["to"], end, e["permanent"]) == (owners[e["splitFrom"]], *split_locks[e["splitFrom"]])
                assert source == (0, 0, False, ZERO)
                parts[e["splitFrom"]].append(e["amount"])
        else:
            amount, old_end, perm, owner = state[tid]
            assert e["from"] == owner, e
            if e["kind"] == "increase":
                state[tid] = (amount + e["amount"], old_end, perm, owner)
            elif e["kind"] == "depositFor":  # a rebase claim into the lock: live, owner to owner
                assert (perm or old_end > ts) and e["to"] == owner and e["amount"] > 0
                assert (end, e["permanent"]) == (old_end, perm)
                state[tid] = (amount + e["amount"], old_end, perm, owner)
            elif e["kind"] == "extend":
                assert end > old_end and e["amount"] == 0
                state[tid] = (amount, end, perm, owner)
            elif e["kind"] == "permanent":
                state[tid] = (amount, 0, True, owner)
            elif e["kind"] == "withdraw":
                assert not perm and old_end <= ts and e["amount"] == amount and e["to"] == ZERO
                state[tid] = (0, 0, False, ZERO)
            elif e["kind"] == "transfer":
                assert e["to"] not in (owner, ZERO) and e["amount"] == amount
                state[tid] = (amount, old_end, perm, e["to"])
            elif e["kind"] == "split":  # the source: locked or permanent, without votes, burnt
                assert (perm or old_end > ts) and e["amount"] == amount and e["to"] == ZERO
                assert (end, e["permanent"]) == (old_end, perm)
                assert not gov.book.allocation(tid, ts - 1)
                owners[tid], split_locks[tid], parts[tid] = owner, (old_end, perm), []
                state[tid] = (0, 0, False, ZERO)
            else:  # merge: the source not permanent, without votes; the target the owner's, locked
                target = e["mergedInto"]
                t_amount, t_end, t_perm, t_owner = state[target]
                assert not perm and e["amount"] == amount and t_owner == owner
                assert t_perm or t_end > ts
                assert not gov.book.allocation(tid, ts)
                state[tid] = (0, 0, False, ZERO)
                state[target] = (t_amount + amount, 0 if t_perm else max(old_end, t_end), t_perm, owner)
                assert (e["unlockTime"], e["permanent"]) == (None if t_perm else state[target][1], t_perm)
        last_of_second = i + 1 == len(events) or events[i + 1]["timestamp"] != ts
        if last_of_second:
            for t in {tid, e["mergedInto"]} - {None}:
                assert gov.lock_state(t, ts) == state[t], (e, t)
    assert {lock.token_id: lock.current for lock in gov.locks} == state
    amounts = {e["tokenId"]: e["amount"] for e in events if e["kind"] == "split" and e["splitFrom"] is None}
    assert amounts and all(len(parts[t]) == 2 and sum(parts[t]) == amounts[t] and min(parts[t]) > 0 for t in amounts)
    # every kind but withdraw: an unlocked veNFT keeps its votes (pokes and carries) and cannot
    # withdraw, so withdrawals are rare enough that 60 days of chain 56 have none
    assert KINDS - {"withdraw"} <= {e["kind"] for e in events} <= KINDS


def test_log_indexes_run_per_block(sim):
    keys = [(e["blockNumber"], e["logIndex"]) for e in sim.gov.escrow_events]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    assert len({e["id"] for e in sim.gov.escrow_events}) == len(keys)
    blocks: dict[int, list[int]] = {}
    for block, log in keys:
        blocks.setdefault(block, []).append(log)
    assert all(logs == list(range(len(logs))) for logs in blocks.values())
    assert all(e["blockNumber"] == sim.block_at(e["timestamp"]) for e in sim.gov.escrow_events)
