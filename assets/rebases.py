"""The rewards distributor's rebases of a history range, read with its governance events
(assets/governance_events.py) on chains with the `rebases` feature: the subgraph's RebaseCheckpoint
(one per ended epoch, at its flip) and RebaseClaim entities, and for each checkpointed epoch every
veNFT's voting power at the epoch's start (VotingEscrow.balanceOfNFTAt through Multicall3; a past
point never changes, so reading it at the range's block is exact), which with the checkpoint gives
each veNFT's rebase as RewardsDistributor computes it."""
from __future__ import annotations

from .rows.rebases import rebase_claim_rows, rebase_rows
from ..readers.chain import ChainReadError, ChainReader
from ..readers.graphql import SubgraphClient

CHECKPOINT_FIELDS = "epoch amount veSupply timestamp blockNumber transactionHash"
CLAIM_FIELDS = "tokenId owner fromEpoch toEpoch amount amountUSD toLock timestamp blockNumber transactionHash logIndex"
LAST_TOKEN_ID = "tokenId()"  # VotingEscrow: the last veNFT minted (IDs run from 1)
POWER_AT = "balanceOfNFTAt(uint256,uint256)"


def venft_powers(reader: ChainReader, ve: str, epoch: int, block: int) -> dict[int, int]:
    """Every veNFT's voting power at `epoch` (those with none left out), read at `block`."""
    last = int(reader.call(ve, LAST_TOKEN_ID, (), ("uint256",), block))
    ids = range(1, last + 1)
    answers = reader.multicall([(ve, POWER_AT, (tid, epoch), ("uint256",)) for tid in ids], block)
    failed = [tid for tid, got in zip(ids, answers) if got is None]
    if failed:
        raise ChainReadError(f"VotingEscrow {ve}: balanceOfNFTAt failed for {len(failed)} veNFTs "
                             f"(first {failed[0]}) at epoch {epoch}, block {block}")
    return {tid: int(p) for tid, p in zip(ids, answers) if p}


def core_token(reader: ChainReader, address: str, block: int) -> tuple[str, str, int]:
    symbol, decimals = reader.multicall([(address, "symbol()", (), ("string",)),
                                         (address, "decimals()", (), ("uint8",))], block)
    if decimals is None:
        raise ChainReadError(f"core token {address}: decimals() failed at block {block}")
    return address.lower(), symbol or "", int(decimals)


def read_rebases(subgraph: SubgraphClient, reader: ChainReader, contracts: dict[str, str], where: dict,
                 block: int) -> dict[str, dict[str, list]]:
    """{table: columns} of rebase_epochs, venft_rebases and rebase_claims for the events in `where`."""
    checkpoints = subgraph.paginate("rebaseCheckpoints", CHECKPOINT_FIELDS, where=where, block=block)
    claims = subgraph.paginate("rebaseClaims", CLAIM_FIELDS, where=where, block=block)
    if not checkpoints and not claims:
        return {}
    token = core_token(reader, contracts["coreToken"], block)
    powers = {int(c["epoch"]): venft_powers(reader, contracts["votingEscrow"], int(c["epoch"]), block)
              for c in checkpoints}
    epochs, venfts = rebase_rows(reader.chain_id, checkpoints, powers, token)
    return {"rebase_epochs": epochs, "venft_rebases": venfts,
            "rebase_claims": rebase_claim_rows(reader.chain_id, claims, token)}
