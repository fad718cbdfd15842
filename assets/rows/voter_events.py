"""Rows of vote_actions, gauge_events and gauge_epochs from the subgraph's VoteEvent (the Voter's
Voted and Abstained logs), GaugeEvent (gauge created, killed, revived) and GaugeEpoch (a gauge's
epoch aggregate) entities. Weights and emissions are 1e18-scaled raw integers; fees are raw in
the pool's token decimals; USD values are the subgraph's (at deposit time for bribes)."""
from __future__ import annotations

from typing import Any

from .values import columns, opt_float, ref_id, req_int, to_raw
from ...core.epochs import WEEK, epoch_start, to_datetime

VOTE_ACTION_COLUMNS = ("chain_id", "epoch", "id", "kind", "event_name", "block_timestamp", "block_number",
                       "transaction_hash", "log_index", "venft_id", "owner", "gauge_address", "pool_address", "target",
                       "weight_raw", "pool_weight_raw", "total_weight_raw")
GAUGE_EVENT_COLUMNS = ("chain_id", "gauge_address", "id", "kind", "gauge_kind", "target", "pool_address", "epoch",
                       "block_timestamp", "block_number", "transaction_hash", "log_index")
GAUGE_EPOCH_COLUMNS = ("chain_id", "epoch", "gauge_address", "gauge_kind", "target", "pool_address", "is_alive",
                       "is_partial", "votes_raw", "votes_at_start_raw", "emissions_raw", "reward_rate_raw", "emitted_raw",
                       "token0_address", "token1_address", "fees0_raw", "fees1_raw", "fees_usd", "bribes_usd",
                       "bribe_count", "unpriced_bribe_count", "read_block", "read_at")


def _log(chain_id: int, e: dict, what: str) -> dict[str, Any]:
    """The columns a log row starts with: its chain, epoch, id, block, transaction and log index."""
    ts = req_int(e.get("timestamp"), f"{what} timestamp")
    return {
        "chain_id": chain_id,
        "epoch": to_datetime(epoch_start(ts)),
        "id": str(e["id"]).lower(),
        "block_timestamp": to_datetime(ts),
        "block_number": req_int(e.get("blockNumber"), f"{what} blockNumber"),
        "transaction_hash": str(e.get("transactionHash") or "").lower(),
        "log_index": req_int(e.get("logIndex"), f"{what} logIndex"),
    }


def _lower(value: Any) -> str:
    return str(value or "").lower()


def vote_action_rows(chain_id: int, raw: list[dict]) -> dict[str, list]:
    rows = []
    for v in raw:
        what = f"vote event {v['id']}"
        rows.append({
            **_log(chain_id, v, what),
            "kind": v.get("kind") or "",
            "event_name": v.get("eventName") or "",
            "venft_id": req_int(v.get("tokenId"), f"{what} tokenId"),
            "owner": _lower(v.get("owner")),
            "gauge_address": ref_id(v.get("gauge")) or "",
            "pool_address": ref_id(v.get("pool")) or "",
            "target": _lower(v.get("target")),
            "weight_raw": to_raw(v.get("weight"), 18),
            "pool_weight_raw": to_raw(v.get("poolWeight"), 18),
            "total_weight_raw": to_raw(v.get("totalWeight"), 18),
        })
    return columns(VOTE_ACTION_COLUMNS, rows)


def gauge_event_rows(chain_id: int, raw: list[dict]) -> dict[str, list]:
    rows = []
    for g in raw:
        rows.append({
            **_log(chain_id, g, f"gauge event {g['id']}"),
            "gauge_address": ref_id(g.get("gauge")) or "",
            "kind": g.get("kind") or "",
            "gauge_kind": g.get("gaugeKind") or "",
            "target": _lower(g.get("target")),
            "pool_address": ref_id(g.get("pool")) or "",
        })
    return columns(GAUGE_EVENT_COLUMNS, rows)


def gauge_epoch_rows(chain_id: int, raw: list[dict], block: int, read_at: int) -> dict[str, list]:
    """`raw` read at `block` (whose time is `read_at`)."""
    rows = []
    for g in raw:
        what = f"gauge epoch {g['id']}"
        epoch = req_int(g.get("epoch"), f"{what} epoch")
        token0, token1 = g.get("token0") or {}, g.get("token1") or {}
        rows.append({
            "chain_id": chain_id,
            "epoch": to_datetime(epoch if epoch % WEEK == 0 else epoch_start(epoch)),
            "gauge_address": ref_id(g.get("gauge")) or "",
            "gauge_kind": g.get("kind") or "",
            "target": _lower(g.get("target")),
            "pool_address": ref_id(g.get("pool")) or "",
            "is_alive": bool(g.get("isAlive")),
            "is_partial": bool(g.get("isPartial")),
            "votes_raw": to_raw(g.get("votes"), 18),
            "votes_at_start_raw": to_raw(g.get("votesAtStart"), 18),
            "emissions_raw": to_raw(g.get("emissions"), 18),
            "reward_rate_raw": req_int(g.get("rewardRate"), f"{what} rewardRate"),
            "emitted_raw": to_raw(g.get("emitted"), 18),
            "token0_address": ref_id(token0) or "",
            "token1_address": ref_id(token1) or "",
            "fees0_raw": to_raw(g.get("fees0"), req_int(token0.get("decimals"), f"{what} token0 decimals")) if token0 else 0,
            "fees1_raw": to_raw(g.get("fees1"), req_int(token1.get("decimals"), f"{what} token1 decimals")) if token1 else 0,
            "fees_usd": opt_float(g.get("feesUSD")),
            "bribes_usd": opt_float(g.get("bribesUSD")),
            "bribe_count": req_int(g.get("bribeCount"), f"{what} bribeCount"),
            "unpriced_bribe_count": req_int(g.get("unpricedBribeCount"), f"{what} unpricedBribeCount"),
            "read_block": block,
            "read_at": to_datetime(read_at),
        })
    return columns(GAUGE_EPOCH_COLUMNS, rows)
