"""Write function of the tick snapshot asset (ADR 0014): every concentrated-liquidity pool's
initialized ticks at each snapshot block, read through the chain book's tick lens
(readers.ticks), verified (assets.rows.ticks), each distinct table stored once (pool_tick_sets)
and a marker per pool and snapshot (pool_tick_snap15m).

The pools are the subgraph's CL pools at the run's last block; at an earlier block a pool not yet
created is left out (its slot0() reverts there). Tables go in before the markers that name them,
so a reader never finds a marker without its table.
"""
from __future__ import annotations

from .rows.ticks import MARKER_COLUMNS, SET_COLUMNS, marker_row, set_id, set_rows
from .rows.values import columns
from .snapshot_step import SnapshotStep
from .upstream import SnapshotPoint
from .writers import query_rows
from ..core.epochs import to_datetime
from ..readers.ticks import TickTable, read_tick_tables


def cl_pools(s: SnapshotStep, block: int) -> list[str]:
    pools = s.subgraph.paginate("pools", "id tickSpacing", block=block)
    return sorted(p["id"].lower() for p in pools if p.get("tickSpacing") is not None)


def write_ticks(s: SnapshotStep) -> dict[str, int]:
    lens = s.chain.contracts().get("tickLens")
    if not lens:
        s.warnings.append(f"chain {s.chain_id}: the chain book names no tickLens; ticks are not materialized")
        return {"pool_tick_sets": 0, "pool_tick_snap15m": 0}
    pools = cl_pools(s, max(p.block.number for p in s.points))

    def read(point: SnapshotPoint) -> list[tuple[int, TickTable]]:
        tables = read_tick_tables(s.chain.reader, lens, pools, point.block.number)
        return [(point.snapshot_at, t) for t in tables.values()]

    read_tables = [(at, t, set_id(t.ticks)) for at, t in s.rows_each(read, "ticks")]
    stored = {(r["pool_address"], int(r["set_id"])) for r in query_rows(
        s.client, "snapshots/stored_tick_sets.sql",
        {"chain_id": s.chain_id, "pools": pools, "set_ids": sorted({sid for *_, sid in read_tables})})}
    new_sets: list[dict] = []
    for _, table, sid in read_tables:
        if (table.pool, sid) not in stored:
            stored.add((table.pool, sid))
            new_sets += set_rows(s.chain_id, table, sid)
    markers = [marker_row(s.chain_id, to_datetime(at), t, sid) for at, t, sid in read_tables]
    unverified = sorted({f"{m['pool_address']}: {m['problem']}" for m in markers if not m["verified"]})
    s.warnings.extend(f"tick table not verified, {text}" for text in unverified[:10])
    return {"pool_tick_sets": s.insert("pool_tick_sets", columns(SET_COLUMNS, new_sets)),
            "pool_tick_snap15m": s.insert("pool_tick_snap15m", columns(MARKER_COLUMNS, markers))}
