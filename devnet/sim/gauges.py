"""Gauges: kinds and timelines.

Two kinds: a `pool` gauge is attached to a user pool (its target is the pool); the `system`
gauge (one per chain with gauges, created at genesis) is attached to a non-pool system address
(`addresses.system_gauge_target`) and takes votes, bribes and emissions like any gauge, but has
no pool, no trading fees and no stakers. A gauge can be killed (`killGauge`: no emissions, no new
votes, existing votes stay until their veNFT votes again or resets) and revived (`reviveGauge`:
votes again at once, emissions again from the next epoch, whose split sees it alive).

Every gauge has a timeline of `created` / `killed` / `revived` events, each with timestamp,
block, transaction hash and log index 0 (one Voter transaction each).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from devnet.timeutil import epoch_start


@dataclass(eq=False)
class Gauge:
    address: str
    id: str
    pool: object  # PoolSim, None for the system gauge
    created_ts: int
    fees_reward: str
    bribe_reward: str
    killed_ts: int | None = None
    index: int = 0  # position in Voter.pools
    kind: str = "pool"  # "pool" | "system"
    target: str = ""  # lower-case: the pool's id or the system target address
    target_address: str = ""  # EIP-55
    revived_ts: int | None = None
    created_block: int = 0
    timeline: list[dict] = field(default_factory=list)

    def exists_at(self, ts: int) -> bool:
        return ts >= self.created_ts

    def alive_at(self, ts: int) -> bool:
        if ts < self.created_ts:
            return False
        if self.killed_ts is None or ts < self.killed_ts:
            return True
        return self.revived_ts is not None and ts >= self.revived_ts

    def killed_at(self, ts: int) -> int | None:
        """The kill in force at ts (None while alive or before the kill)."""
        if self.killed_ts is not None and self.killed_ts <= ts and not self.alive_at(ts):
            return self.killed_ts
        return None

    def revived_at(self, ts: int) -> int | None:
        return self.revived_ts if self.revived_ts is not None and self.revived_ts <= ts else None

    def alive_seconds(self, start: int, end: int) -> int:
        """Seconds of [start, end) during which the gauge was alive."""
        spans = [(self.created_ts, self.killed_ts if self.killed_ts is not None else end)]
        if self.revived_ts is not None:
            spans.append((self.revived_ts, end))
        return sum(max(0, min(b, end) - max(a, start)) for a, b in spans)

    def events_until(self, ts: int) -> list[dict]:
        return [e for e in self.timeline if e["timestamp"] <= ts]


def build_timeline(chain, g: Gauge) -> None:
    """The gauge's created / killed / revived events (kill and revive times are configuration)."""
    g.created_block = chain.block_at(g.created_ts)
    g.timeline = []
    for kind, ts in (("created", g.created_ts), ("killed", g.killed_ts), ("revived", g.revived_ts)):
        if ts is None:
            continue
        block = chain.block_at(ts)
        txh = chain.tx_hash(block, 0, f"gauge:{g.id}:{kind}")
        g.timeline.append({
            "id": f"{txh}-0", "gauge": g.id, "kind": kind, "gaugeKind": g.kind, "target": g.target,
            "pool": g.pool.id if g.pool is not None else None, "epoch": epoch_start(ts), "timestamp": ts,
            "blockNumber": block, "transactionHash": txh, "logIndex": 0,
        })
