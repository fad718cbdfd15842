"""Handlers of /v1/epochs (each covered chain's epochs, newest first, in pages with signed
cursors) and /v1/epochs/{chainId}/{epochStart} (one epoch of one chain with every gauge's figures).

An epoch is a Thursday 00:00 UTC week. A chain's epochs run from the one of its deployment (the
chain book's `deployedAt`) to the one holding its published snapshot, which is `partial` (running),
as is any whose figures were read before it ended. Its figures are the sums over the chain's
gauges of their epoch aggregates (`gauge_epochs`): gauge counts, votes in effect, emissions
allotted and emitted, notified bribes and accrued trading fees, each its own quantity, never added
together; an epoch the chain's governance events have not read is `gap: not_indexed`.
"""
from __future__ import annotations

from typing import Any

from ...cursors import filters_digest
from ...errors import ApiError
from ...routes import RequestContext, runs
from ....core.epochs import WEEK, epoch_start
from ..common.decimals import decimal_text
from ..common.epochs import aligned_epoch
from ..common.flows import stamp
from ..common.path_chain import path_chain
from ..common.traversal import chains_traversal, one_page

CURSOR_FORMAT = 1
NOT_INDEXED = "not_indexed"
EPOCH_BEFORE_DEPLOYMENT = "epoch_before_deployment"
EPOCH_IN_FUTURE = "epoch_in_future"


def _first_epoch(ctx: RequestContext, chain_id: int, newest: int) -> int:
    deployed = ctx.settings.chains[chain_id].deployed_at
    return epoch_start(deployed) if deployed is not None else newest


def summary(chain_id: int, start: int, snapshot: int, r: dict[str, Any] | None) -> dict[str, Any]:
    head = {"chainId": chain_id, "epochStart": stamp(start), "epochEnd": stamp(start + WEEK)}
    running = start + WEEK > snapshot
    if r is None:
        return {**head, "partial": running, "readAt": None, "gauges": None, "votesRaw": None, "emissionsRaw": None,
                "emittedRaw": None, "bribesUsd": None, "bribeCount": None, "unpricedBribeCount": None,
                "feesUsd": None, "gap": NOT_INDEXED}
    return {
        **head,
        "partial": running or bool(r["partial"]),
        "readAt": stamp(r["read_until"]),
        "gauges": {"total": int(r["gauges"]), "alive": int(r["alive"]), "voted": int(r["voted"]),
                   "emitting": int(r["emitting"])},
        "votesRaw": r["total_votes"],
        "emissionsRaw": r["total_emissions"],
        "emittedRaw": r["total_emitted"],
        "bribesUsd": None if r["bribes_unknown"] else decimal_text(r["total_bribes_usd"]),
        "bribeCount": int(r["total_bribe_count"]),
        "unpricedBribeCount": int(r["total_unpriced"]),
        "feesUsd": None if r["fees_unknown"] else decimal_text(r["total_fees_usd"]),
        "gap": None,
    }


@runs("epochs")
async def page(ctx: RequestContext) -> dict[str, Any]:
    f = {"chainIds": list(ctx.coverage.chain_ids)}
    digest = filters_digest(f)
    payload, chains = chains_traversal(ctx, digest, CURSOR_FORMAT)
    pairs = sorted(((-s, c.chain_id) for c in chains
                    for s in range(epoch_start(c.snapshot.unix), _first_epoch(ctx, c.chain_id, epoch_start(
                        c.snapshot.unix)) - 1, -WEEK)))
    if payload:
        after = (-payload["key"][0], payload["key"][1])
        pairs = [p for p in pairs if p > after]
    pairs = one_page(ctx, pairs, digest, CURSOR_FORMAT, tuple(chains), lambda last: [-last[0], last[1]])
    snapshots = {c.chain_id: c.snapshot.unix for c in chains}
    rows = await ctx.rows("epochs", chain_ids=[cid for _, cid in pairs], epochs=[-s for s, _ in pairs]) if pairs else []
    found = {(int(r["chain_id"]), int(r["epoch_ts"])): r for r in rows}
    out = [summary(cid, -s, snapshots[cid], found.get((cid, -s))) for s, cid in pairs]
    if any(e["gap"] or e["bribesUsd"] is None for e in out):
        ctx.meta["complete"] = False
    return {"rows": out}


@runs("epochs", "epoch_gauges")
async def detail(ctx: RequestContext) -> dict[str, Any]:
    p = ctx.params
    cid = p["chainId"]
    chain = path_chain(ctx)
    start = aligned_epoch(p["epochStart"], "epochStart")
    newest = epoch_start(chain.snapshot.unix)
    first = _first_epoch(ctx, cid, newest)
    if start > newest:
        raise ApiError(404, EPOCH_IN_FUTURE, f"epoch {stamp(start)} starts after the epoch of chain {cid}'s published "
                       f"snapshot ({stamp(newest)})", details={"newestEpoch": stamp(newest)})
    if start < first:
        raise ApiError(404, EPOCH_BEFORE_DEPLOYMENT, f"epoch {stamp(start)} is before chain {cid}'s deployment (its "
                       f"first epoch starts {stamp(first)})", details={"firstEpoch": stamp(first)})
    rows = await ctx.rows("epochs", chain_ids=[cid], epochs=[start])
    gauges = await ctx.rows("epoch_gauges", chain_ids=[cid], snapshot_ats=[chain.snapshot.param], epoch=start)
    epoch = summary(cid, start, chain.snapshot.unix, rows[0] if rows else None)
    if epoch["gap"] or epoch["partial"] or epoch["bribesUsd"] is None:
        ctx.meta["complete"] = False
    return {**epoch, "gaugeEpochs": [_gauge(g) for g in gauges] if rows else None}


def _gauge(g: dict[str, Any]) -> dict[str, Any]:
    system = g["gauge_kind"] == "system"
    return {
        "address": g["address"],
        "kind": g["gauge_kind"],
        "target": g["target"],
        "pool": None if system else g["pool_address"],
        "symbols": [g["token0_symbol"], g["token1_symbol"]] if g["pool_listed"] and not system else None,
        "alive": bool(g["is_alive"]),
        "partial": bool(g["is_partial"]),
        "readAt": stamp(g["read_at"]),
        "votesRaw": g["votes_raw"],
        "epochStartWeightRaw": g["votes_at_start_raw"],
        "emissionsRaw": g["emissions_raw"],
        "ratePerSecondRaw": g["reward_rate_raw"],
        "emittedRaw": g["emitted_raw"],
        "feesUsd": decimal_text(g["fees_usd"]),
        "bribesUsd": decimal_text(g["bribes_usd"]),
        "bribeCount": int(g["bribe_count"]),
        "unpricedBribeCount": int(g["unpriced_bribe_count"]),
    }
