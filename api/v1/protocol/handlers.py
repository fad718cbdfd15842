"""Handlers of the /v1 protocol routes: /v1/protocol, /history, /daily, /trailing and /volume.

Each answer starts from the anchors of its covered chains (common/anchors.py, `protocol.sql`: per chain, the
observation at its published snapshot, the end of its latest completed hourly bucket and the hour
of its first market activity), then sums that chain's buckets over spans ending at or before its
own anchor (`protocol_flows.sql`, `protocol_periods.sql`); common/flows.py says what each span summed
and how the chains combine. A covered chain without a published snapshot, or without a protocol
row at it, has no anchor: it is listed with null figures and makes every total incomplete.
"""
from __future__ import annotations

from typing import Any

from ...offload import off_loop
from ...routes import RequestContext, runs
from ....core.epochs import DAY, HOUR
from ..common.anchors import ROLLING_WINDOWS, Anchor, anchors, period_tops, spans, trailing_windows
from ..common.flows import BEFORE_FIRST_ACTIVITY, NOT_INDEXED, POLICY, combine, span, stamp
from ...coverage import FRESH

FLOW_METRICS = ("volumeUsd", "feesUsd")
PERIODS = {"history": HOUR, "daily": DAY}  # route -> period length


def window_totals(at: list[Anchor], per_chain: dict[int, list[dict]], windows: tuple[tuple[str, int], ...]) -> list[dict]:
    """Per window label: the total over the chains' own windows of that length."""
    out = []
    for i, (label, seconds) in enumerate(windows):
        parts = [(a.chain.chain_id, a.chain.state, per_chain[a.chain.chain_id][i] if a.end is not None else None) for a in at]
        figures = [fig for _, _, fig in parts if fig is not None]
        out.append({"label": label, "durationSeconds": seconds,
                    "from": min((f["from"] for f in figures), default=None),
                    "toExclusive": max((f["toExclusive"] for f in figures), default=None),
                    **combine(parts, FLOW_METRICS)})
    return out


def _complete(ctx: RequestContext, totals: list[dict] | dict) -> None:
    """An answer whose totals miss a chain or a bucket is not complete (meta.complete)."""
    rows = totals if isinstance(totals, list) else [totals]
    if not all(t["complete"] for t in rows):
        ctx.meta["complete"] = False


@runs("protocol", "protocol_flows")
async def protocol(ctx: RequestContext) -> dict[str, Any]:
    at = await anchors(ctx)
    windows = await trailing_windows(ctx, at, ROLLING_WINDOWS)
    chains = []
    for a in at:
        row = a.row or {}
        chains.append({
            **a.head(),
            "blockNumber": row.get("block_number"),
            "tvlUsd": row.get("tvl_usd"),
            "tvlV2Usd": row.get("tvl_v2_usd"),
            "tvlClUsd": row.get("tvl_cl_usd"),
            "poolCount": row.get("pool_count"),
            "activeGaugeCount": row.get("active_gauge_count"),
            "windows": windows.get(a.chain.chain_id),
        })
    parts = [(a.chain.chain_id, a.chain.state, None if a.row is None else c) for a, c in zip(at, chains)]
    totals = {
        **combine(parts, ("tvlUsd", "poolCount", "activeGaugeCount")),
        "windows": window_totals(at, windows, ROLLING_WINDOWS),
    }
    totals["complete"] = totals["complete"] and all(w["complete"] for w in totals["windows"])
    _complete(ctx, totals)
    return {"chains": chains, "totals": totals, "policy": POLICY}


@runs("protocol", "protocol_flows")
async def trailing(ctx: RequestContext) -> dict[str, Any]:
    at = await anchors(ctx)
    requested = tuple((w.label, w.seconds) for w in ctx.params["windows"])
    windows = await trailing_windows(ctx, at, requested)
    totals = window_totals(at, windows, requested)
    _complete(ctx, totals)
    return {"chains": [{**a.head(), "windows": windows.get(a.chain.chain_id)} for a in at],
            "totals": totals, "policy": POLICY}


