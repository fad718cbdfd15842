"""liquidity_position_snap15m rows from LpSugar.positions answers (Velodrome's Sugar Position
struct; assets/liquidity_snapshots.py reads them): one row per open position of an account."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.epochs import to_datetime

if TYPE_CHECKING:
    from ..upstream import SnapshotPoint

POSITIONS_SIGNATURE = "positions(uint256,uint256,address)"
POSITION_TYPES = ("(uint256,address,uint256,uint256,uint256,uint256,uint256,uint256,uint256,uint256,uint256,"
                  "int24,int24,uint160,uint160,address)[]",)
COLUMNS = ("account", "chain_id", "snapshot_at", "position_id", "block_number", "block_timestamp", "kind",
           "pool_address", "token_id", "liquidity_raw", "staked_raw", "amount0_raw", "amount1_raw", "staked0_raw",
           "staked1_raw", "fees0_raw", "fees1_raw", "emissions_raw", "tick_lower", "tick_upper")


def position_row(chain_id: int, point: "SnapshotPoint", account: str, struct: tuple) -> dict[str, Any]:
    """One Sugar Position of `account`: CL when its id (the NFT's) is not 0, as Sugar marks it; a v2
    one is keyed by its pool (one per account and pool)."""
    (nft, pool, liquidity, staked, a0, a1, s0, s1, f0, f1, emissions, lower, upper, *_rest) = struct
    pool = pool.lower()
    cl = nft != 0
    return {"account": account, "chain_id": chain_id, "snapshot_at": to_datetime(point.snapshot_at),
            "position_id": f"cl:{nft}" if cl else f"v2:{pool}", "block_number": point.block.number,
            "block_timestamp": to_datetime(point.block.timestamp), "kind": "cl" if cl else "v2",
            "pool_address": pool, "token_id": nft if cl else None, "liquidity_raw": liquidity, "staked_raw": staked,
            "amount0_raw": a0, "amount1_raw": a1, "staked0_raw": s0, "staked1_raw": s1, "fees0_raw": f0,
            "fees1_raw": f1, "emissions_raw": emissions, "tick_lower": lower if cl else None,
            "tick_upper": upper if cl else None}
