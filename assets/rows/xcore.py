"""Rows of xcore_events (the subgraph's XcoreEvent entity) and xcore_snap15m (the token's views
read through Multicall3 at a snapshot block), and the calls behind the snapshot row.

The canonical chain (its book entry has contracts.xcoreAdapter) holds the backing: its token
answers the vault-style views (asset, totalAssets, convertToAssets) and its adapter the shares it
locks for the bridged representations. A representation answers ERC-20 views only. Raw integers
throughout; a view that fails on a deployed token fails the snapshot (never a zero in its place).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .values import columns, lower_text, opt_int, req_int
from ...core.epochs import to_datetime
from ...readers.chain import Call, ChainReadError

if TYPE_CHECKING:
    from ..upstream import SnapshotPoint

KINDS = ("deposit", "exit", "compound", "distribution", "bridgeOut", "bridgeIn")
FIELDS = ("id chainId kind account amount shares penalty oldRatio newRatio supply backing adapterLocked epoch guid "
          "srcChainId dstChainId timestamp blockNumber transactionHash logIndex")
EVENT_COLUMNS = ("chain_id", "id", "kind", "account", "amount_raw", "shares_raw", "penalty_raw", "old_ratio_raw",
                 "new_ratio_raw", "supply_raw", "backing_raw", "adapter_locked_raw", "epoch_start", "guid",
                 "src_chain_id", "dst_chain_id", "block_timestamp", "block_number", "transaction_hash", "log_index")
SNAPSHOT_COLUMNS = ("chain_id", "snapshot_at", "block_number", "block_timestamp", "role", "token_address", "token_name",
                    "token_symbol", "token_decimals", "asset_address", "adapter_address", "supply_raw", "backing_raw",
                    "ratio_raw", "adapter_locked_raw", "exit_penalty_bps")
ONE_SHARE = 10 ** 18  # convertToAssets(1 xCORE) is the ratio, CORE per xCORE x 1e18

# (name, signature, arguments, output types) of the token's views
ERC20_VIEWS: tuple[tuple[str, str, tuple, tuple[str, ...]], ...] = (
    ("name", "name()", (), ("string",)),
    ("symbol", "symbol()", (), ("string",)),
    ("decimals", "decimals()", (), ("uint8",)),
    ("totalSupply", "totalSupply()", (), ("uint256",)),
)
CANONICAL_VIEWS = ERC20_VIEWS + (
    ("asset", "asset()", (), ("address",)),
    ("adapter", "adapter()", (), ("address",)),
    ("totalAssets", "totalAssets()", (), ("uint256",)),
    ("ratio", "convertToAssets(uint256)", (ONE_SHARE,), ("uint256",)),
    ("exitPenaltyBps", "exitPenaltyBps()", (), ("uint256",)),
)
LOCKED_VIEW = ("lockedAmount()", (), ("uint256",))  # on the adapter


def xcore_event_rows(chain_id: int, raw: list[dict]) -> dict[str, list]:
    rows = []
    for e in raw:
        what = f"xCORE event {e.get('id')}"
        kind = e.get("kind")
        if kind not in KINDS:  # an event this release does not know: refused, not guessed at
            raise ValueError(f"{what}: unknown kind {kind!r}")
        rows.append({
            "chain_id": chain_id,
            "id": lower_text(e.get("id")),
            "kind": kind,
            "account": lower_text(e.get("account")),
            "amount_raw": opt_int(e.get("amount")),
            "shares_raw": req_int(e.get("shares"), f"{what} shares"),
            "penalty_raw": opt_int(e.get("penalty")),
            "old_ratio_raw": opt_int(e.get("oldRatio")),
            "new_ratio_raw": opt_int(e.get("newRatio")),
            "supply_raw": req_int(e.get("supply"), f"{what} supply"),
            "backing_raw": opt_int(e.get("backing")),
            "adapter_locked_raw": opt_int(e.get("adapterLocked")),
            "epoch_start": to_datetime(req_int(e.get("epoch"), f"{what} epoch")),
            "guid": lower_text(e.get("guid")),
            "src_chain_id": opt_int(e.get("srcChainId")) or 0,
            "dst_chain_id": opt_int(e.get("dstChainId")) or 0,
            "block_timestamp": to_datetime(req_int(e.get("timestamp"), f"{what} timestamp")),
            "block_number": req_int(e.get("blockNumber"), f"{what} blockNumber"),
            "transaction_hash": lower_text(e.get("transactionHash")),
            "log_index": req_int(e.get("logIndex"), f"{what} logIndex"),
        })
    return columns(EVENT_COLUMNS, rows)


def view_calls(token: str, canonical: bool) -> list[Call]:
    return [(token, sig, args, outputs) for _, sig, args, outputs in (CANONICAL_VIEWS if canonical else ERC20_VIEWS)]


def views(answers: list[Any], canonical: bool, token: str, block: int) -> dict[str, Any]:
    names = [name for name, *_ in (CANONICAL_VIEWS if canonical else ERC20_VIEWS)]
    got = dict(zip(names, answers))
    failed = sorted(n for n, v in got.items() if v is None)
    if failed:
        raise ChainReadError(f"xCORE token {token}: reads failed at block {block}: {failed}")
    return got


def snapshot_row(chain_id: int, point: "SnapshotPoint", token: str, got: dict[str, Any],
                 adapter_locked: int | None) -> dict[str, Any]:
    """The chain's row: `got` from `views`; `adapter_locked` only on the canonical chain."""
    canonical = "ratio" in got
    return {
        "chain_id": chain_id,
        "snapshot_at": to_datetime(point.snapshot_at),
        "block_number": point.block.number,
        "block_timestamp": to_datetime(point.block.timestamp),
        "role": "canonical" if canonical else "representation",
        "token_address": token.lower(),
        "token_name": got["name"],
        "token_symbol": got["symbol"],
        "token_decimals": int(got["decimals"]),
        "asset_address": lower_text(got.get("asset")),
        "adapter_address": lower_text(got.get("adapter")),
        "supply_raw": int(got["totalSupply"]),
        "backing_raw": got.get("totalAssets"),
        "ratio_raw": got.get("ratio"),
        "adapter_locked_raw": adapter_locked,
        "exit_penalty_bps": got.get("exitPenaltyBps"),
    }


def snapshot_columns(rows: list[dict[str, Any]]) -> dict[str, list]:
    return columns(SNAPSHOT_COLUMNS, rows)
