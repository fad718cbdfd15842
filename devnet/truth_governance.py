"""Governance ground truth from the simulation's state (the Voter's histories, the minter's
split, the bribe deposits, the swaps), never from the subgraph's rows. Raw amounts are decimal
strings; USD amounts floats (null where a token has no price). See devnet/README.md."""
from __future__ import annotations

import math
from bisect import bisect_left

from devnet.timeutil import WEEK, epoch_start


def _gauge_head(g) -> dict:
    return {"kind": g.kind, "target": g.target, "pool": g.pool.id if g.pool is not None else None}


def gauge_epochs(sim, epoch: int, block: int) -> dict:
    """Per gauge existing in the epoch (by the block): votes, emissions, bribes and fees."""
    return gauge_epochs_through(sim, epoch, sim.block_ts(block))


def gauge_epochs_through(sim, epoch: int, ts: int) -> dict:
    """gauge_epochs as of second ts inclusive, between blocks too: what a reader reports `readAt`
    ts (emissions accrue by the second, so a closed epoch read after its end has its whole week)."""
    block = sim.block_at(ts)
    epoch = epoch_start(epoch)
    gov = sim.gov
    end = min(epoch + WEEK, ts + 1)
    last = end - 1
    rows = {}
    for v in gov.votes_of_epoch(epoch, ts):
        rows[v["target"]] = rows.get(v["target"], 0) + v["weight"]
    bribes: dict[str, dict[str, list]] = {}
    for b in gov.bribes:
        if b["timestamp"] >= end:
            break
        if b["epoch"] == epoch:
            bribes.setdefault(b["gauge"], {}).setdefault(b["token"], []).append(b)
    fees: dict[str, list] = {}
    i, j = bisect_left(sim.swap_ts, epoch), bisect_left(sim.swap_ts, end)
    for sw in sim.swaps[i:j]:
        acc = fees.setdefault(sw.pool.id, [0, 0, []])
        acc[0 if sw.amount0 > 0 else 1] += sw.fee_amount
        acc[2].append(sw.fees_usd)
    out = {}
    for g in gov.gauges:
        if g.created_ts >= end:
            continue
        allotted = gov.gauge_emissions.get(epoch, {}).get(g.target, 0)
        rate = allotted // WEEK
        per_token = {}
        for token, deps in sorted(bribes.get(g.id, {}).items()):
            usd = [d["amountUSD"] for d in deps]
            per_token[token] = {"count": len(deps), "amountRaw": str(sum(d["amount"] for d in deps)),
                                "amountUsd": None if None in usd else math.fsum(usd)}
        usd_all = [t["amountUsd"] for t in per_token.values()]
        f0, f1, fusd = fees.get(g.target, [0, 0, []]) if g.pool is not None else (0, 0, [])
        out[g.id] = {
            **_gauge_head(g),
            "aliveAtStart": g.alive_at(epoch),
            "alive": g.alive_at(last),
            "votes": str(gov.book.weight(g.target, last)),
            "votesAtStart": str(gov.book.weight(g.target, epoch - 1)),
            "epochVoteRows": str(rows.get(g.target, 0)),
            "emissionsRaw": str(allotted),
            "rewardRate": str(rate),
            "emittedRaw": str(rate * g.alive_seconds(epoch, end)),
            "bribes": per_token,
            "bribeCount": sum(t["count"] for t in per_token.values()),
            "bribesUsd": None if None in usd_all else math.fsum(usd_all),
            "fees": ({g.pool.token0.id: str(f0), g.pool.token1.id: str(f1)} if g.pool is not None else {}),
            "feesUsd": math.fsum(fusd),
        }
    return {"chainId": sim.chain_id, "epoch": epoch, "block": block, "timestamp": ts,
            "partial": epoch + WEEK > ts, "weekly": str(gov.weekly.get(epoch, 0)), "gauges": out}


def gauge_timeline(sim, block: int) -> dict:
    ts = sim.block_ts(block)
    out = {}
    for g in sim.gov.gauges:
        if not g.exists_at(ts):
            continue
        out[g.id] = {**_gauge_head(g), "alive": g.alive_at(ts),
                     "events": [{k: e[k] for k in ("kind", "timestamp", "blockNumber", "transactionHash", "epoch")}
                                for e in g.events_until(ts)]}
    return {"chainId": sim.chain_id, "block": block, "timestamp": ts, "gauges": out}


def _allocation(sim, tid: int, ts: int) -> dict:
    gov = sim.gov
    alloc = gov.book.allocation(tid, ts)
    st = gov.lock_state(tid, ts)
    return {"owner": st[3] if st else None, "votingPower": str(gov.balance_of_nft(tid, ts)),
            "allocation": {t: str(w) for t, w in sorted(alloc.items())}, "usedWeight": str(sum(alloc.values())),
            "lastVoted": gov.book.last_voted(tid, ts)}


