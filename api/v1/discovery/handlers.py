"""Handlers of the /v1 discovery routes: /v1/pools and /v1/tokens (ADR 0010).

A page is one query of `pools.sql` / `tokens.sql` over the parameterized views v1_pool_rows /
v1_token_rows (migrations 052, 053), after the keyset of the previous page's last row: the sort
value (NULL last in both directions), then TVL descending, then chain ID and address. Before it,
each chain's anchor and the evidence of its 24h and 7d windows (the /v1/protocol machinery:
`protocol.anchors`, `protocol.trailing_windows`) decide which window amounts exist: a window
whose hourly buckets are not all stored is suppressed (null) before filtering and sorting.

A traversal is pinned: the first page's snapshot vector, curation digest and evidence go into
the signed cursor (api/cursors.py), and every later page reads those snapshots, so a new
publication landing mid-traversal never mixes two snapshots. A cursor whose curation or
evidence no longer holds is 400 `cursor_expired`; one for other filters is `invalid_cursor`.
"""
from __future__ import annotations

import asyncio
from decimal import Decimal
from typing import Any

from ...cursors import expired, filters_digest
from ...routes import RequestContext, runs
from . import rows as discovery_rows
from ..common.anchors import ROLLING_WINDOWS, anchors, trailing_windows
from ..common.decimals import UNDER_BITS, float_bits, served_at_least, served_at_most
from ..common.params import qualified
from ..common.traversal import chains_traversal, digest, next_cursor

CURSOR_FORMAT = 1
NOT_FILTERS = ("cursor", "limit", "includeFacets")  # parameters a traversal may change between pages


def names(text: str | None) -> list[str]:
    """A comma-separated list parameter, normalized: unique, sorted."""
    return sorted({part for part in (text or "").split(",") if part})


def tristate(value: str | bool | None) -> int:
    """true / false / all (or absent) -> 1 / 0 / -1 (the views' Int8 filters)."""
    if value is None or value == "all":
        return -1
    return 1 if value in (True, "true") else 0


