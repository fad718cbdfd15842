"""The RewardsDistributor's logs (devnet/sim/rebases.py): `RebaseCheckpoint`, one per week checkpointed
at the flip ending it (id: the week), and `RebaseClaim`, one per Claimed log. Event entities,
visible once their timestamp is <= the block's; amounts and veSupply in CORE units (18 decimals,
exact), as EscrowEvent's amount and VeNFT's votingPower."""
from __future__ import annotations

from devnet.subgraph.schema import Units
from devnet.subgraph.store import EventStore

_CHECKPOINT = ("id", "epoch", "timestamp", "blockNumber", "transactionHash")


def _checkpoint_view(row, ctx) -> dict:
    return {**{k: row[k] for k in _CHECKPOINT}, "amount": Units(row["amount"], 18),
            "veSupply": Units(row["veSupply"], 18)}


def rebase_stores(sim) -> dict[str, EventStore]:
    book = sim.gov.rebases
    ts_key = lambda r: r["timestamp"]  # noqa: E731
    id_key = lambda r: r["id"]  # noqa: E731
    return {
        "RebaseCheckpoint": EventStore("RebaseCheckpoint", lambda: book.checkpoints, ts_key, id_key,
                                       {"epoch": lambda r: r["epoch"]}, _checkpoint_view, ("timestamp", "blockNumber")),
        "RebaseClaim": EventStore("RebaseClaim", lambda: book.claims, ts_key, id_key,
                                  {"tokenId": lambda r: r["tokenId"], "owner": lambda r: r["owner"]},
                                  lambda r, ctx: {**r, "amount": Units(r["amount"], 18)}, ("timestamp", "blockNumber")),
    }


__all__ = ["rebase_stores"]