@runs("protocol", "protocol_flows")
async def volume(ctx: RequestContext) -> dict[str, Any]:
    """Cumulative volume and fees of each chain from its first market activity to its anchor."""
    at = await anchors(ctx)
    counted = [a for a in at if a.end is not None and a.first_hour is not None]
    found = await spans(ctx, [(a.chain.chain_id, a.first_hour, a.end) for a in counted])
    figures = {a.chain.chain_id: span(a.first_hour, a.end, a.end, a.first_hour, f) for a, f in zip(counted, found)}
    parts = [(a.chain.chain_id, a.chain.state, figures.get(a.chain.chain_id)) for a in at]
    totals = combine(parts, FLOW_METRICS)
    _complete(ctx, totals)
    return {"chains": [{**a.head(), "cumulative": figures.get(a.chain.chain_id)} for a in at],
            "totals": totals, "policy": POLICY}


@runs("protocol", "protocol_periods")
async def periods(ctx: RequestContext) -> dict[str, Any]:
    """/history (hourly periods) and /daily (daily periods), newest `days` worth, oldest first."""
    period = PERIODS[ctx.route.name.removeprefix("protocol_")]
    utc = ctx.params["alignment"] == "utc"
    count = ctx.params["days"] * DAY // period
    at = await anchors(ctx)
    tops = period_tops(at, period, utc)
    anchored = [a for a in at if a.chain.chain_id in tops]
    found = await ctx.columns("protocol_periods", chain_ids=[a.chain.chain_id for a in anchored],
                              tops=[tops[a.chain.chain_id] for a in anchored], ends=[a.end for a in anchored],
                              snapshot_ats=[a.chain.snapshot.param for a in anchored],
                              period_seconds=period, periods=count) if anchored else {}
    # thousands of periods per chain: shaped off the event loop (api/offload.py)
    answer = await off_loop(_periods, at, anchored, tops, found, period, count, utc)
    _complete(ctx, answer["totals"])
    return {"alignment": ctx.params["alignment"], **answer}


def _periods(at: list[Anchor], anchored: list[Anchor], tops: dict[int, int], found: dict[str, list], period: int,
             count: int, utc: bool) -> dict[str, Any]:
    """`periods`' answer but its alignment, from `found`, protocol_periods.sql's columns. Thousands
    of periods a chain: a period wholly inside the chain's market ([first activity, anchor)) takes
    the direct path, whose figure is what `span` gives it; the others call `span`. Each period
    boundary is printed once."""
    index: dict[int, dict[int, int]] = {}  # chain -> k -> row
    if found:  # else no chain is anchored
        for i, (cid, k) in enumerate(zip(found["chain_id"], found["k"])):
            index.setdefault(cid, {})[k] = i
        volumes, fees, hours, tvls, tvl_ats = (found[c] for c in ("volume_usd", "fees_usd", "hours", "tvl_usd", "tvl_at"))
    expected = period // HOUR
    series: dict[int, list[dict]] = {}
    for a in anchored:
        cid, top, end, first = a.chain.chain_id, tops[a.chain.chain_id], a.end, a.first_hour
        rows = index.get(cid, {})
        marks = [stamp(top - j * period) for j in range(count + 1)]  # marks[k]: where period k ends
        out = []
        for k in range(count - 1, -1, -1):
            i = rows.get(k)
            start, stop = top - (k + 1) * period, top - k * period
            covered = 0 if i is None else hours[i]
            if stop <= end and (first is None or start >= first):
                figure = {
                    "from": marks[k + 1], "toExclusive": marks[k], "durationSeconds": period, "partial": False,
                    "volumeUsd": volumes[i] if covered else None, "feesUsd": fees[i] if covered else None,
                    "hoursCovered": covered, "hoursExpected": expected, "complete": covered == expected,
                    "gap": None if covered else NOT_INDEXED, "tvlUsd": None, "tvlObservedAt": None,
                }
            else:
                figure = span(start, stop, end, first,
                              {"volume_usd": volumes[i], "fees_usd": fees[i], "hours": covered} if covered else None)
                figure["tvlUsd"] = figure["tvlObservedAt"] = None
            if i is not None and tvl_ats[i] is not None:
                at_ = tvl_ats[i]  # the period's newest snapshot: usually its end
                figure["tvlUsd"] = tvls[i]
                figure["tvlObservedAt"] = marks[k] if at_ == stop else stamp(at_)
            out.append(figure)
        series[cid] = out
    return {
        "periodSeconds": period,
        "chains": [{**a.head(), "periods": series.get(a.chain.chain_id)} for a in at],
        "totals": _period_totals(at, series, count if series else 0, utc),
        "policy": POLICY,
    }


