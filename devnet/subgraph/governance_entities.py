"""Governance entities beyond the original schema: Voter logs (`VoteEvent`), VotingEscrow logs
(`EscrowEvent`: lock operations, transfers, merges, splits and rebase deposits), gauge timelines
(`GaugeEvent`) and per-epoch gauge aggregates (`GaugeEpoch`, as Velodrome's indexers keep
per-epoch gauge data). Rows as of the block read; see devnet/README.md for the fields."""
from __future__ import annotations

import math
from bisect import bisect_left

from devnet.timeutil import WEEK, epoch_start
from devnet.subgraph.schema import Units
from devnet.subgraph.store import EventStore

_WEIGHTS = ("weight", "poolWeight", "totalWeight")


def _vote_event_view(row, ctx) -> dict:
    out = dict(row)
    for f in _WEIGHTS:
        out[f] = Units(row[f], 18)
    return out


def vote_event_store(sim) -> EventStore:
    book = sim.gov.book
    return EventStore("VoteEvent", lambda: book.events, lambda r: r["timestamp"], lambda r: r["id"],
                      {"veNFT": lambda r: r["veNFT"], "gauge": lambda r: r["gauge"], "pool": lambda r: r["pool"],
                       "epoch": lambda r: r["epoch"]},
                      _vote_event_view, ("timestamp", "blockNumber"))


def _escrow_event_view(row, ctx) -> dict:
    return {**row, "amount": Units(row["amount"], 18)}


def escrow_event_store(sim) -> EventStore:
    gov = sim.gov
    return EventStore("EscrowEvent", lambda: gov.escrow_events, lambda r: r["timestamp"], lambda r: r["id"],
                      {"veNFT": lambda r: r["veNFT"]}, _escrow_event_view, ("timestamp", "blockNumber"))


def gauge_events(ctx) -> dict[str, dict]:
    out = {}
    for g in ctx.sim.gov.gauges:
        for e in g.events_until(ctx.ts):
            out[e["id"]] = e
    return out


def _epoch_fees(sim, pool, start: int, end: int) -> tuple[int, int, float]:
    """Raw fees per token and their USD over start <= ts < end (pool.epoch_fees for a whole epoch)."""
    if end - start == WEEK:
        f0, f1 = pool.epoch_fees.get(start, (0, 0))
    else:
        f0 = f1 = 0
        i, j = bisect_left(sim.swap_ts, start), bisect_left(sim.swap_ts, end)
        for sw in sim.swaps[i:j]:
            if sw.pool is not pool:
                continue
            if sw.amount0 > 0:
                f0 += sw.fee_amount
            else:
                f1 += sw.fee_amount
    i, j = bisect_left(pool.ev_ts, start), bisect_left(pool.ev_ts, end)
    return f0, f1, math.fsum(pool.ev_fees[i:j])


def gauge_epochs(ctx) -> dict[str, dict]:
    """One row per gauge and epoch since the gauge's creation, up to the block's epoch (partial)."""
    sim, ts = ctx.sim, ctx.ts
    gov = sim.gov
    now_epoch = epoch_start(ts)
    bribes: dict[tuple[int, str], list] = {}
    for b in gov.bribes:
        if b["timestamp"] > ts:
            break
        bribes.setdefault((b["epoch"], b["gauge"]), []).append(b["amountUSD"])
    out = {}
    for g in gov.gauges:
        if not g.exists_at(ts):
            continue
        e = max(epoch_start(g.created_ts), gov.first_epoch)
        while e <= now_epoch:
            end = min(e + WEEK, ts + 1)
            partial = e + WEEK > ts
            rows = gov.votes_of_epoch(e, ts) if partial else None
            votes = (sum(v["weight"] for v in rows if v["target"] == g.target) if partial
                     else gov.book.epoch_totals(e).get(g.target, 0))
            allotted = gov.gauge_emissions.get(e, {}).get(g.target, 0)
            rate = allotted // WEEK
            paid = bribes.get((e, g.id), [])
            priced = [u for u in paid if u is not None]
            p = g.pool
            f0, f1, fusd = _epoch_fees(sim, p, e, end) if p is not None else (0, 0, 0.0)
            rid = f"{e}-{g.id}"
            out[rid] = {
                "id": rid, "epoch": e, "gauge": g.id, "kind": g.kind, "target": g.target,
                "pool": p.id if p is not None else None, "isAlive": g.alive_at(end - 1), "isPartial": partial,
                "votes": Units(votes, 18), "votesAtStart": Units(gov.book.weight(g.target, e - 1), 18),
                "emissions": Units(allotted, 18), "rewardRate": rate,
                "emitted": Units(rate * g.alive_seconds(e, end), 18),
                "token0": p.token0.id if p is not None else None, "token1": p.token1.id if p is not None else None,
                "fees0": Units(f0, p.token0.decimals) if p is not None else Units(0, 0),
                "fees1": Units(f1, p.token1.decimals) if p is not None else Units(0, 0),
                "feesUSD": fusd, "bribesUSD": math.fsum(priced) if len(priced) == len(paid) else None,
                "bribeCount": len(paid), "unpricedBribeCount": len(paid) - len(priced),
            }
            e += WEEK
    return out


__all__ = ["vote_event_store", "gauge_events", "gauge_epochs"]