def decimal(value: Decimal | None) -> str | None:
    """A decimal filter, normalized (`010.50` and `10.5` are one query) without rounding
    (Decimal.normalize would round to the context's 28 digits)."""
    if value is None:
        return None
    text = format(value, "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def bound(value: str | None, exact) -> list[int]:
    """A decimal filter as the views take it: [] (none), or the bits of the double that compares
    with a stored double as the decimal would with the served (truncated) value."""
    return [] if value is None else [float_bits(exact(Decimal(value)))]


def unknown_names(f: dict[str, Any], known: dict[str, list[str]]) -> dict[str, list[str]]:
    """The tags and categories of the filters the curation does not define: they select nothing
    (a name may be defined by the next publication), and the page says so."""
    out = {param: [n for n in f[param] if n not in names] for param, names in known.items() if param in f}
    return {param: names for param, names in out.items() if names}


def filters(ctx: RequestContext) -> dict[str, Any]:
    """The normalized filters of the request: what its cursor binds to and the views take."""
    p = ctx.params
    document = ctx.coverage.curation.document
    out: dict[str, Any] = {
        "chainIds": list(ctx.coverage.chain_ids),
        "status": p["status"], "q": p["q"] or "", "sort": p["sort"], "direction": p["direction"],
    }
    if ctx.route.name == "tokens":
        out.update(curated=tristate(p["curated"]), tags=names(p["tags"]), tagMode=p["tagMode"])
        return out
    chosen = names(p["categories"])
    scope = p["scope"]
    if scope is None:  # a category's default scope applies when every chosen category has it
        defaults = {c["id"]: c.get("defaultScope", "curated") for c in document["categories"]}
        scope = "all" if chosen and all(defaults.get(c) == "all" for c in chosen) else "curated"
    token_chain, token = qualified(p["token"])
    out.update(
        scope=scope, curated=tristate(p["curated"]), featured=tristate(p["featured"]),
        categories=chosen, categoryMode=p["categoryMode"],
        tokenTags=names(p["tokenTags"]), tokenTagMode=p["tokenTagMode"],
        poolTypes=names(p["poolTypes"]), tokenChain=token_chain, token=token,
        minTvlUsd=decimal(p["minTvlUsd"]), maxTvlUsd=decimal(p["maxTvlUsd"]), minFeeApr=decimal(p["minFeeApr"]),
        minEmissionsApr=decimal(p["minEmissionsApr"]), incentivized=tristate(p["incentivized"]),
        liveGauge=tristate(p["liveGauge"]), dynamicFee=tristate(p["dynamicFee"]),
        customFee=tristate(p["customFee"]), aprProfile=p["aprProfile"],
    )
    return out


def view_values(f: dict[str, Any]) -> dict[str, Any]:
    """The filters as the views' parameters."""
    values = {"status": f["status"], "q": f["q"], "sort": f["sort"], "descending": int(f["direction"] == "desc"),
              "curated": f["curated"], "underflow": UNDER_BITS}
    if "tags" in f:
        return {**values, "tags": f["tags"], "tag_all": int(f["tagMode"] == "all")}
    return {
        **values, "apr_profile": f["aprProfile"], "scope_all": int(f["scope"] == "all"), "featured": f["featured"],
        "incentivized": f["incentivized"], "live_gauge": f["liveGauge"], "dynamic_fee": f["dynamicFee"],
        "custom_fee": f["customFee"], "pool_types": f["poolTypes"], "categories": f["categories"],
        "category_all": int(f["categoryMode"] == "all"), "token_tags": f["tokenTags"],
        "token_tag_all": int(f["tokenTagMode"] == "all"), "token": f["token"], "token_chain": f["tokenChain"],
        "min_tvl": bound(f["minTvlUsd"], served_at_least), "max_tvl": bound(f["maxTvlUsd"], served_at_most),
        "min_fee_apr": bound(f["minFeeApr"], served_at_least),
        "min_emissions_apr": bound(f["minEmissionsApr"], served_at_least),
    }


@runs("protocol", "protocol_flows", "{name}", "{name}_facets")
async def page(ctx: RequestContext) -> dict[str, Any]:
    p = ctx.params
    f = filters(ctx)
    curation = ctx.coverage.curation
    filter_digest = filters_digest(f)
    payload, chains = chains_traversal(ctx, filter_digest, CURSOR_FORMAT)
    after = payload["key"] if payload else None
    at = await anchors(ctx, chains)
    windows = await trailing_windows(ctx, at, ROLLING_WINDOWS)
    evidence = digest([(a.chain.chain_id, a.end, [(w["hoursCovered"], w["hoursExpected"]) for w in windows.get(a.chain.chain_id, ())])
                       for a in at])
    if p["cursor"] and payload["ev"] != evidence:
        raise expired("the hourly evidence behind this traversal's windows changed since it started")
    ok = {a.chain.chain_id: [int(w["complete"]) for w in windows[a.chain.chain_id]] if a.end is not None else [0, 0]
          for a in at}
    if not all(all(flags) for flags in ok.values()):
        ctx.meta["complete"] = False
    values = {
        **view_values(f), "chain_ids": [a.chain.chain_id for a in at], "snapshot_ats": [a.chain.snapshot.param for a in at],
        "ends": [a.end or 0 for a in at], "ok24": [ok[a.chain.chain_id][0] for a in at],
        "ok7": [ok[a.chain.chain_id][1] for a in at], "curation": curation.digest,
    }
    k_null, k_num, k_text, tvl_null, k_tvl, chain, address = after or (0, 0.0, "", 0, 0.0, 0, "")
    keyset = {"c_null": k_null, "c_num": float_bits(k_num), "c_text": k_text, "c_tvl_null": tvl_null,
              "c_tvl": float_bits(k_tvl), "c_chain": chain, "c_address": address}
    limit = p["limit"]
    queries = [ctx.rows(ctx.route.name, **values, **keyset, after=int(after is not None), limit=limit + 1)]
    if p["includeFacets"]:
        queries.append(ctx.rows(f"{ctx.route.name}_facets", **values))
    found = await asyncio.gather(*queries)
    rows = found[0]
    more = len(rows) > limit
    rows = rows[:limit]
    next_page = None
    if more:
        last = rows[-1]
        next_page = next_cursor(ctx, filter_digest, CURSOR_FORMAT, chains, ev=evidence, key=[
            last["k_null"], last["k_num"], last["k_text"], last["tvl_null"], last["k_tvl"], last["chain_id"],
            last["address"]])
    shape = discovery_rows.pool if ctx.route.name == "pools" else discovery_rows.token
    context = discovery_rows.chain_context(at, windows)
    ctx.meta["pageInfo"] = {"nextCursor": next_page, "hasNextPage": more}
    data: dict[str, Any] = {"rows": [shape(r, context[r["chain_id"]]) for r in rows], "filters": discovery_rows.echo(f)}
    document = curation.document
    unknown = unknown_names(f, {"tags": [t["id"] for t in document["tags"]], "tokenTags": [t["id"] for t in document["tags"]],
                                "categories": [c["id"] for c in document["categories"]]})
    if unknown:
        data["unknownNames"] = unknown
    if p["includeFacets"]:
        data["facets"] = discovery_rows.facets(found[1])
    return data
