"""Handler of /v1/xcore/epochs: the escrow-share token's rate per epoch (Thursday 00:00 UTC),
newest first, from the canonical chain's indexed events (xcore_epochs.sql).

Per epoch: the rate at its start (after every event before it) and at its end (after its last
event, or at the indexed boundary for the epoch still running: `partial`), and the change split
by cause: exit-penalty rebases (an exit's penalty stays in the backing), compounded incentives
and distributions. Each event carries the rate before and after it and deposits and bridge
transfers leave it unchanged, so the causes sum exactly to the change. A traversal pins the first
page's boundary in its signed cursor.
"""
from __future__ import annotations

from typing import Any

from ...cursors import FILTERS, ROUTE, expired, filters_digest
from ...routes import RequestContext, runs
from ....core import clock
from ....core.epochs import WEEK, epoch_start, iso
from ..common.decimals import units_text
from ..common.decimals import quantity
from .state import DECIMALS, RATE_SCALE, canonical_observer, indexed_through

CURSOR_FORMAT = 1
CAUSES = (("exitPenalty", "exit_penalty_raw"), ("compound", "compound_raw"), ("distribution", "distribution_raw"))
COUNTS = (("deposit", "deposits"), ("exit", "exits"), ("compound", "compounds"), ("distribution", "distributions"),
          ("bridgeOut", "bridge_outs"), ("bridgeIn", "bridge_ins"))
AMOUNTS = (("deposited", "deposited_raw"), ("exitedShares", "exited_shares_raw"), ("exitPaid", "exit_paid_raw"),
           ("penalties", "penalties_raw"), ("compounded", "compounded_raw"), ("distributed", "distributed_raw"))


def change(raw: int) -> dict[str, Any]:
    """A signed rate change: raw (x 1e18) and decimal."""
    return {"raw": str(raw), "value": units_text(raw, DECIMALS)}


def record(epoch: int, row: dict[str, Any] | None, before: dict[str, Any], through: int) -> dict[str, Any]:
    """One epoch; `before` is the state carried into it (the previous epoch's end)."""
    end = epoch + WEEK
    at_start = int(before["rate_at_end_raw"])
    at_end = at_start if row is None else int(row["rate_at_end_raw"])
    carried = row or {**{f: "0" for _, f in (*CAUSES, *AMOUNTS)}, **{f: 0 for _, f in COUNTS},
                      "supply_at_end_raw": before["supply_at_end_raw"], "backing_at_end_raw": before["backing_at_end_raw"]}
    return {
        "epoch": iso(epoch), "toExclusive": iso(end), "partial": end - 1 > through,
        "observedThrough": iso(min(end - 1, through)),
        "rateAtStart": quantity(at_start), "rateAtEnd": quantity(at_end), "change": change(at_end - at_start),
        "causes": {name: change(int(carried[f])) for name, f in CAUSES},
        "counts": {name: int(carried[f]) for name, f in COUNTS},
        "amounts": {name: quantity(carried[f]) for name, f in AMOUNTS},
        "supplyAtEnd": quantity(carried["supply_at_end_raw"]), "backingAtEnd": quantity(carried["backing_at_end_raw"]),
    }


@runs("xcore_context", "xcore_epochs")
async def epochs(ctx: RequestContext) -> dict[str, Any]:
    p = ctx.params
    canonical, chain = canonical_observer(ctx)
    codec = ctx.app.ctx.cursors
    filter_digest = filters_digest({})
    if p["cursor"]:
        payload = codec.decode(p["cursor"], ctx.route.name, filter_digest)
        if payload.get("v") != CURSOR_FORMAT:
            raise expired("the cursor was issued by an earlier release")
        hi, oldest, through = payload["next"], payload["oldest"], payload["through"]
    else:
        found = (await ctx.rows("xcore_context", canonical=canonical))[0]
        through = indexed_through(found, chain, int(clock.now()))
        if through is None or found["first_at"] is None or int(found["first_at"]) > through:
            ctx.meta["complete"] = False
            ctx.meta["pageInfo"] = {"nextCursor": None, "hasNextPage": False}
            return {"canonicalChainId": canonical, "eventsIndexedThrough": None, "epochs": []}
        hi, oldest = epoch_start(through), epoch_start(int(found["first_at"]))
    lo = max(oldest, hi - (p["limit"] - 1) * WEEK)
    rows = {int(r["epoch"]): r for r in await ctx.rows("xcore_epochs", canonical=canonical, lo=lo, hi=hi,
                                                        through=through)}
    state = rows.get(0) or {"rate_at_end_raw": str(RATE_SCALE), "supply_at_end_raw": "0", "backing_at_end_raw": "0"}
    out = []
    for epoch in range(lo, hi + 1, WEEK):
        out.append(record(epoch, rows.get(epoch), state, through))
        state = rows.get(epoch) or {**state}
    out.reverse()
    more = lo > oldest
    ctx.meta["pageInfo"] = {"hasNextPage": more, "nextCursor": codec.encode({
        "v": CURSOR_FORMAT, ROUTE: ctx.route.name, FILTERS: filter_digest, "next": lo - WEEK, "oldest": oldest,
        "through": through}) if more else None}
    return {"canonicalChainId": canonical, "eventsIndexedThrough": iso(through), "epochs": out}
