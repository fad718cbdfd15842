"""The Voter's allocations, as Velodrome V2's Voter keeps them.

A veNFT's allocation (target -> weight, 1e18-scaled voting power) persists across epochs until
the veNFT votes again, pokes or resets:

- `vote`: one transaction that abstains from every target of the previous allocation (one
  `Abstained` log each) and then votes the new targets (one `Voted` log each), with weights
  `power * share` at the transaction's time; sets `lastVoted`.
- `poke`: the same targets recast with the veNFT's current voting power, in proportion to the
  old weights (Abstained logs, then Voted logs); `lastVoted` unchanged.
- `reset`: Abstained logs for every target; the allocation is empty.

Operations are collected per generated hour and applied at its end in time order, so the
histories (`weights`, `totalWeight`, a veNFT's allocation, `lastVoted`) are time-ordered and
readable at any timestamp. The log index counts the logs of one transaction from 0.

The subgraph's `Vote` rows (one per epoch x veNFT x target) are the allocation in effect at the
epoch's end, each visible from the moment it took that value in the epoch: the vote or poke
transaction (`kind` "vote"/"poke"), or, for an allocation carried over unchanged, the epoch's
start (`kind` "carried", no transaction; also written at the moment a planned vote or poke of
the veNFT did not happen, e.g. its voting power had run out). A veNFT that resets in an epoch
has no row in it.
"""
from __future__ import annotations

from bisect import bisect_right

from devnet.timeutil import epoch_start


class _Series:
    """A value over time: (ts, value) appended in time order; the last value at a ts wins."""

    __slots__ = ("ts", "values")

    def __init__(self):
        self.ts: list[int] = []
        self.values: list = []

    def at(self, ts: int, default=0):
        i = bisect_right(self.ts, ts) - 1
        return self.values[i] if i >= 0 else default

    @property
    def last(self):
        return self.values[-1] if self.values else 0

    def push(self, ts: int, value) -> None:
        self.ts.append(ts)
        self.values.append(value)


