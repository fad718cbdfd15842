"""Rows of bribe_events, vote_events and claim_events from the subgraph's Bribe, Vote and Claim
entities. USD values are the subgraph's amountUSD: the value at deposit (bribes) or claim
(claims) time; token amounts are exact raw integers. pool_address is the Voter's pool of the
gauge: for a system gauge (no user pool) its target, with gauge_kind 'system'."""
from __future__ import annotations

from typing import Any

from .values import columns, opt_float, ref_id, req_int, to_raw, voter_pool
from ...core.epochs import WEEK, epoch_start, to_datetime

BRIBE_COLUMNS = ("chain_id", "epoch", "id", "block_timestamp", "block_number", "transaction_hash", "gauge_address",
                 "pool_address", "token_address", "token_symbol", "token_decimals", "amount_raw", "amount_usd",
                 "sender", "is_foundation", "gauge_kind")
VOTE_COLUMNS = ("chain_id", "epoch", "id", "block_timestamp", "block_number", "venft_id", "owner", "is_foundation",
                "gauge_address", "pool_address", "weight_raw", "gauge_kind")
CLAIM_COLUMNS = ("chain_id", "epoch", "id", "block_timestamp", "block_number", "transaction_hash", "venft_id",
                 "owner", "is_foundation", "kind", "gauge_address", "pool_address", "token_address", "token_symbol",
                 "token_decimals", "amount_raw", "amount_usd", "gauge_kind")


def _event(chain_id: int, e: dict, what: str) -> dict[str, Any]:
    """The columns every event row starts with: chain, epoch, id, block time and number."""
    ts = req_int(e.get("timestamp"), f"{what} timestamp")
    epoch = req_int(e.get("epoch"), f"{e.get('id')} epoch")
    return {
        "chain_id": chain_id,
        "epoch": to_datetime(epoch if epoch % WEEK == 0 else epoch_start(epoch)),
        "id": str(e["id"]).lower(),
        "block_timestamp": to_datetime(ts),
        "block_number": req_int(e.get("blockNumber"), f"{what} blockNumber"),
    }


def _voter_pool(e: dict) -> dict[str, Any]:
    """The gauge columns: its address, the Voter's pool of it (a system gauge's target) and kind."""
    return {"gauge_address": ref_id(e.get("gauge")) or "", "pool_address": voter_pool(e),
            "gauge_kind": "system" if e.get("target") and not ref_id(e.get("pool")) else "pool"}


def _paid(e: dict, token: dict, decimals: int) -> dict[str, Any]:
    """The token columns of a bribe or claim: what was paid, exactly and in USD."""
    return {
        "token_address": ref_id(token) or "",
        "token_symbol": token.get("symbol") or "",
        "token_decimals": decimals,
        "amount_raw": to_raw(e.get("amount"), decimals),
        "amount_usd": opt_float(e.get("amountUSD")),
    }


def bribe_rows(chain_id: int, raw: list[dict]) -> dict[str, list]:
    rows = []
    for b in raw:
        token = b.get("token") or {}
        decimals = req_int(token.get("decimals"), f"bribe {b['id']} token decimals")
        rows.append({
            **_event(chain_id, b, f"bribe {b['id']}"),
            "transaction_hash": str(b.get("transactionHash") or "").lower(),
            **_voter_pool(b),
            **_paid(b, token, decimals),
            "sender": str(b.get("from") or "").lower(),
            "is_foundation": bool(b.get("isFoundation")),
        })
    return columns(BRIBE_COLUMNS, rows)


def vote_rows(chain_id: int, raw: list[dict]) -> dict[str, list]:
    rows = []
    for v in raw:
        nft = v.get("veNFT") or {}
        rows.append({
            **_event(chain_id, v, f"vote {v['id']}"),
            "venft_id": req_int(ref_id(nft), f"vote {v['id']} veNFT"),
            "owner": str(nft.get("owner") or "").lower(),
            "is_foundation": bool(nft.get("isFoundation")),
            **_voter_pool(v),
            "weight_raw": to_raw(v.get("weight"), 18),
        })
    return columns(VOTE_COLUMNS, rows)


def claim_rows(chain_id: int, raw: list[dict]) -> dict[str, list]:
    rows = []
    for c in raw:
        token = c.get("token") or {}
        nft = c.get("veNFT") or {}
        decimals = req_int(token.get("decimals"), f"claim {c['id']} token decimals")
        rows.append({
            **_event(chain_id, c, f"claim {c['id']}"),
            "transaction_hash": str(c.get("transactionHash") or "").lower(),
            "venft_id": req_int(ref_id(nft), f"claim {c['id']} veNFT"),
            "owner": str(c.get("owner") or "").lower(),
            "is_foundation": bool(nft.get("isFoundation")),
            "kind": c.get("kind") or "",
            **_voter_pool(c),
            **_paid(c, token, decimals),
        })
    return columns(CLAIM_COLUMNS, rows)
