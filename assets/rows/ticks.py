"""Tick tables as rows (pool_tick_sets, pool_tick_snap15m; ADR 0014): a table's identity and the
invariants a client can check, verified at capture.

A whole table's liquidityNet sums to 0 (every position adds at its lower tick what it removes at
its upper); the running sum left to right is the active liquidity between two boundaries, so it
is never negative, and over the ticks <= the current tick it equals the pool's liquidity(). A
table missing a boundary, or read at two blocks, breaks one of these.
"""
from __future__ import annotations

import hashlib
from typing import Any, Iterable

from ...readers.ticks import TickTable

SET_COLUMNS = ("chain_id", "pool_address", "set_id", "tick", "liquidity_net", "liquidity_gross")
MARKER_COLUMNS = ("chain_id", "snapshot_at", "pool_address", "block_number", "set_id", "tick_count", "current_tick",
                  "liquidity_raw", "sqrt_price_x96", "net_sum", "running_at_current", "min_running", "verified",
                  "problem")


def set_id(ticks: Iterable[tuple[int, int, int]]) -> int:
    """64-bit digest of the sorted (tick, liquidityNet, liquidityGross) triples: equal tables, equal id."""
    h = hashlib.blake2b(digest_size=8)
    for t, net, gross in ticks:
        h.update(f"{t}:{net}:{gross};".encode())
    return int.from_bytes(h.digest(), "big")


def invariants(table: TickTable) -> dict[str, Any]:
    """net_sum, running_at_current, min_running, verified and the problems found (text, '' if none)."""
    running, at_current, lowest, problems = 0, 0, 0, []
    previous = None
    for t, net, gross in table.ticks:
        if previous is not None and t <= previous:
            problems.append(f"ticks not strictly ascending at {t}")
        if gross <= 0 or abs(net) > gross:
            problems.append(f"tick {t}: liquidityGross {gross} cannot hold liquidityNet {net}")
        running += net
        lowest = min(lowest, running)
        if t <= table.current_tick:
            at_current = running
        previous = t
    if running != 0:
        problems.append(f"liquidityNet sums to {running}, not 0")
    if lowest < 0:
        problems.append(f"the running liquidity goes negative ({lowest})")
    if at_current != table.liquidity:
        problems.append(f"the running liquidity at the current tick {table.current_tick} is {at_current}, "
                        f"the pool's liquidity() is {table.liquidity}")
    return {"net_sum": running, "running_at_current": at_current, "min_running": lowest,
            "verified": int(not problems), "problem": "; ".join(problems[:4])}


def marker_row(chain_id: int, snapshot_at: Any, table: TickTable, sid: int) -> dict[str, Any]:
    return {"chain_id": chain_id, "snapshot_at": snapshot_at, "pool_address": table.pool, "block_number": table.block,
            "set_id": sid, "tick_count": len(table.ticks), "current_tick": table.current_tick,
            "liquidity_raw": table.liquidity, "sqrt_price_x96": table.sqrt_price_x96, **invariants(table)}


def set_rows(chain_id: int, table: TickTable, sid: int) -> list[dict[str, Any]]:
    return [{"chain_id": chain_id, "pool_address": table.pool, "set_id": sid, "tick": t, "liquidity_net": net,
             "liquidity_gross": gross} for t, net, gross in table.ticks]
