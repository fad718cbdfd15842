"""Handler of /v1/xcore/rate-history: the escrow-share token's rate in rolling periods, with the
price history's range rules and paging (api/v1/common/ranges.py, core.prices.periods; ADR 0011).

No source publishes the rate as a series: every xCORE event carries the rate before and after it,
so the rate in effect at any instant is the new rate of the last event at or before it, exactly.
Each period's sample is the state in effect at its close (the last event before its exclusive
end), `activity: changed` when an event in the period changed the rate, else `carried`. Without
a sample the period has one gap reason: `before_token_deployment` (no event before its end) or
`events_not_indexed` (its close lies after the canonical chain's indexed events: temporary). A
traversal pins the first page's indexed boundary in its signed cursor, so its pages agree.
"""
from __future__ import annotations

from typing import Any

from ...cursors import FILTERS, ROUTE, expired, filters_digest
from ...routes import RequestContext, runs
from ....core import clock
from ....core.epochs import iso
from ....core.prices import INTERVALS, period_count, periods
from ..common.flows import stamp
from ..common.ranges import DEFAULT_SPAN, EARLIEST, invalid_range, range_issue
from ..common.decimals import quantity
from .state import canonical_observer, indexed_through

CURSOR_FORMAT = 1
BEFORE_TOKEN_DEPLOYMENT = "before_token_deployment"
EVENTS_NOT_INDEXED = "events_not_indexed"
GAP_REASONS = (BEFORE_TOKEN_DEPLOYMENT, EVENTS_NOT_INDEXED)


def sample(row: dict[str, Any]) -> dict[str, Any]:
    return {"rate": quantity(row["ratio_raw"]), "supply": quantity(row["supply_raw"]),
            "backing": quantity(row["backing_raw"]), "eventId": row["event_id"], "eventAt": stamp(int(row["event_at"])),
            "blockNumber": int(row["last_block"])}


def shaped(ps, rows: list[dict[str, Any]], step: int, through: int | None) -> tuple[list[dict[str, Any]], bool]:
    """The page's periods with their samples or gap reasons, and whether every one has a sample."""
    by_index = {int(r["i"]): r for r in rows}
    state = by_index.get(0)
    out, sampled = [], True
    for i, p in enumerate(ps, start=1):
        row = by_index.get(i)
        if row is not None:
            state = row
        reason = None
        if through is None or p.end - 1 > through:
            reason = EVENTS_NOT_INDEXED
        elif state is None:
            reason = BEFORE_TOKEN_DEPLOYMENT
        sampled &= reason is None
        changes = 0 if row is None else int(row["rate_changes"])
        out.append({"from": iso(p.start), "toExclusive": iso(p.end), "durationSeconds": p.end - p.start,
                    "partial": p.end - p.start < step,
                    "sample": None if reason else sample(state), "gapReason": reason,
                    "activity": None if reason else ("changed" if changes else "carried"),
                    "rateChanges": None if reason else changes,
                    "events": None if reason else (0 if row is None else int(row["events"]))})
    return out, sampled


@runs("xcore_context", "xcore_rate_history")
async def rate_history(ctx: RequestContext) -> dict[str, Any]:
    p = ctx.params
    canonical, chain = canonical_observer(ctx)
    interval, limit = p["interval"], p["limit"]
    step = INTERVALS[interval][0]
    now = int(clock.now())
    codec = ctx.app.ctx.cursors
    filter_digest = filters_digest({"interval": interval, "from": p["from"], "to": p["to"]})
    if p["cursor"]:
        payload = codec.decode(p["cursor"], ctx.route.name, filter_digest)
        if payload.get("v") != CURSOR_FORMAT:
            raise expired("the cursor was issued by an earlier release")
        (start, end), first, through = payload["range"], payload["next"], payload["through"]
    else:
        end = p["to"] if p["to"] is not None else now
        start = None if p["from"] == EARLIEST else (p["from"] if p["from"] is not None else end - DEFAULT_SPAN)
        first = 0
        issue = range_issue(p["to"], now, start, end, interval)
        if issue is not None:
            raise issue
        found = (await ctx.rows("xcore_context", canonical=canonical))[0]
        if start is None:
            if found["first_at"] is None:
                raise invalid_range("from=earliest: no xCORE event is indexed yet; give from as a timestamp")
            start = int(found["first_at"])
            issue = range_issue(None, now, start, end, interval)
            if issue is not None:
                raise issue
        through = indexed_through(found, chain, now)
    ps = periods(start, end, step, first, limit)
    rows = await ctx.rows("xcore_rate_history", canonical=canonical, ends=[x.end for x in ps], page_from=ps[0].start,
                          through=-1 if through is None else through)
    out, sampled = shaped(ps, rows, step, through)
    if not sampled:
        ctx.meta["complete"] = False
    count = period_count(start, end, step)
    after = first + len(ps)
    next_cursor = None
    if after < count:
        next_cursor = codec.encode({"v": CURSOR_FORMAT, ROUTE: ctx.route.name, FILTERS: filter_digest,
                                    "range": [start, end], "next": after, "through": through})
    ctx.meta["pageInfo"] = {"nextCursor": next_cursor, "hasNextPage": after < count}
    return {"canonicalChainId": canonical, "interval": interval, "from": iso(start), "toExclusive": iso(end),
            "periodCount": count, "eventsIndexedThrough": None if through is None else stamp(through), "periods": out}
