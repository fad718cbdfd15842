"""Handlers of the auto-managed vault list and detail (ADR 0018), /v1/auto-manage/vaults and
/v1/auto-manage/vaults/{chainId}/{vault}.

One source, two views: each selected chain's vault book is read live with the code and the memo
of the vault data API (api/vaults/sources.book: one block per chain, kept 15 s), and valued with
the token prices of the chain's published snapshot (what /api/v1 values with). A vault whose live
read is incomplete, or every vault of a chain whose RPC failed, answers its latest indexed
snapshot row instead, marked `observation.source: indexed` with the reason; a vault with neither
has null figures, never zeros. The estimated APR comes from the trailing week of indexed hours
(records.apr).
"""
from __future__ import annotations

import asyncio
from typing import Any

from ...errors import ApiError
from ...routes import RequestContext, runs
from ...vaults import sources
from ...vaults.chain import BookState
from .events import VAULT_NOT_FOUND
from .records import indexed_record, live_record, unread_record

LIVE_READ_FAILED = "live_read_failed"  # the vault's own reads reverted or failed at the live block
RPC_UNAVAILABLE = "rpc_unavailable"  # the chain's RPC did not answer


async def _live(ctx: RequestContext, cid: int) -> BookState | None:
    try:
        return await sources.book(ctx, cid)
    except ApiError:  # logged by sources.book; the chain answers from its index
        return None


async def _records(ctx: RequestContext, address: str = "") -> list[dict[str, Any]]:
    chains = ctx.coverage.require_usable()
    selected = [(c, [v for v in ctx.settings.vaults(c.chain_id) if not address or v.address.lower() == address])
                for c in chains]
    selected = [(c, configs) for c, configs in selected if configs]
    # the warehouse query and the chains' live reads overlap
    rows, *books = await asyncio.gather(
        ctx.rows("auto_vaults", chain_ids=[c.chain_id for c in chains], snapshots=[c.snapshot.param for c in chains],
                 address=address),
        *(_live(ctx, c.chain_id) for c, _ in selected))
    indexed = {(int(r["chain_id"]), r["vault_address"]): r for r in rows}
    out = []
    for (c, configs), book in zip(selected, books):
        for cfg in configs:
            row = indexed.get((c.chain_id, cfg.address.lower()))
            live = book.find(cfg.address) if book is not None else None
            if live is not None and live.complete and book.global_pause is not None:
                out.append(live_record(c.chain_id, live, book, row))
            elif row is not None:
                out.append(indexed_record(c.chain_id, cfg, row, RPC_UNAVAILABLE if book is None else LIVE_READ_FAILED))
            else:
                out.append(unread_record(c.chain_id, cfg, RPC_UNAVAILABLE if book is None else LIVE_READ_FAILED))
    if any(r["observation"]["source"] != "live" for r in out):
        ctx.meta["complete"] = False
    return out


@runs("auto_vaults")
async def vaults(ctx: RequestContext) -> list[dict[str, Any]]:
    kind = ctx.params.get("kind")
    return [r for r in await _records(ctx) if kind in (None, r["kind"])]


@runs("auto_vaults")
async def vault(ctx: RequestContext) -> dict[str, Any]:
    cid, address = ctx.params["chainId"], ctx.params["vault"]
    if address not in {v.address.lower() for v in ctx.settings.vaults(cid)}:
        raise ApiError(404, VAULT_NOT_FOUND, f"{address} is not an auto-managed vault of chain {cid} (GET "
                       "/v1/auto-manage/vaults lists them)", details={"chainId": cid, "vault": address})
    return (await _records(ctx, address))[0]
