"""liquidity_events rows from the subgraph's LiquidityEvent entities (migration 084)."""
from __future__ import annotations

from typing import Any

from .values import columns, lower_text, opt_int, ref_id, req_int
from ...core.epochs import to_datetime

KINDS = ("v2Add", "v2Remove", "v2Stake", "v2Unstake", "clMint", "clStake", "clUnstake", "clCollect", "clBurn", "claim")
_TOKEN = "id symbol decimals"
FIELDS = (f"id kind owner tokenId pool {{ id token0 {{ {_TOKEN} }} token1 {{ {_TOKEN} }} }} lp liquidity "
          f"tickLower tickUpper amount0 amount1 fees0 fees1 emissions emissionsToken {{ {_TOKEN} }} staked timestamp "
          "blockNumber transactionHash logIndex")
COLUMNS = ("chain_id", "id", "kind", "owner", "pool_address", "position_id", "token_id", "token0_address",
           "token0_symbol", "token0_decimals", "token1_address", "token1_symbol", "token1_decimals", "lp_raw",
           "liquidity_raw", "tick_lower", "tick_upper", "amount0_raw", "amount1_raw", "fees0_raw", "fees1_raw",
           "emissions_raw", "emissions_token", "emissions_symbol", "emissions_decimals", "staked", "block_timestamp",
           "block_number", "transaction_hash", "log_index")


def _token(prefix: str, t: dict | None) -> dict[str, Any]:
    t = t or {}
    return {f"{prefix}_address" if prefix != "emissions" else "emissions_token": lower_text(t.get("id")),
            f"{prefix}_symbol": str(t.get("symbol") or ""), f"{prefix}_decimals": opt_int(t.get("decimals"))}


def liquidity_event_rows(chain_id: int, raw: list[dict]) -> dict[str, list]:
    rows = []
    for e in raw:
        what = f"liquidity event {e.get('id')}"
        kind = e.get("kind")
        if kind not in KINDS:  # an event this release does not know: refused, not guessed at
            raise ValueError(f"{what}: unknown kind {kind!r}")
        pool = e.get("pool") or {}
        staked, nft, address = e.get("staked"), opt_int(e.get("tokenId")), ref_id(pool) or ""
        rows.append({
            "chain_id": chain_id, "id": lower_text(e.get("id")), "kind": kind, "owner": lower_text(e.get("owner")),
            # the position as /v1/accounts/{address}/liquidity-positions names it (an owner's v2 LP of a pool is one)
            "pool_address": address, "position_id": f"cl:{nft}" if nft is not None else f"v2:{address}",
            "token_id": nft, **_token("token0", pool.get("token0")),
            **_token("token1", pool.get("token1")), "lp_raw": opt_int(e.get("lp")),
            "liquidity_raw": opt_int(e.get("liquidity")), "tick_lower": opt_int(e.get("tickLower")),
            "tick_upper": opt_int(e.get("tickUpper")), "amount0_raw": opt_int(e.get("amount0")),
            "amount1_raw": opt_int(e.get("amount1")), "fees0_raw": opt_int(e.get("fees0")),
            "fees1_raw": opt_int(e.get("fees1")), "emissions_raw": opt_int(e.get("emissions")),
            **_token("emissions", e.get("emissionsToken")), "staked": None if staked is None else int(bool(staked)),
            "block_timestamp": to_datetime(req_int(e.get("timestamp"), f"{what} timestamp")),
            "block_number": req_int(e.get("blockNumber"), f"{what} blockNumber"),
            "transaction_hash": lower_text(e.get("transactionHash")),
            "log_index": req_int(e.get("logIndex"), f"{what} logIndex"),
        })
    return columns(COLUMNS, rows)