def _period_totals(at: list[Anchor], series: dict[int, list[dict]], count: int, utc: bool) -> list[dict]:
    """Per period index the chains' periods added: `combine` of their flows (a period's volume and
    fees are known together or not at all), the TVL observations added. One pass per period over
    the chains (thousands of periods: no per-period generator or sort)."""
    missing_always = sorted(a.chain.chain_id for a in at if a.chain.chain_id not in series)
    present = [(a.chain.chain_id, a.chain.state == FRESH, series[a.chain.chain_id]) for a in at
               if a.chain.chain_id in series]
    if len(present) == 1 and not missing_always:  # one chain: each total is its period's figures
        return _one_chain_totals(*present[0], utc)
    return _chains_totals(missing_always, present, count, utc)


def _chains_totals(missing_always: list[int], present: list[tuple[int, bool, list[dict]]], count: int,
                   utc: bool) -> list[dict]:
    """`_period_totals` over the chains `present` ((chain, fresh, periods)), the chains
    `missing_always` missing from every total."""
    totals = []
    for i in range(count):
        volume = fees = tvl = first = last = None
        summed, missing, tvl_ids = [], list(missing_always), []
        complete, partial = not missing_always, False
        for cid, fresh, periods in present:
            f = periods[i]
            if f["volumeUsd"] is not None:
                volume = f["volumeUsd"] if volume is None else volume + f["volumeUsd"]
                fees = f["feesUsd"] if fees is None else fees + f["feesUsd"]
                summed.append(cid)
            elif f["gap"] != BEFORE_FIRST_ACTIVITY:
                missing.append(cid)
            complete = complete and fresh and f["complete"]
            partial = partial or f["partial"]
            if f["tvlUsd"] is not None:
                tvl = f["tvlUsd"] if tvl is None else tvl + f["tvlUsd"]
                tvl_ids.append(cid)
            if first is None or f["from"] < first:  # ISO 8601 UTC stamps order as their instants
                first = f["from"]
            if last is None or f["toExclusive"] > last:
                last = f["toExclusive"]
        totals.append({
            "from": first,
            "toExclusive": last,
            "synchronized": utc,
            "partial": partial,
            "volumeUsd": volume,
            "feesUsd": fees,
            "chainIds": summed,
            "missingChainIds": sorted(missing) if len(missing) > 1 else missing,
            "complete": complete and not missing,
            "tvlUsd": tvl,
            "tvlChainIds": tvl_ids,
        })
    return totals


def _one_chain_totals(chain_id: int, fresh: bool, periods: list[dict], utc: bool) -> list[dict]:
    """`_period_totals` of one chain's periods, without the loop over chains."""
    ids, none = [chain_id], []
    totals = []
    for f in periods:
        flowing = f["volumeUsd"] is not None
        missing = none if flowing or f["gap"] == BEFORE_FIRST_ACTIVITY else ids
        totals.append({
            "from": f["from"],
            "toExclusive": f["toExclusive"],
            "synchronized": utc,
            "partial": f["partial"],
            "volumeUsd": f["volumeUsd"],
            "feesUsd": f["feesUsd"],
            "chainIds": ids if flowing else none,
            "missingChainIds": missing,
            "complete": fresh and f["complete"] and not missing,
            "tvlUsd": f["tvlUsd"],
            "tvlChainIds": ids if f["tvlUsd"] is not None else none,
        })
    return totals
