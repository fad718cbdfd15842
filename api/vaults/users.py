"""Handlers of the /api/v1 routes that need the vault warehouse tables: a vault's history
(vault_hourly / vault_daily) and a wallet's positions (live balanceOf at the book's block plus
vault_events). Each answer is at one block: meta.indexedBlock = the book's block."""
from __future__ import annotations

from collections import defaultdict
from typing import Any

from ..routes import RequestContext, runs
from . import sources
from .chain import BookState
from .handlers import find_vault
from .positions import interaction, portfolio, position, vault_known, vault_ref
from .records import _scaled, checksum


@runs("vault_history")
async def vault_history(ctx: RequestContext) -> dict[str, Any]:
    state = await sources.book(ctx)
    found = find_vault(state, ctx.params["keyOrAddress"])
    rows = await ctx.rows("vault_history", vault=found.config.address.lower())
    d0, d1 = ((found.tokens.get(s) or {}).get("decimals") for s in ("token0", "token1"))
    points = [
        {
            **row,
            "amount0": _scaled(int(row["amount0Raw"]), d0),
            "amount1": _scaled(int(row["amount1Raw"]), d1),
        }
        for row in rows
    ]
    ctx.meta["indexedBlock"] = state.block
    # the rows come from the warehouse; only the token decimals (scaled amounts) are read live
    ctx.meta["degraded"] = d0 is None or d1 is None
    return {"vault": vault_ref(found), "period": ctx.params["period"], "days": ctx.params["days"], "points": points}


def _by_vault(events: list[dict[str, Any]] | None) -> dict[str, list[dict[str, Any]]] | None:
    if events is None:
        return None
    out: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for e in events:
        out[e["vault"]].append(e)
    return out


@runs("token_prices", "user_events")
async def user_positions(ctx: RequestContext) -> dict[str, Any]:
    user = ctx.params["address"]
    state = await sources.book(ctx)
    shares = await sources.balances(ctx, state, user)
    prices = await sources.prices(ctx, state)
    events = _by_vault(await sources.user_events(ctx, user, [v.config.address for v in state.vaults], state.block))
    records = []
    for vault, balance in zip(state.vaults, shares):
        # active = a positive live balance; an unknown balance is listed too (its values null),
        # since leaving it out would make the totals look complete
        if balance == 0:
            continue
        mine = None if events is None else events.get(vault.config.address.lower(), [])
        records.append(position(vault, balance, mine, prices))
    totals = portfolio(records)
    ctx.meta["indexedBlock"] = state.block
    ctx.meta["degraded"] = (
        None in shares
        or not totals["totals"]["usdComplete"]
        or not totals["pnlComplete"]
        or not all(vault_known(v) for v, b in zip(state.vaults, shares) if b != 0)
    )
    return {"address": checksum(user), "positions": records, **totals}


@runs("token_prices", "user_events")
async def user_vault(ctx: RequestContext) -> dict[str, Any]:
    user = ctx.params["address"]
    state = await sources.book(ctx)
    found = find_vault(state, ctx.params["keyOrAddress"])
    one = BookState(state.block, state.timestamp, state.global_pause, [found])
    (balance,) = await sources.balances(ctx, one, user)
    prices = await sources.prices(ctx, state)
    events = await sources.user_events(ctx, user, [found.config.address], state.block)
    record = position(found, balance, events, prices)
    ctx.meta["indexedBlock"] = state.block
    ctx.meta["degraded"] = balance is None or events is None or not vault_known(found) or (
        record["valueUsd"] is None or not record["pnlComplete"]
    )
    return {"address": checksum(user), **record, "history": [interaction(found, e) for e in events or []]}