def venft_allocations(sim, ts: int, token_id: int | None) -> dict:
    """The current allocation (target -> weight) and voting power of one veNFT, or of every veNFT
    holding an allocation at ts."""
    gov = sim.gov
    if token_id is not None:
        if gov.lock(token_id) is None or gov.lock(token_id).created_ts > ts:
            raise LookupError(f"veNFT {token_id} does not exist at {ts}")
        tokens = {str(token_id): _allocation(sim, token_id, ts)}
    else:
        tokens = {}
        for lock in gov.locks:
            if lock.created_ts > ts:
                break
            if gov.book.allocation(lock.token_id, ts):
                tokens[str(lock.token_id)] = _allocation(sim, lock.token_id, ts)
    return {"chainId": sim.chain_id, "timestamp": ts, "block": sim.block_at(ts),
            "totalWeight": str(gov.book.total(ts)), "tokens": tokens}


def vote_event_counts(sim, epoch: int, block: int) -> dict:
    """Voter transactions per kind, logs per name, and the epoch's Vote rows per kind."""
    ts = sim.block_ts(block)
    epoch = epoch_start(epoch)
    txs: dict[str, set] = {"vote": set(), "poke": set(), "reset": set()}
    logs = {"Voted": 0, "Abstained": 0}
    for e in sim.gov.book.events:
        if e["timestamp"] > ts:
            break
        if e["epoch"] == epoch:
            txs[e["kind"]].add(e["transactionHash"])
            logs[e["eventName"]] += 1
    rows = {"vote": 0, "poke": 0, "carried": 0}
    for v in sim.gov.votes_of_epoch(epoch, ts):
        rows[v["kind"]] += 1
    return {"chainId": sim.chain_id, "epoch": epoch, "block": block, "timestamp": ts,
            "transactions": {k: len(v) for k, v in txs.items()}, "logs": logs, "voteRows": rows}


def account_venfts(sim, owner: str, block: int) -> dict:
    """The veNFTs `owner` holds at the block (the escrow's owner then, so transfers and merges
    before it count), each with its lock, voting power, allocation and last vote at the block's
    time, and the VotingEscrow events up to it with the owner on either side (sim/escrow_moves.py)."""
    gov, ts, owner = sim.gov, sim.block_ts(block), owner.lower()
    tokens = {}
    for tid in sorted(gov.tokens_of_owner(owner, ts)):
        amount, end, permanent, _ = gov.lock_state(tid, ts)
        if amount == 0:
            continue
        tokens[str(tid)] = {"locked": str(amount), "unlockTime": None if permanent else end, "permanent": permanent,
                            **_allocation(sim, tid, ts)}
    events = [e for e in gov.escrow_events if e["timestamp"] <= ts and owner in (e["from"], e["to"])]
    return {"chainId": sim.chain_id, "owner": owner, "block": block, "timestamp": ts, "tokens": tokens,
            "events": [{**e, "amount": str(e["amount"])} for e in events]}


def account_rewards(sim, owner: str, block: int, until: int | None = None) -> dict:
    """The veNFT rewards (bribes and trading fees) of `owner` at the block, from the Voter's
    checkpoints (sim/governance.py claim_rewards), never from the subgraph's rows. `until`
    (exclusive, default just after the block's time) bounds what an index has seen: the epochs
    ended by then and the claims before it.
    - `claimable`: of every veNFT the owner holds at the block (a burnt one, merged or withdrawn,
      has none: its rewards left with it), per epoch ended by `until` and target, what it earned
      and no claim before `until` took;
    - `claimed`: every claim before `until` paid to the owner (the veNFT's owner at the claim),
      whatever the veNFT's owner is now.
    A reward (veNFT, epoch, gauge, token, kind) is in at most one of them."""
    gov, ts, owner = sim.gov, sim.block_ts(block), owner.lower()
    until = ts + 1 if until is None else until
    claims = [c for c in gov.claims if c["timestamp"] < until]
    taken = {(int(c["veNFT"]), c["epoch"], c["gauge"], c["token"], c["kind"]) for c in claims}
    claimable = []
    for tid in sorted(gov.tokens_of_owner(owner, ts)):
        if gov.lock_state(tid, ts)[0] == 0:
            continue
        epoch = gov.first_epoch
        while epoch + WEEK <= until:
            for g, token, amount, kind in gov.claim_rewards(epoch, tid):
                if (tid, epoch, g.id, token.id, kind) not in taken:
                    claimable.append({"tokenId": tid, "epoch": epoch, "gauge": g.id, "token": token.id,
                                      "kind": kind, "amount": str(amount)})
            epoch += WEEK
    claimed = [{"tokenId": int(c["veNFT"]), "epoch": c["epoch"], "gauge": c["gauge"], "token": c["token"],
                "kind": c["kind"], "amount": str(c["amount"]), "amountUSD": c["amountUSD"],
                "timestamp": c["timestamp"], "blockNumber": c["blockNumber"], "transactionHash": c["transactionHash"]}
               for c in claims if gov.lock_state(int(c["veNFT"]), c["timestamp"])[3] == owner]
    return {"chainId": sim.chain_id, "owner": owner, "block": block, "timestamp": ts, "until": until,
            "claimable": claimable, "claimed": claimed}
