"""Write function of the `liquidity_position_snapshots` asset: for the recent snapshots
(assets.recent_rows), the owners of the positions open at the snapshot block (the subgraph's
LiquidityPosition entities), then each owner's positions from LpSugar.positions at that block
through Multicall3 (amounts, fees and emissions as the chain computes them, not as an index last
saw them), one liquidity_position_snap15m row per position, and one liquidity_position_reads row per
snapshot read (an account without rows there has no open position, not an unknown one)."""
from __future__ import annotations

from .recent_rows import drop_days_before, newest_stored, recent_from
from .rows.liquidity import COLUMNS, POSITION_TYPES, POSITIONS_SIGNATURE, position_row
from .rows.values import columns
from .snapshot_step import SnapshotStep
from .upstream import SnapshotPoint
from ..core.epochs import to_datetime
from ..readers.chain import ChainReadError

TABLE, READS = "liquidity_position_snap15m", "liquidity_position_reads"
READ_COLUMNS = ("chain_id", "snapshot_at", "block_number", "block_timestamp", "owners", "positions")
PAGE = 200  # positions per LpSugar call; an owner with a full page is asked for the next


def write_liquidity_positions(s: SnapshotStep) -> dict[str, int]:
    sugar = s.chain.config().contracts["lpSugar"]
    kept_from = recent_from([p.snapshot_at for p in s.points], newest_stored(s.client, TABLE, s.chain_id))

    def read(point: SnapshotPoint) -> tuple[dict | None, list[dict]]:
        if point.snapshot_at < kept_from:
            return None, []
        block = point.block.number
        listed = s.subgraph.paginate("liquidityPositions", "owner", block=block)
        owners = sorted({str(p["owner"]).lower() for p in listed})
        rows, offset = [], 0
        marker = {"chain_id": s.chain_id, "snapshot_at": to_datetime(point.snapshot_at), "block_number": block,
                  "block_timestamp": to_datetime(point.block.timestamp), "owners": len(owners)}
        while owners:
            answers = s.chain.reader.multicall([(sugar, POSITIONS_SIGNATURE, (PAGE, offset, o), POSITION_TYPES)
                                                for o in owners], block)
            more = []
            for owner, got in zip(owners, answers):
                if got is None:
                    raise ChainReadError(f"LpSugar {sugar}: positions({PAGE}, {offset}, {owner}) failed at block {block}")
                rows += [position_row(s.chain_id, point, owner, struct) for struct in got]
                if len(got) == PAGE:
                    more.append(owner)
            owners, offset = more, offset + PAGE
        return {**marker, "positions": len(rows)}, rows

    built = s.each(read, "liquidity positions")
    written = {TABLE: s.insert(TABLE, columns(COLUMNS, [r for _, rows in built for r in rows])),
               READS: s.insert(READS, columns(READ_COLUMNS, [m for m, _ in built if m is not None]))}
    for table in (TABLE, READS):  # a read marker never outlives its positions
        drop_days_before(s.client, table, s.chain_id, kept_from)
    return written
