"""Rows of the rewards distributor's tables (migrations 085-087) from the subgraph's RebaseCheckpoint
and RebaseClaim entities and the veNFTs' voting power at each checkpointed epoch's start.
Amounts are the core token's raw integers."""
from __future__ import annotations

from .values import columns, lower_text, opt_float, req_int, to_raw
from ...core.epochs import to_datetime

EPOCH_COLUMNS = ("chain_id", "epoch", "amount_raw", "ve_supply_raw", "token_address", "token_symbol",
                 "token_decimals", "venfts", "block_timestamp", "block_number", "transaction_hash")
VENFT_COLUMNS = ("chain_id", "venft_id", "epoch", "power_raw", "rebase_raw")
CLAIM_COLUMNS = ("chain_id", "id", "venft_id", "owner", "from_epoch", "to_epoch", "amount_raw", "amount_usd", "to_lock",
                 "token_address", "token_symbol", "token_decimals", "block_timestamp", "block_number",
                 "transaction_hash", "log_index")


def rebase_shares(amount: int, ve_supply: int, powers: dict[int, int]) -> list[tuple[int, int, int]]:
    """(veNFT, power, rebase) of every veNFT with power at the epoch's start: its part of the epoch's
    rebase, power * amount // veSupply (RewardsDistributor's order of operations)."""
    return [(tid, p, p * amount // ve_supply) for tid, p in sorted(powers.items()) if p > 0 and ve_supply > 0]


def rebase_rows(chain_id: int, checkpoints: list[dict], powers: dict[int, dict[int, int]],
                token: tuple[str, str, int]) -> tuple[dict[str, list], dict[str, list]]:
    """(rebase_epochs, venft_rebases) columns of the checkpoints; `powers`: epoch -> veNFT -> power."""
    epochs, venfts = [], []
    for c in checkpoints:
        what = f"rebase checkpoint {c.get('id')}"
        epoch = req_int(c.get("epoch"), f"{what} epoch")
        amount, supply = to_raw(c.get("amount"), 18), to_raw(c.get("veSupply"), 18)  # CORE units, exact
        shares = rebase_shares(amount, supply, powers[epoch])
        epochs.append({"chain_id": chain_id, "epoch": to_datetime(epoch), "amount_raw": amount, "ve_supply_raw": supply,
                       "token_address": token[0], "token_symbol": token[1], "token_decimals": token[2],
                       "venfts": len(shares),
                       "block_timestamp": to_datetime(req_int(c.get("timestamp"), f"{what} timestamp")),
                       "block_number": req_int(c.get("blockNumber"), f"{what} blockNumber"),
                       "transaction_hash": lower_text(c.get("transactionHash"))})
        venfts += [{"chain_id": chain_id, "venft_id": tid, "epoch": to_datetime(epoch), "power_raw": p, "rebase_raw": r}
                   for tid, p, r in shares]
    return columns(EPOCH_COLUMNS, epochs), columns(VENFT_COLUMNS, venfts)


def rebase_claim_rows(chain_id: int, raw: list[dict], token: tuple[str, str, int]) -> dict[str, list]:
    rows = []
    for c in raw:
        what = f"rebase claim {c.get('id')}"
        rows.append({
            "chain_id": chain_id,
            "id": lower_text(c.get("id")),
            "venft_id": req_int(c.get("tokenId"), f"{what} tokenId"),
            "owner": lower_text(c.get("owner")),
            "from_epoch": to_datetime(req_int(c.get("fromEpoch"), f"{what} fromEpoch")),
            "to_epoch": to_datetime(req_int(c.get("toEpoch"), f"{what} toEpoch")),
            "amount_raw": to_raw(c.get("amount"), 18),
            "amount_usd": opt_float(c.get("amountUSD")),
            "to_lock": bool(c.get("toLock")),
            "token_address": token[0], "token_symbol": token[1], "token_decimals": token[2],
            "block_timestamp": to_datetime(req_int(c.get("timestamp"), f"{what} timestamp")),
            "block_number": req_int(c.get("blockNumber"), f"{what} blockNumber"),
            "transaction_hash": lower_text(c.get("transactionHash")),
            "log_index": req_int(c.get("logIndex"), f"{what} logIndex"),
        })
    return columns(CLAIM_COLUMNS, rows)
