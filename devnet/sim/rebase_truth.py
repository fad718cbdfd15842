"""Rebase ground truth (the /chains/<id>/truth/rebases and /truth/account-rebases routes), from the
RewardsDistributor's model (devnet/sim/rebases.py: its checkpoints, claims and the locks' histories),
never from the subgraph's rows. Big integers are decimal strings."""
from __future__ import annotations

_CLAIM = ("id", "tokenId", "owner", "fromEpoch", "toEpoch", "toLock", "timestamp", "blockNumber", "transactionHash",
          "logIndex")


def _head(sim, block: int | None) -> tuple[int, int]:
    """LookupError: a chain without a rewards distributor; ValueError: a block above the head."""
    if not sim.features().get("rebases"):
        raise LookupError(f"chain {sim.chain_id} has no rewards distributor")
    return sim._truth_ts(block)


def rebases(sim, block: int | None) -> dict:
    """Every week checkpointed up to the block: its rebase and the voting power it is shared over."""
    ts, block = _head(sim, block)
    book = sim.gov.rebases
    n = book.checkpointed(ts)
    epochs = [{"epoch": c["epoch"], "amount": str(c["amount"]), "veSupply": str(c["veSupply"]),
               "timestamp": c["timestamp"], "blockNumber": c["blockNumber"], "transactionHash": c["transactionHash"]}
              for c in book.checkpoints[:n]]
    minted, paid = book.minted_until(ts), book.paid_until(ts)
    return {"chainId": sim.chain_id, "block": block, "timestamp": ts,
            "distributor": sim.contracts["rewardsDistributor"].lower(), "token": sim.core.id,
            "lastTokenTime": book.last_token_time(ts), "epochs": epochs, "minted": str(minted), "claimed": str(paid),
            "balance": str(minted - paid)}


def account_rebases(sim, owner: str, block: int | None) -> dict:
    """`claimable`: per veNFT `owner` holds at the block (a burnt one has none) and unclaimed
    checkpointed week with a rebase, its amount; `claimed`: every claim up to the block paid to
    `owner` (the veNFT's owner at the claim), into its lock or its wallet."""
    ts, block = _head(sim, block)
    gov, owner = sim.gov, owner.lower()
    book = gov.rebases
    claimable = [{"tokenId": tid, "epoch": week, "amount": str(amount)}
                 for tid in sorted(gov.tokens_of_owner(owner, ts))
                 for week, amount in book.unclaimed(tid, ts) if amount > 0]
    claimed = [{**{k: c[k] for k in _CLAIM}, "amount": str(c["amount"])}
               for c in book.claims_until(ts) if c["owner"] == owner]
    return {"chainId": sim.chain_id, "owner": owner, "block": block, "timestamp": ts,
            "claimableTotal": str(sum(int(c["amount"]) for c in claimable)), "claimable": claimable,
            "claimed": claimed}
