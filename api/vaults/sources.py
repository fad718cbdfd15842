"""The upstreams of /api/v1 as handlers see them: the memoized chain read of the vault book
(one block per answer, single-flight), the warehouse's latest published prices and APRs, and the
health probes. The memo (api/cache.py) and the chain reader are the worker's (`app.ctx`); every
route's answer is kept for its cache_seconds by the pipeline (`Route.memoized`, api/routes.py)."""
from __future__ import annotations

import asyncio
import logging
from typing import Any

import httpx

from ..errors import ApiError
from ..routes import RequestContext
from ..sql import unix_seconds
from .chain import BookState, read_balances, read_book
from ...core import clock

log = logging.getLogger("api")

BOOK_TTL_SECONDS = 15  # the vaults resource's memoization (spec: vaults 15 s)
UPSTREAM_ERROR = "upstream_error"
SUBGRAPH_TIMEOUT_SECONDS = 3.0


def contracts(ctx: RequestContext, chain_id: int | None = None) -> dict[str, str]:
    """The chain's address book plus the vault-protocol contracts (factory, zapper, position manager)."""
    cid = ctx.chain_id if chain_id is None else chain_id
    return {**ctx.settings.contracts(cid), **ctx.settings.chain(cid).vault_contracts}


async def book(ctx: RequestContext, chain_id: int | None = None) -> BookState:
    """Every vault's on-chain state at the head block of a chain (default: the family's); 502
    upstream_error when the RPC fails. One memo per chain for /api/v1 and /v1's auto-managed
    vaults: the two views read the same block."""
    cid = ctx.chain_id if chain_id is None else chain_id

    async def compute() -> BookState:
        reader, vaults, book_contracts = ctx.chain_reader(cid), ctx.settings.vaults(cid), contracts(ctx, cid)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(None, read_book, reader, vaults, book_contracts)

    try:
        return await ctx.app.ctx.memo.get(("vaults", "book", cid), BOOK_TTL_SECONDS, compute)
    except Exception as exc:  # noqa: BLE001 - any chain failure is this family's documented 502
        log.warning("vault book read failed: %s: %s", type(exc).__name__, str(exc)[:300])
        raise ApiError(502, UPSTREAM_ERROR, "the chain RPC did not answer; retry with backoff") from exc


async def latest_rows(ctx: RequestContext, query: str, addresses: list[str]) -> dict[str, dict[str, Any]] | None:
    """address -> row of the latest published stats snapshot; None when the warehouse failed."""
    try:
        rows = await ctx.rows(query, addresses=sorted({a.lower() for a in addresses}))
    except Exception as exc:  # noqa: BLE001 - a warehouse failure degrades the answer, values become null
        log.warning("vault API: %s failed: %s", query, type(exc).__name__)
        return None
    return {row["address"]: row for row in rows}


async def prices(ctx: RequestContext, state: BookState) -> dict[str, float]:
    addresses = [t["address"] for v in state.vaults for t in v.tokens.values() if t.get("address")]
    rows = await latest_rows(ctx, "token_prices", addresses) or {}
    return {a: r["priceUsd"] for a, r in rows.items() if r["priceUsd"] is not None}


async def balances(ctx: RequestContext, state: BookState, user: str) -> list[int | None]:
    """`balanceOf(user)` of every vault of `state` at state.block (None: the read reverted)."""
    reader, configs = ctx.chain_reader(), [v.config for v in state.vaults]
    loop = asyncio.get_running_loop()
    try:
        return await loop.run_in_executor(None, read_balances, reader, configs, user, state.block)
    except Exception as exc:  # noqa: BLE001 - any chain failure is this family's documented 502
        log.warning("vault balances read failed: %s: %s", type(exc).__name__, str(exc)[:300])
        raise ApiError(502, UPSTREAM_ERROR, "the chain RPC did not answer; retry with backoff") from exc


async def user_events(ctx: RequestContext, user: str, vaults: list[str], block: int) -> list[dict[str, Any]] | None:
    """The wallet's deposits and withdrawals in `vaults` up to `block`, newest first; None when
    the warehouse failed (the P&L is then unknown, the answer degraded)."""
    try:
        return await ctx.rows("user_events", user=user.lower(), vaults=sorted(a.lower() for a in vaults), block=block)
    except Exception as exc:  # noqa: BLE001 - a warehouse failure degrades the answer, values become null
        log.warning("vault API: user_events failed: %s", type(exc).__name__)
        return None


async def subgraph_head(ctx: RequestContext) -> dict[str, Any]:
    """Probe of the subgraph's `_meta` (health only; no data is read from it)."""
    url = ctx.settings.chain(ctx.chain_id).subgraph_url
    query = {"query": "{ _meta { block { number } hasIndexingErrors } }"}
    try:
        async with httpx.AsyncClient(timeout=SUBGRAPH_TIMEOUT_SECONDS) as client:
            response = await client.post(url, json=query)
            response.raise_for_status()
            meta = response.json()["data"]["_meta"]
        return {"block": int(meta["block"]["number"]), "hasIndexingErrors": bool(meta["hasIndexingErrors"])}
    except Exception as exc:  # noqa: BLE001 - an unreachable subgraph is a "down" status, not a failure
        return {"block": None, "hasIndexingErrors": None, "error": type(exc).__name__}


def age_seconds(iso_text: str) -> int:
    return max(int(clock.now() - unix_seconds(iso_text)), 0)
