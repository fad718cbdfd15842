"""Handler of /v1/tokens/{chainId}/{tokenAddress}/price-history (ADR 0011).

The range [from, to) is cut into periods anchored backward from `to` (core.prices.periods); a
page is `limit` of them, oldest first. Two queries per page, run together once the range is
known: `price_history_context.sql` (the chain's first market activity, whether the token exists
and is not blocked, its valued range and the valuation runs of the range's days) and
`price_history.sql` (per period of the page: its latest priced canonical observation, the
historical valuation at its closing hour boundary, the published snapshots in it). The sample
and, without one, the gap reason are picked here by the ADR's order.

A traversal is pinned: the first page's resolved range, the chain's snapshot, the curation digest
and an evidence digest (the price generation, the policy, per UTC day of the range its valuation
run clipped to the range, and per published snapshot of the range its revision) go into the
signed cursor. A later page reads the pinned
snapshot and recomputes the evidence: a difference is 400 `price_history_source_changed`.
"""
from __future__ import annotations

import asyncio
from typing import Any

from ...cursors import FILTERS, ROUTE, expired, filters_digest
from ...errors import ApiError
from ...routes import RequestContext, runs
from ....core.epochs import DAY, HOUR, iso
from ....core.prices import (
    BEFORE_FIRST_MARKET_ACTIVITY, HISTORICAL_VALUATION_PENDING, HISTORY_RESOLUTION_UNAVAILABLE, INTERVALS,
    NO_SAFE_PRICE_SOURCE, PRICE_GENERATION, Period, period_count, periods,
)
from ..common.traversal import digest, pinned, vector_of
from ..common.observations import observation
from ..common.prices import TOKEN_NOT_FOUND
from ..common.ranges import DEFAULT_SPAN, EARLIEST, invalid_range, range_issue
from ....core import clock

CURSOR_FORMAT = 1
# Bump when the sample selection or the gap rules change: running traversals then restart.
POLICY_VERSION = 1
SOURCE_CHANGED = "price_history_source_changed"


def require_token(found: dict[str, Any], chain_id: int, address: str) -> None:
    if found["blocked"] or not found["listed"]:
        raise ApiError(404, TOKEN_NOT_FOUND, f"token {address} is not known on chain {chain_id}: no published snapshot "
                       "lists it and no valuation holds it (or the curation blocks it)")


def gap_reason(period: Period, first_activity: int | None, valued: bool, observed: bool) -> str:
    """Why a period without a sample has none: the first reason that holds (ADR 0011)."""
    if first_activity is not None and period.sample_point <= first_activity:
        return BEFORE_FIRST_MARKET_ACTIVITY
    if period.boundary is not None and not valued:
        return HISTORICAL_VALUATION_PENDING  # temporary: the answer will change
    if observed or period.boundary is not None:  # a published snapshot, or a valued hour, without a price
        return NO_SAFE_PRICE_SOURCE
    return HISTORY_RESOLUTION_UNAVAILABLE


def evidence(days: list[tuple], snapshots: list[tuple], end: int) -> str:
    """What a traversal binds to: generation, policy, each day's valuation run clipped to the range
    and each published snapshot's number of runs (its revision)."""
    return digest((PRICE_GENERATION, POLICY_VERSION, [(d, min(until, end), g, r) for d, until, g, r in days],
                   [tuple(s) for s in snapshots]))


def coverage_meta(context: dict[str, Any]) -> dict[str, Any]:
    days, first = context["days"], context["first_at"]
    return {
        "generation": PRICE_GENERATION,
        "revision": max((r for *_, r in days), default=None),
        "valuedFrom": None if context["valued_from"] is None else iso(context["valued_from"]),
        "valuedThrough": None if context["valued_through"] is None else iso(context["valued_through"]),
        "firstMarketActivity": None if first is None else iso(first),
    }


