"""Handlers of /v1/tokens/{chainId}/{tokenAddress}, its /prices, and the batch /v1/prices.

A token is served at its chain's published snapshot (the coverage pins it): listed there and not
blocked by the curation (hidden and deprecated tokens are served with their status), else 404
`token_not_found`. The detail is the token's /v1/tokens row (discovery_rows.token, over the
v1_token_rows view) and its canonical observation in that snapshot; prices come from
prices.py, the one implementation of the price at a boundary.
"""
from __future__ import annotations

from typing import Any

from ...coverage import CHAIN_UNAVAILABLE
from ...errors import ApiError
from ...routes import RequestContext, runs
from ....core.epochs import iso
from ..discovery import rows as discovery_rows
from ..common import observations as price_observations
from ..common.anchors import ROLLING_WINDOWS, anchors, trailing_windows
from ..common.decimals import UNDER_BITS
from ..common.path_chain import path_chain
from ..common.prices import TOKEN_NOT_FOUND, Boundary, key, prices_at


def not_found(chain_id: int, address: str) -> ApiError:
    return ApiError(404, TOKEN_NOT_FOUND, f"token {address} is not listed in chain {chain_id}'s published snapshot, "
                    "or the curation blocks it (GET /v1/tokens?chainIds=<id>&curated=all lists the chain's tokens)")


@runs("protocol", "protocol_flows", "token")
async def token(ctx: RequestContext) -> dict[str, Any]:
    chain = path_chain(ctx)
    cid, address = chain.chain_id, ctx.params["tokenAddress"]
    at = await anchors(ctx, (chain,))
    windows = await trailing_windows(ctx, at, ROLLING_WINDOWS[:1])  # a token row's volume24h
    anchor = at[0]
    ok24 = int(anchor.end is not None and windows[cid][0]["complete"])
    rows = await ctx.rows("token", chain_ids=[cid], snapshot_ats=[chain.snapshot.param], ends=[anchor.end or 0],
                          ok24=[ok24], curation=ctx.coverage.curation.digest, underflow=UNDER_BITS, address=address,
                          tokens=[key(cid, address)], pinned=[chain.snapshot.unix], pinned_at=chain.snapshot.unix)
    if not rows:
        raise not_found(cid, address)
    if not ok24:
        ctx.meta["complete"] = False
    row = rows[0]
    return {**discovery_rows.token(row, discovery_rows.chain_context(at, windows)[cid]),
            "price": price_observations.observation(row, "obs_")}


@runs("prices_at")
async def prices(ctx: RequestContext) -> dict[str, Any]:
    chain = path_chain(ctx)
    cid, address, at = chain.chain_id, ctx.params["tokenAddress"], chain.snapshot.unix
    max_age = ctx.settings.price_max_age_seconds
    [found] = await prices_at(ctx, [chain], [Boundary(cid, address, at)])
    if not found.listed:
        raise not_found(cid, address)
    current, reason = found.current(max_age)
    return {"chainId": cid, "address": address, "at": iso(at), "maxAgeSeconds": max_age, "current": current,
            "reason": reason, "latestCanonical": found.latest_canonical, "latestHistorical": found.latest_historical}


def named(text: str | None) -> list[tuple[int, str]]:
    """The tokens of /v1/prices (`<chainId>:<address>,...`, validated by its pattern): each once, in
    the order first given, addresses lower-case."""
    out = dict.fromkeys((int(cid), address.lower()) for cid, address in
                        (item.split(":", 1) for item in (text or "").split(",") if item))
    return list(out)


@runs("prices_at")
async def batch(ctx: RequestContext) -> dict[str, Any]:
    max_age = ctx.settings.price_max_age_seconds
    wanted = named(ctx.params["tokens"])
    usable = {c.chain_id: c for c in ctx.coverage.usable()}  # a token of another chain: chain_unavailable
    priced = [(cid, address) for cid, address in wanted if cid in usable]
    chains = sorted({usable[cid] for cid, _ in priced}, key=lambda c: c.chain_id)
    found = dict(zip(priced, await prices_at(ctx, chains, [Boundary(cid, a, usable[cid].snapshot.unix)
                                                           for cid, a in priced])))
    items = []
    for cid, address in wanted:
        current, reason = None, CHAIN_UNAVAILABLE
        here = found.get((cid, address))
        if here is not None:
            current, reason = here.current(max_age) if here.listed else (None, TOKEN_NOT_FOUND)
        items.append({"chainId": cid, "address": address, "current": current, "reason": reason})
    return {"maxAgeSeconds": max_age, "items": items}
