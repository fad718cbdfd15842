"""Rows of ve_snap15m (vote-escrow totals and lock counts), venft_snap15m (each lock and its
voting power) and foundation_snap15m / foundation_vote_snap15m (the foundation's veNFTs and this
epoch's votes), at one snapshot block."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .values import ref_id, req_int, to_raw
from ...core.epochs import epoch_start, to_datetime

if TYPE_CHECKING:
    from ..upstream import SnapshotPoint
    from ...readers.chain import GovernanceState

VE_COLUMNS = ("chain_id", "snapshot_at", "block_number", "locked_raw", "voting_power_raw", "permanent_locked_raw",
              "decaying_locked_raw", "lock_count", "permanent_lock_count", "decaying_lock_count",
              "expired_lock_count", "avg_remaining_lock_seconds")
VENFT_COLUMNS = ("chain_id", "snapshot_at", "block_number", "block_timestamp", "venft_id", "owner", "locked_raw",
                 "unlock_time", "permanent", "voting_power_raw")
MAXTIME = 4 * 365 * 86400  # VotingEscrow's longest lock
FOUNDATION_COLUMNS = ("chain_id", "snapshot_at", "block_number", "epoch_start", "wallet", "venft_ids", "locked_raw",
                      "voting_power_raw", "votes_epoch_raw", "vote_count", "voted_pool_count")
FOUNDATION_VOTE_COLUMNS = ("chain_id", "snapshot_at", "epoch_start", "venft_id", "pool_address", "gauge_address",
                           "weight_raw", "voted_at")


def ve_row(chain_id: int, point: "SnapshotPoint", gov: "GovernanceState", locks: list[dict]) -> dict[str, Any]:
    """VotingEscrow totals (chain) with lock counts and the average remaining lock (veNFTs)."""
    block, now = point.block.number, point.block.timestamp
    permanent = decaying = expired = 0
    remaining: list[int] = []
    for lk in locks:
        if to_raw(lk.get("lockedAmount"), 18) <= 0:
            continue
        if lk.get("isPermanent"):
            permanent += 1
            continue
        unlock = req_int(lk.get("unlockTime"), f"veNFT {lk.get('id')} unlockTime")
        if unlock > now:
            decaying += 1
            remaining.append(unlock - now)
        else:
            expired += 1
    return {
        "chain_id": chain_id,
        "snapshot_at": to_datetime(point.snapshot_at),
        "block_number": block,
        "locked_raw": gov.ve_locked_raw,
        "voting_power_raw": gov.ve_voting_power_raw,
        "permanent_locked_raw": gov.ve_permanent_raw,
        "decaying_locked_raw": max(gov.ve_locked_raw - gov.ve_permanent_raw, 0),
        "lock_count": permanent + decaying + expired,
        "permanent_lock_count": permanent,
        "decaying_lock_count": decaying,
        "expired_lock_count": expired,
        "avg_remaining_lock_seconds": (sum(remaining) / len(remaining)) if remaining else None,
    }


def voting_power(locked: int, unlock: int | None, now: int) -> int:
    """VotingEscrow's voting power of a lock at `now`: the amount if permanent (no unlock time),
    else amount * (unlock - now) / MAXTIME in integer division, 0 once unlocked."""
    if unlock is None:
        return locked
    return locked * (unlock - now) // MAXTIME if unlock > now else 0


def venft_rows(chain_id: int, point: "SnapshotPoint", locks: list[dict]) -> list[dict[str, Any]]:
    """One venft_snap15m row per veNFT with a locked amount, its voting power at the block's time."""
    block, now = point.block.number, point.block.timestamp
    rows = []
    for lk in locks:
        locked = to_raw(lk.get("lockedAmount"), 18)
        if locked <= 0:
            continue
        unlock = None if lk.get("isPermanent") else req_int(lk.get("unlockTime"), f"veNFT {lk.get('id')} unlockTime")
        rows.append({"chain_id": chain_id, "snapshot_at": to_datetime(point.snapshot_at), "block_number": block,
                     "block_timestamp": to_datetime(now), "venft_id": req_int(ref_id(lk), "veNFT id"),
                     "owner": str(lk.get("owner") or "").lower(), "locked_raw": locked,
                     "unlock_time": None if unlock is None else to_datetime(unlock), "permanent": int(unlock is None),
                     "voting_power_raw": voting_power(locked, unlock, now)})
    return rows


def foundation_ids(nfts: list[dict]) -> list[int]:
    """The foundation's veNFT ids, sorted."""
    return sorted(req_int(ref_id(n), "veNFT id") for n in nfts)


def foundation_rows(chain_id: int, point: "SnapshotPoint", nfts: list[dict], votes: list[dict]
                    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(the foundation_snap15m row, its foundation_vote_snap15m rows) of one snapshot."""
    block, at = point.block.number, point.snapshot_at
    epoch = epoch_start(at)
    vote_rows = [{
        "chain_id": chain_id,
        "snapshot_at": to_datetime(at),
        "epoch_start": to_datetime(epoch),
        "venft_id": req_int(ref_id(v.get("veNFT")), "vote veNFT"),
        "pool_address": ref_id(v.get("pool")) or "",
        "gauge_address": ref_id(v.get("gauge")) or "",
        "weight_raw": to_raw(v.get("weight"), 18),
        "voted_at": to_datetime(req_int(v.get("timestamp"), "vote timestamp")),
    } for v in votes]
    owners = sorted({str(n.get("owner") or "").lower() for n in nfts} - {""})
    summary = {
        "chain_id": chain_id,
        "snapshot_at": to_datetime(at),
        "block_number": block,
        "epoch_start": to_datetime(epoch),
        "wallet": owners[0] if len(owners) == 1 else ",".join(owners),
        "venft_ids": foundation_ids(nfts),
        "locked_raw": sum(to_raw(n.get("lockedAmount"), 18) for n in nfts),
        "voting_power_raw": sum(to_raw(n.get("votingPower"), 18) for n in nfts),
        "votes_epoch_raw": sum(r["weight_raw"] for r in vote_rows),
        "vote_count": len(vote_rows),
        "voted_pool_count": len({r["pool_address"] for r in vote_rows}),
    }
    return summary, vote_rows
