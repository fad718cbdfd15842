"""Liquidity providers' entities (devnet/sim/liquidity.py): `LiquidityPosition`, the positions
open at the block (a state entity), and `LiquidityEvent`, their adds, removals, mints, burns,
stakes, unstakes, collects and claims (an event entity, visible once its timestamp is <= the
block's)."""
from __future__ import annotations

from devnet.subgraph.store import EventStore

_FIELDS = ("kind", "owner", "pool", "position", "tokenId", "lp", "liquidity", "tickLower", "tickUpper", "amount0",
           "amount1", "fees0", "fees1", "emissions", "staked", "timestamp", "blockNumber", "transactionHash",
           "logIndex", "id")


def liquidity_positions(ctx) -> dict[str, dict]:
    out = {}
    for pos in ctx.sim.liquidity.positions.values():
        found = pos.state_at(ctx.ts)
        if found is None:
            continue
        amount, staked, lower, upper = found[1][:4]
        if amount == 0 and staked == 0:
            continue
        out[pos.key] = {"id": pos.key, "kind": pos.kind, "owner": pos.owner, "pool": pos.pool.id,
                        "tokenId": pos.token_id, "tickLower": lower, "tickUpper": upper, "liquidity": amount,
                        "staked": staked, "createdAtTimestamp": pos.created_ts}
    return out


def liquidity_event_store(sim) -> EventStore:
    return EventStore("LiquidityEvent", lambda: sim.liquidity.events, lambda r: r["timestamp"], lambda r: r["id"],
                      {"owner": lambda r: r["owner"], "pool": lambda r: r["pool"], "kind": lambda r: r["kind"]},
                      lambda r, ctx: _event_view(r, ctx.sim.core.id), ("timestamp", "blockNumber"))


def _event_view(row: dict, core: str) -> dict:
    """The event's fields; `emissionsToken` (the chain's core token) on those that paid emissions."""
    return {**{k: row.get(k) for k in _FIELDS}, "emissionsToken": core if row.get("emissions") is not None else None}


__all__ = ["liquidity_event_store", "liquidity_positions"]