class VoteBook:
    def __init__(self, gov):
        self.gov = gov
        self.chain = gov.chain
        self.events: list[dict] = []  # VoteEvent rows (Voted / Abstained logs), in chain order
        self.alloc: dict[int, dict[str, int]] = {}  # veNFT -> target -> weight (applied so far)
        self._tok: dict[int, _Series] = {}  # veNFT -> allocation snapshots
        self._target: dict[str, _Series] = {}  # target -> weight
        self._total = _Series()
        self._voted: dict[int, _Series] = {}  # veNFT -> lastVoted
        self._ops: list[tuple] = []
        self._block_logs: dict[int, int] = {}  # block -> its next log index (a block numbers its logs, as a chain does)
        # epoch -> veNFT -> target -> weight: the epoch's Vote rows (allocation at its end)
        self.epoch_alloc: dict[int, dict[int, dict[str, int]]] = {}
        self.rows_by_epoch: dict[int, list[dict]] = {}  # epoch -> its Vote rows (time order)

    # -- reads ---------------------------------------------------------------------------------
    def weight(self, target: str, ts: int) -> int:
        s = self._target.get(target)
        return s.at(ts) if s else 0

    def total(self, ts: int) -> int:
        return self._total.at(ts)

    def allocation(self, token_id: int, ts: int) -> dict[str, int]:
        s = self._tok.get(token_id)
        return s.at(ts, {}) if s else {}

    def votes(self, token_id: int, target: str, ts: int) -> int:
        return self.allocation(token_id, ts).get(target, 0)

    def used(self, token_id: int, ts: int) -> int:
        return sum(self.allocation(token_id, ts).values())

    def last_voted(self, token_id: int, ts: int) -> int:
        s = self._voted.get(token_id)
        return s.at(ts) if s else 0

    def weights_at(self, ts: int) -> dict[str, int]:
        """Every target's weight at ts (zero weights left out)."""
        out = {}
        for target, s in self._target.items():
            w = s.at(ts)
            if w:
                out[target] = w
        return out

    def holders(self) -> list[int]:
        return sorted(t for t, a in self.alloc.items() if a)

    # -- operations ------------------------------------------------------------------------------
    def add(self, ts: int, order: tuple, kind: str, token_id: int, payload, txh: str | None) -> None:
        """Queue an operation of the hour being generated; `order` breaks ties at one ts."""
        self._ops.append((ts, order, kind, token_id, payload, txh))

    def flush(self) -> None:
        ops, self._ops = sorted(self._ops, key=lambda o: (o[0], o[1])), []
        for ts, _order, kind, tid, payload, txh in ops:
            epoch = epoch_start(ts)
            if kind == "vote":
                gauges, weights = payload
                new = self._vote_weights(tid, ts, gauges, weights)
                if new:
                    self._apply(ts, epoch, tid, new, "vote", txh)
                    self._voted.setdefault(tid, _Series()).push(ts, ts)
                else:
                    self._carry(ts, epoch, tid)
            elif kind == "poke":
                new = self._poke_weights(tid, ts)
                if new:
                    self._apply(ts, epoch, tid, new, "poke", txh)
                else:
                    self._carry(ts, epoch, tid)
            elif kind == "reset":
                if self.alloc.get(tid):
                    self._apply(ts, epoch, tid, {}, "reset", txh)
            elif kind == "carry":
                self._carry(ts, epoch, tid)

    def _vote_weights(self, tid: int, ts: int, gauges, weights) -> dict[str, int]:
        power = self.gov.balance_of_nft(tid, ts)
        pairs = [(g, w) for g, w in zip(gauges, weights) if g.alive_at(ts)]
        if power <= 0 or not pairs:
            return {}
        wsum = sum(w for _, w in pairs)
        scaled = [int(w / wsum * 1_000_000) for _, w in pairs]
        total_in = sum(scaled)
        new: dict[str, int] = {}
        for (g, _w), s in zip(pairs, scaled):
            weight = power * s // total_in
            if weight > 0:
                new[g.target] = new.get(g.target, 0) + weight
        return new

    def _poke_weights(self, tid: int, ts: int) -> dict[str, int]:
        old = self.alloc.get(tid)
        if not old:
            return {}
        gauges = self.gov.gauge_by_target
        if any(not gauges[t].alive_at(ts) for t in old):  # Velodrome: GaugeNotAlive
            return {}
        power = self.gov.balance_of_nft(tid, ts)
        total = sum(old.values())
        new = {t: w * power // total for t, w in old.items()}
        return new if all(w > 0 for w in new.values()) else {}  # ZeroBalance

    def _apply(self, ts: int, epoch: int, tid: int, new: dict[str, int], kind: str, txh: str) -> None:
        c, gauges = self.chain, self.gov.gauge_by_target
        block = c.block_at(ts)
        old = self.alloc.get(tid, {})
        lock = self.gov.lock(tid)
        owner = lock.state_at(ts)[3] if lock else ""
        log = self._block_logs.get(block, 0)
        for name, items, sign in (("Abstained", sorted(old.items()), -1), ("Voted", list(new.items()), 1)):
            for target, w in items:
                s = self._target.setdefault(target, _Series())
                s.push(ts, s.last + sign * w)
                self._total.push(ts, self._total.last + sign * w)
                g = gauges[target]
                self.events.append({
                    "id": f"{txh}-{log}", "kind": kind, "eventName": name, "tokenId": tid, "veNFT": str(tid),
                    "owner": owner, "pool": g.pool.id if g.pool is not None else None, "target": target,
                    "gauge": g.id, "weight": w, "poolWeight": s.last, "totalWeight": self._total.last,
                    "epoch": epoch, "timestamp": ts, "blockNumber": block, "transactionHash": txh, "logIndex": log,
                })
                log += 1
        self._block_logs[block] = log
        self.alloc[tid] = dict(new)
        self._tok.setdefault(tid, _Series()).push(ts, dict(new))
        if new:
            self._rows(ts, epoch, tid, new, kind, txh)

    def _carry(self, ts: int, epoch: int, tid: int) -> None:
        alloc = self.alloc.get(tid)
        if alloc and tid not in self.epoch_alloc.get(epoch, {}):
            self._rows(ts, epoch, tid, alloc, "carried", None)

    def _rows(self, ts: int, epoch: int, tid: int, alloc: dict[str, int], kind: str, txh: str | None) -> None:
        gauges = self.gov.gauge_by_target
        block = self.chain.block_at(ts)
        self.epoch_alloc.setdefault(epoch, {})[tid] = dict(alloc)
        for target, w in alloc.items():
            g = gauges[target]
            row = {
                "id": f"{epoch}-{tid}-{target}",
                "epoch": epoch,
                "veNFT": str(tid),
                "pool": g.pool.id if g.pool is not None else None,
                "target": target,
                "gauge": g.id,
                "weight": w,
                "timestamp": ts,
                "blockNumber": block,
                "kind": kind,
                "transactionHash": txh,
            }
            self.gov.votes.append(row)
            self.rows_by_epoch.setdefault(epoch, []).append(row)

    def epoch_totals(self, epoch: int) -> dict[str, int]:
        """Target -> the sum of the epoch's Vote rows (its allocation at the epoch's end)."""
        out: dict[str, int] = {}
        for alloc in self.epoch_alloc.get(epoch, {}).values():
            for t, w in alloc.items():
                out[t] = out.get(t, 0) + w
        return out