def shaped(ps: list[Period], rows: list[dict[str, Any]], step: int, first_activity: int | None,
           valued_until: dict[int, int]) -> tuple[list[dict[str, Any]], bool]:
    """The served periods of a page, and whether every one has a sample."""
    by_index = {int(r["i"]): r for r in rows}
    bounds = [iso(ps[0].start), *(iso(x.end) for x in ps)]  # each period starts where the one before ends
    out, sampled = [], True
    for i, period in enumerate(ps, start=1):
        row = by_index[i]
        obs = observation(row, "c_") or (observation(row, "h_") if row["h_price"] is not None else None)
        reason = None
        if obs is None:
            sampled = False
            b = period.boundary
            valued = b is not None and valued_until.get((b - HOUR) // DAY * DAY, -1) >= b
            reason = gap_reason(period, first_activity, valued, row["snapshots"] > 0)
        length = period.end - period.start
        out.append({"from": bounds[i - 1], "toExclusive": bounds[i], "durationSeconds": length,
                    "partial": length < step, "observation": obs, "gapReason": reason})
    return out, sampled


@runs("price_history_context", "price_history")
async def page(ctx: RequestContext) -> dict[str, Any]:
    p = ctx.params
    chain_id, address, interval = p["chainId"], p["tokenAddress"], p["interval"]
    step = INTERVALS[interval][0]
    curation = ctx.coverage.curation
    codec = ctx.app.ctx.cursors
    now = int(clock.now())
    filter_digest = filters_digest({"chainId": chain_id, "address": address, "interval": interval,
                                    "from": p["from"], "to": p["to"]})
    first_page = not p["cursor"]
    if first_page:
        chain = ctx.coverage.chains[0]  # without a published snapshot: 503 once the token is known (below)
        end = p["to"] if p["to"] is not None else now
        start = None if p["from"] == EARLIEST else (p["from"] if p["from"] is not None else end - DEFAULT_SPAN)
        first = 0
    else:
        payload = codec.decode(p["cursor"], ctx.route.name, filter_digest)
        if payload.get("v") != CURSOR_FORMAT:  # signed by an earlier release: its fields may differ
            raise expired("the cursor was issued by an earlier release")
        if payload["cur"] != curation.digest:
            raise expired("the curation publication changed since this traversal started")
        chain = pinned(payload["chains"])[0]
        ctx.meta["pinned"] = [chain.meta()]
        (start, end), first = payload["range"], payload["next"]

    pinned_at = chain.snapshot.unix if chain.snapshot is not None else 0

    def context(range_start: int | None):
        return ctx.rows("price_history_context", chain_id=chain_id, address=address, pinned=pinned_at,
                        curation=curation.digest, check_token=int(first_page), earliest=int(range_start is None),
                        from_ts=range_start or 0, to_ts=end)

    def samples(ps: list[Period]):
        return ctx.rows("price_history", chain_id=chain_id, token=f"{chain_id}:{address}", pinned=pinned_at,
                        step=step, ends=[x.end for x in ps], boundaries=[x.boundary or 0 for x in ps],
                        page_from=ps[0].start, page_to=ps[-1].end)

    limit = p["limit"]
    issue = range_issue(p["to"], now, start, end, interval) if first_page else None
    if start is not None and issue is None and chain.snapshot is not None:  # both queries at once
        ps = periods(start, end, step, first, limit)
        found_rows, rows = await asyncio.gather(context(start), samples(ps))
        found = found_rows[0]
        if first_page:
            require_token(found, chain_id, address)
    else:  # `earliest`, a refused range or a chain without a snapshot: an unknown token is 404 first
        found = (await context(start))[0]
        require_token(found, chain_id, address)
        ctx.coverage.require_usable()
        if issue is not None:
            raise issue
        if found["first_at"] is None:
            raise invalid_range(f"from=earliest: chain {chain_id} has no recorded market activity yet; give from as "
                                "a timestamp")
        start = found["first_at"]
        issue = range_issue(None, now, start, end, interval)
        if issue is not None:
            raise issue
        ps = periods(start, end, step, first, limit)
        rows = await samples(ps)
    days = [tuple(d) for d in found["days"]]
    ev = evidence(days, found["snapshots"], end)
    if not first_page and payload["ev"] != ev:
        raise ApiError(400, SOURCE_CHANGED, "the valuations or snapshots this traversal pages through were revised, "
                       "or the price generation or policy changed, since it started: the pages would mix sources; "
                       "restart the traversal without the cursor")
    out, sampled = shaped(ps, rows, step, found["first_at"], {d: until for d, until, *_ in days})
    if not sampled:
        ctx.meta["complete"] = False
    ctx.meta["historicalCoverage"] = coverage_meta(found)
    count = period_count(start, end, step)
    after = first + len(ps)
    next_cursor = None
    if after < count:
        next_cursor = codec.encode({
            "v": CURSOR_FORMAT, ROUTE: ctx.route.name, FILTERS: filter_digest, "cur": curation.digest,
            "chains": vector_of((chain,)), "range": [start, end], "next": after, "ev": ev,
        })
    ctx.meta["pageInfo"] = {"nextCursor": next_cursor, "hasNextPage": after < count}
    return {"chainId": chain_id, "address": address, "interval": interval, "from": iso(start), "toExclusive": iso(end),
            "periodCount": count, "periods": out}
