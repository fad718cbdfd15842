"""Handlers of /v1/tokens/{chainId}/{tokenAddress}/price-changes and /trailing.

A price change over a window compares the price at the end `to` (the current price) with the
price at `to - window` (the reference), each the price at a boundary of prices.py (the
latest stored observation with a price at or before it, within the age limit); every boundary of
a request is one query. changeUsd is current - reference and changePercent (current / reference
- 1) x 100, computed on the stored doubles and served as exact decimals (decimals.decimal_text).

/trailing sums the token's hourly volumes over each window of whole hours ending at its chain's
anchor (the /v1/protocol anchor: the end of the latest hourly bucket completed by the published
snapshot), with the evidence flows.span gives every hourly figure, and the price change over the
same window (to = the anchor).
"""
from __future__ import annotations

import asyncio
from typing import Any

from ...errors import ApiError
from ...routes import RequestContext, runs
from ....core.epochs import iso
from ....core.prices import CURRENT_PRICE_UNAVAILABLE, REFERENCE_PRICE_ZERO
from ..common.decimals import decimal_text
from ..common.flows import ANCHOR, span, stamp
from ..common.anchors import anchors
from ..common.prices import INVALID_TO, Boundary, PriceAt, prices_at
from ..common.path_chain import path_chain
from .handlers import not_found
from ....core import clock


def comparison(label: str, seconds: int, current: PriceAt, reference: PriceAt, max_age: int) -> dict[str, Any]:
    """The change from the price at `reference` to the price at `current`, or why it is unavailable."""
    ref, reason = reference.current(max_age)
    change_usd = change_percent = None
    if ref is not None:
        now, then = current.price(max_age), reference.price(max_age)
        if now is None:
            reason = CURRENT_PRICE_UNAVAILABLE
        else:
            change_usd = decimal_text(now - then)
            if then == 0:
                reason = REFERENCE_PRICE_ZERO
            else:
                change_percent = decimal_text((now / then - 1) * 100)
    return {"window": label, "seconds": seconds, "referenceAt": iso(reference.at), "reference": ref,
            "changeUsd": change_usd, "changePercent": change_percent, "reason": reason}


def requested_to(ctx: RequestContext) -> int:
    """`to`, default the server time; 400 `invalid_to` later than the server time or before 1970."""
    now = int(clock.now())
    to = ctx.params["to"]
    if to is None:
        return now
    if to > now:
        raise ApiError(400, INVALID_TO, f"to must not be later than the server time ({iso(now)}); got {iso(to)}")
    if to < 0:
        raise ApiError(400, INVALID_TO, "to must be at or after 1970-01-01T00:00:00Z")
    return to


@runs("prices_at")
async def price_changes(ctx: RequestContext) -> dict[str, Any]:
    to = requested_to(ctx)
    chain = path_chain(ctx)
    cid, address = chain.chain_id, ctx.params["tokenAddress"]
    max_age = ctx.settings.price_max_age_seconds
    windows = ctx.params["windows"]
    found = await prices_at(ctx, [chain], [Boundary(cid, address, t) for t in [to, *(to - w.seconds for w in windows)]])
    if not found[0].listed:
        raise not_found(cid, address)
    current, reason = found[0].current(max_age)
    return {"chainId": cid, "address": address, "to": iso(to), "maxAgeSeconds": max_age, "current": current,
            "currentReason": reason,
            "comparisons": [comparison(w.label, w.seconds, found[0], ref, max_age) for w, ref in zip(windows, found[1:])]}


async def volumes(ctx: RequestContext, chain_id: int, address: str, starts: list[int], end: int) -> list[dict | None]:
    """The token's summed hourly volumes of each window [start, end), None where no hour has one."""
    rows = await ctx.rows("token_volumes", chain_id=chain_id, address=address, starts=starts, ends=[end] * len(starts))
    by_span = {int(r["span"]): r for r in rows}
    return [by_span.get(i + 1) for i in range(len(starts))]


@runs("protocol", "prices_at", "token_volumes")
async def trailing(ctx: RequestContext) -> dict[str, Any]:
    chain = path_chain(ctx)
    cid, address = chain.chain_id, ctx.params["tokenAddress"]
    max_age = ctx.settings.price_max_age_seconds
    windows = ctx.params["windows"]
    [anchor] = await anchors(ctx, (chain,))
    end = anchor.end
    head = {"chainId": cid, "address": address, "anchor": ANCHOR, "anchorAt": None if end is None else stamp(end),
            "maxAgeSeconds": max_age}
    if end is None:  # no protocol observation at the snapshot: nothing to end the windows at
        [found] = await prices_at(ctx, [chain], [Boundary(cid, address, chain.snapshot.unix)])
        if not found.listed:
            raise not_found(cid, address)
        ctx.meta["complete"] = False
        return {**head, "current": None, "currentReason": None,
                "windows": [{"window": w.label, "seconds": w.seconds, "volumeUsd": None, "evidence": None,
                             "priceChange": None} for w in windows]}
    starts = [end - w.seconds for w in windows]
    found, summed = await asyncio.gather(prices_at(ctx, [chain], [Boundary(cid, address, t) for t in [end, *starts]]),
                                         volumes(ctx, cid, address, starts, end))
    if not found[0].listed:
        raise not_found(cid, address)
    current, reason = found[0].current(max_age)
    out = []
    for w, start, ref, sums in zip(windows, starts, found[1:], summed):
        figure = span(start, end, end, anchor.first_hour, None if sums is None else {**sums, "fees_usd": None})
        complete = figure["complete"]
        if not complete:
            ctx.meta["complete"] = False
        out.append({
            "window": w.label, "seconds": w.seconds,
            "volumeUsd": decimal_text(figure["volumeUsd"]) if complete else None,
            "evidence": {"from": figure["from"], "toExclusive": figure["toExclusive"],
                         "hoursExpected": figure["hoursExpected"], "hoursCovered": figure["hoursCovered"],
                         "complete": complete},
            "priceChange": comparison(w.label, w.seconds, found[0], ref, max_age),
        })
    return {**head, "current": current, "currentReason": reason, "windows": out}
