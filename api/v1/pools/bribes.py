"""Handler of /v1/pools/{chainId}/{poolAddress}/bribes: the notified funding of the pool's gauges
per epoch (bribe deposits, by token), newest epoch first, in pages of epochs.

Every epoch from the one holding the published snapshot back to the pool's first is listed, a
funded one with its tokens and an unfunded one with none, so a dashboard sees the zero weeks. A
week is as complete as the chain's governance events are indexed: `indexedUntil` is how far
(never past the snapshot), an epoch not indexed to its end is `partial` (the running one always),
and one the events do not reach at all has `tokens: null` and `gap: not_indexed`, not an empty
list. Amounts are exact raw sums; USD is each deposit's value at deposit time, summed, and null
for a token when a deposit of it has none (the epoch's total then null, `usdComplete: false`).
Notified funding is not claimed rewards, trading fees or emissions (spec semantics 3).

A traversal is pinned like the others: the signed cursor carries the first page's snapshot and
the next epoch, so later pages read what the first did.
"""
from __future__ import annotations

import math
from typing import Any

from ...cursors import filters_digest
from ...routes import RequestContext, runs
from ....core.epochs import WEEK, epoch_start, iso
from ..common.decimals import decimal_text, units_text
from ..common.traversal import next_cursor, traversal
from .handlers import not_found

CURSOR_FORMAT = 1
NOT_INDEXED = "not_indexed"


def _token(entry: tuple) -> dict[str, Any]:
    _, token, symbol, decimals, raw, usd, usd_missing, deposits, gauges = entry
    return {"token": token, "symbol": symbol, "decimals": decimals, "amountRaw": raw,
            "amount": units_text(int(raw), decimals), "amountUsd": None if usd_missing else
            decimal_text(usd), "deposits": deposits, "gauges": list(gauges)}


def _epoch(start: int, entries: list[tuple], covered: tuple[int | None, int], first_hour: int) -> dict[str, Any]:
    """One epoch; `covered` is the span the chain's governance events are indexed over (its end
    exclusive, at most the snapshot): the epoch is indexed when it begins inside it (or before
    it, where the pool had not started yet)."""
    events_from, until = covered
    end = start + WEEK
    indexed = until > start and events_from is not None and events_from <= max(start, first_hour)
    tokens = [_token(e) for e in entries] if indexed else None
    usd = None  # the stored doubles summed (not the truncated texts), known only if every deposit's is
    if tokens is not None and not any(e[6] for e in entries):
        usd = decimal_text(math.fsum(e[5] for e in entries)) if entries else "0"
    return {
        "epochStart": iso(start),
        "epochEnd": iso(end),
        "partial": until < end,
        "indexedUntil": iso(min(until, end)) if indexed else None,
        "tokens": tokens,
        "totalUsd": usd,
        "usdComplete": usd is not None,
        "gap": None if indexed else NOT_INDEXED,
    }


@runs("pool_bribes")
async def bribes(ctx: RequestContext) -> dict[str, Any]:
    p = ctx.params
    cid, address, limit = p["chainId"], p["poolAddress"], p["limit"]
    filter_digest = filters_digest({"chainId": cid, "address": address, "scope": p["scope"]})
    payload, chain = traversal(ctx, filter_digest, CURSOR_FORMAT)
    newest = payload["next"] if payload else epoch_start(chain.snapshot.unix)
    oldest = newest - (limit - 1) * WEEK
    rows = await ctx.rows("pool_bribes", chain_id=cid, snapshot_at=chain.snapshot.param, address=address,
                          curation=ctx.coverage.curation.digest, scope_all=int(p["scope"] == "all"), epoch_from=oldest,
                          epoch_to=newest + WEEK)
    if not rows or not rows[0]["servable"]:
        raise not_found(cid, address, p["scope"])
    row = rows[0]
    first_hour = row["first_hour"] if row["first_hour"] is not None else chain.snapshot.unix
    first = epoch_start(first_hour)
    # coverage's last_at is the last second read; deposits before the snapshot's time are served
    until = row["events_through"] + 1 if row["events_through"] is not None else 0
    covered = (row["events_from"], min(until, chain.snapshot.unix))
    by_epoch: dict[int, list[tuple]] = {}
    for entry in row["funding"]:
        by_epoch.setdefault(int(entry[0]), []).append(entry)
    starts = range(newest, max(oldest, first) - 1, -WEEK)
    epochs = [_epoch(s, by_epoch.get(s, []), covered, first_hour) for s in starts]
    more = oldest > first
    if any(e["partial"] or e["gap"] or not e["usdComplete"] for e in epochs):
        ctx.meta["complete"] = False
    ctx.meta["pageInfo"] = {"hasNextPage": more, "nextCursor": next_cursor(
        ctx, filter_digest, CURSOR_FORMAT, chain, next=oldest - WEEK) if more else None}
    return {"chainId": cid, "address": address, "snapshotAt": chain.snapshot.at_iso,
            "firstEpoch": iso(first), "epochs": epochs}
