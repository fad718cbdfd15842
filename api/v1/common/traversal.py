"""What a paginated /v1 traversal is pinned to: the chains (and their snapshots) its first page
covered, carried in its signed cursor as a vector, and digests of what else it rests on. Every
paginated route pins its traversal with these (discovery, price history, ticks, bribes).
"""
from __future__ import annotations

import hashlib
from typing import Any, Callable

from ...coverage import ChainCoverage
from ...cursors import FILTERS, ROUTE, expired
from ...snapshots import Snapshot
from .path_chain import path_chain


def digest(value: Any) -> str:
    return hashlib.blake2s(repr(value).encode(), digest_size=12).hexdigest()


def pinned(vector: list[list]) -> tuple[ChainCoverage, ...]:
    """The chains a cursor's traversal reads: [chainId, state, snapshot param, snapshotAt, unix,
    indexedAt, availableAt] each, as its first page covered them."""
    return tuple(ChainCoverage(cid, state, Snapshot(at_iso, param, unix, "", 0, (), indexed, available))
                 for cid, state, param, at_iso, unix, indexed, available in vector)


def vector_of(chains: tuple[ChainCoverage, ...]) -> list[list]:
    return [[c.chain_id, c.state, c.snapshot.param, c.snapshot.at_iso, c.snapshot.unix, c.snapshot.indexed_at,
             c.snapshot.available_at] for c in chains]


def traversal(ctx, filters: str, fmt: int) -> tuple[dict | None, ChainCoverage]:
    """Where a single-chain traversal's page reads: for a first page (no `cursor` parameter) no
    payload and the path's chain at its published snapshot; for a later one, `resumed`."""
    if not ctx.params["cursor"]:
        return None, path_chain(ctx)
    return resumed(ctx, ctx.params["cursor"], filters, fmt)


def chains_traversal(ctx, filters: str, fmt: int) -> tuple[dict | None, tuple[ChainCoverage, ...]]:
    """Where a multichain traversal's page reads: for a first page no payload and the covered
    chains with a published snapshot; for a later one the payload of its verified cursor and the
    chains as its first page read them (also set as meta.pinned)."""
    if not ctx.params["cursor"]:
        return None, ctx.coverage.require_usable()
    payload = _verified(ctx, ctx.params["cursor"], filters, fmt)
    chains = pinned(payload["chains"])
    ctx.meta["pinned"] = [c.meta() for c in chains]
    return payload, chains


def next_cursor(ctx, filters: str, fmt: int, chains: ChainCoverage | tuple[ChainCoverage, ...], **position: Any) -> str:
    """The signed cursor of a traversal's next page (one chain, or the chains of a multichain
    one): `resumed`'s bindings and the route's `position` fields."""
    return ctx.app.ctx.cursors.encode({"v": fmt, ROUTE: ctx.route.name, FILTERS: filters, "cur": _curation(ctx),
                                       "chains": vector_of(chains if isinstance(chains, tuple) else (chains,)),
                                       **position})


def one_page(ctx, rows: list, filters: str, fmt: int, chains: ChainCoverage | tuple[ChainCoverage, ...],
             key: Callable[[Any], list], **position: Any) -> list:
    """The page among `rows` (read or built with limit + 1 or more): its first `limit` rows, with
    meta.pageInfo set (the next page's cursor resumes after the page's last row, at `key(row)`,
    with the route's other `position` fields)."""
    limit = ctx.params["limit"]
    more = len(rows) > limit
    rows = rows[:limit]
    ctx.meta["pageInfo"] = {"hasNextPage": more, "nextCursor": next_cursor(
        ctx, filters, fmt, chains, key=key(rows[-1]), **position) if more else None}
    return rows


def resumed(ctx, cursor: str, filters: str, fmt: int) -> tuple[dict, ChainCoverage]:
    """A single-chain traversal's later page: the payload of its verified cursor (this route, these
    filters, this release's format `fmt`, the current curation) and the chain as its first page
    read it (also set as meta.pinned). Else 400 invalid_cursor or cursor_expired."""
    payload = _verified(ctx, cursor, filters, fmt)
    chain = pinned(payload["chains"])[0]
    ctx.meta["pinned"] = [chain.meta()]
    return payload, chain


def _verified(ctx, cursor: str, filters: str, fmt: int) -> dict:
    payload = ctx.app.ctx.cursors.decode(cursor, ctx.route.name, filters)
    if payload.get("v") != fmt:  # signed by an earlier release: its fields may differ
        raise expired("the cursor was issued by an earlier release")
    if payload["cur"] != _curation(ctx):
        raise expired("the curation publication changed since this traversal started")
    return payload


def _curation(ctx) -> str | None:
    """The digest of the curation publication the route rests on (None: it rests on none)."""
    curation = ctx.coverage.curation
    return None if curation is None else curation.digest
