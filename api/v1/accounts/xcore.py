"""Handler of /v1/accounts/{address}/xcore: the address's escrow-share token on each selected
chain, at that chain's published snapshot, and what it is worth at the canonical chain's rate.

No snapshot reads wallets' balances: a balance is the sum of the address's indexed moves up to the
snapshot's time (deposits and bridged-in shares add, exits and bridged-out shares take; the token
has no other way for shares to move in this release). That sum is the balance only when the chain's
xCORE events are indexed from its deployment on and up to the snapshot: otherwise the balance is
null (a partial sum is not a balance) or marked behind. The worth is convertToAssets at the
canonical chain's snapshot, rounded down as the token rounds: core token before any exit penalty.
"""
from __future__ import annotations

import asyncio
from typing import Any

from ...routes import RequestContext, runs
from ..common.events_coverage import deployment_covered, read_coverage
from ..common.flows import stamp
from ..common.decimals import quantity
from ..xcore.state import RATE_SCALE, XCORE_EVENTS, canonical_chain, observation


def canonical_rests_on(chains: dict[int, Any]) -> tuple[int, ...]:
    """The chain whose rate values every chain's shares: the answer rests on it whatever the selection."""
    return tuple(cid for cid, chain in chains.items() if chain.xcore_canonical)


def _worth(balance: int | None, ratio: int | None) -> dict[str, Any]:
    """convertToAssets(balance) at the rate, rounded down as the token rounds; null without either."""
    return quantity(None if balance is None or ratio is None else balance * ratio // RATE_SCALE)


def _entry(c, row: dict[str, Any] | None, cover: dict[str, Any] | None, ratio: int | None) -> dict[str, Any]:
    """One chain's record; `cover`: its coverage record (None: the chain has no published snapshot)."""
    status = "observed" if row else ("not_deployed" if c.snapshot else "unavailable")
    if status == "observed":  # the sum of the moves is the balance once they are indexed from deployment on
        exact = cover["fromDeployment"]
        balance = int(row["balance_raw"]) if exact else None
    else:  # no token at the snapshot block holds no shares; no snapshot says nothing
        exact = status == "not_deployed"
        balance = 0 if exact else None
    return {
        "chainId": c.chain_id,
        "role": None if row is None else row["role"],
        "token": None if row is None else row["token_address"],
        "status": status,
        "observation": None if row is None else observation(row, c.snapshot.at_iso),
        "balance": quantity(balance),
        "worth": _worth(balance, ratio),
        "moves": None if row is None else int(row["moves"]),
        "lastMove": None if row is None or not int(row["moves"]) else {
            "kind": row["last_kind"], "at": stamp(int(row["last_at"])), "blockNumber": int(row["last_block"]),
            "transactionHash": row["last_tx"]},
        "complete": exact and (row is None or not cover["behind"]),  # observed: cover is known
        "coverage": cover,
    }


@runs("account_xcore", "events_coverage")
async def account_xcore(ctx: RequestContext) -> dict[str, Any]:
    address = ctx.params["address"].lower()
    canonical = canonical_chain(ctx)
    usable = ctx.coverage.require_usable()
    found, (covered, indexed) = await asyncio.gather(
        ctx.rows("account_xcore", address=address, chain_ids=[c.chain_id for c in usable],
                 observed=[c.snapshot.unix for c in usable]),
        read_coverage(ctx, usable, XCORE_EVENTS))
    rows = {int(r["chain_id"]): r for r in found}
    deployment_covered(ctx, covered, indexed)
    cover = {c["chainId"]: c for c in covered}
    home = rows.get(canonical)
    ratio = None if home is None or home["ratio_raw"] is None else int(home["ratio_raw"])
    selected = set(ctx.params["chainIds"] or ctx.coverage.chain_ids)  # the canonical chain may only value them
    chains = [_entry(c, rows.get(c.chain_id), cover.get(c.chain_id), ratio)
              for c in ctx.coverage.chains if c.chain_id in selected]
    complete = all(e["complete"] for e in chains)
    if not complete or ratio is None:
        ctx.meta["complete"] = False
    known = [int(e["balance"]["raw"]) for e in chains if e["balance"]["raw"] is not None]
    balance = sum(known) if len(known) == len(chains) else None  # a total missing a chain is no total
    return {
        "address": address,
        "canonicalChainId": canonical,
        "rate": None if ratio is None else {**quantity(ratio), "observation": observation(home, ctx.coverage.chain(
            canonical).snapshot.at_iso), "exitPenaltyBps": None if home["exit_penalty_bps"] is None
            else int(home["exit_penalty_bps"])},
        "chains": chains,
        "totals": {"balance": quantity(balance),
                   "worth": _worth(balance, ratio),
                   "chainIds": [e["chainId"] for e in chains if e["balance"]["raw"] is not None],
                   "complete": complete and ratio is not None},
    }
