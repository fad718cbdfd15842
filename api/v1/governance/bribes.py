"""Handler of /v1/bribes: the notified funding records (bribe deposits) of the selected chains,
newest first, one record per deposit, in pages with signed cursors.

A record is what the gauge's bribe contract was notified: the exact raw amount of one token, its
decimal amount, and its USD value at deposit time where the token had a price then (null where
not: never a zero). Notified funding is not claimed rewards, trading fees or emissions (spec
semantics 3), and nothing here adds it to them.

Each chain's records are its deposits before its published snapshot's time, as far as its
governance events are indexed (`coverage`: `indexedUntil` per chain). A traversal pins the first
page's snapshots in its cursor; its order is (notifiedAt desc, chainId, id), so a later page
continues exactly after the last record of the page before.
"""
from __future__ import annotations

import asyncio
from typing import Any

from ...cursors import filters_digest
from ...routes import RequestContext, runs
from ..common.decimals import decimal_text, units_text
from ..common.epochs import aligned_epoch
from ..common.events_coverage import read_coverage
from ..common.flows import stamp
from ..common.params import qualified
from ..common.traversal import chains_traversal, one_page

CURSOR_FORMAT = 1
GOVERNANCE_EVENTS = "events"  # their chain_coverage dataset (assets/governance_events.py)


def filters(ctx: RequestContext) -> dict[str, Any]:
    """The normalized filters: what the cursor binds to and the query takes."""
    p = ctx.params
    pool_chain, pool = qualified(p["pool"])
    gauge_chain, gauge = qualified(p["gauge"])
    token_chain, token = qualified(p["token"])
    return {"chainIds": list(ctx.coverage.chain_ids), "epoch": aligned_epoch(p["epoch"], "epoch"),
            "pool": pool, "poolChain": pool_chain, "gauge": gauge, "gaugeChain": gauge_chain,
            "token": token, "tokenChain": token_chain, "briber": (p["briber"] or "").lower()}


def record(r: dict[str, Any]) -> dict[str, Any]:
    decimals = int(r["token_decimals"])
    return {
        "chainId": int(r["chain_id"]),
        "id": r["id"],
        "epochStart": stamp(r["epoch_ts"]),
        "notifiedAt": stamp(r["at_ms"] // 1000),
        "blockNumber": int(r["block_number"]),
        "transactionHash": r["transaction_hash"],
        "gauge": r["gauge_address"],
        "gaugeKind": r["gauge_kind"],
        "pool": None if r["gauge_kind"] == "system" else r["pool_address"],
        "token": {"address": r["token_address"], "symbol": r["token_symbol"], "decimals": decimals},
        "amountRaw": r["amount_raw"],
        "amount": units_text(int(r["amount_raw"]), decimals),
        "amountUsd": None if r["amount_usd"] is None else decimal_text(r["amount_usd"]),
        "briber": r["sender"],
        "foundation": bool(r["is_foundation"]),
    }


async def events_coverage(ctx: RequestContext, chains) -> tuple[list[dict[str, Any]], dict[int, dict[str, Any]]]:
    """How far the chains' governance events are indexed (common/events_coverage.py)."""
    return await read_coverage(ctx, chains, GOVERNANCE_EVENTS)


@runs("bribes", "events_coverage")
async def bribes(ctx: RequestContext) -> dict[str, Any]:
    f = filters(ctx)
    digest = filters_digest(f)
    payload, chains = chains_traversal(ctx, digest, CURSOR_FORMAT)
    return await page(ctx, f, digest, payload, chains)


async def page(ctx: RequestContext, f: dict[str, Any], digest: str, payload: dict | None, chains) -> dict[str, Any]:
    """One page of the records `f` selects on `chains` (after the cursor's position, if any)."""
    c_at, c_chain, c_id = payload["key"] if payload else (0, 0, "")
    ids = [c.chain_id for c in chains]
    rows, (covered, _) = await asyncio.gather(
        ctx.rows("bribes", chain_ids=ids, snapshot_ats=[c.snapshot.param for c in chains],
                 epoch=f["epoch"] or 0, pool=f["pool"], pool_chain=f["poolChain"], gauge=f["gauge"],
                 gauge_chain=f["gaugeChain"], token=f["token"], token_chain=f["tokenChain"],
                 briber=f["briber"], after=int(payload is not None), c_at=c_at, c_chain=c_chain, c_id=c_id,
                 limit=ctx.params["limit"] + 1),
        events_coverage(ctx, chains))
    rows = one_page(ctx, rows, digest, CURSOR_FORMAT, tuple(chains),
                    lambda last: [last["at_ms"], int(last["chain_id"]), last["id"]])
    echo = {**f, "epoch": None if f["epoch"] is None else stamp(f["epoch"])}
    return {"rows": [record(r) for r in rows], "coverage": covered, "filters": echo}
