"""Handlers of a gauge's sub-routes, /v1/gauges/{chainId}/{gaugeAddress}/...:
- /history: the gauge per epoch: alive, votes, the weight that split the epoch's emissions,
  emissions, reward rate, emitted, fees and bribes in USD;
- /rewards: per epoch, token by token, the trading fees accrued to its fee reward and the bribes
  notified to it, each with its own USD total, never added together;
- /bribes: its /v1/bribes records.

For /history and /rewards every epoch from the one holding the published snapshot back to the gauge's creation is listed,
newest first, in pages of `limit` epochs with a pinned cursor, like a pool's bribes. An epoch the
chain's governance events have not read has `gap: not_indexed` and null figures; the running one,
and any read before its end, is `partial`.
"""
from __future__ import annotations

import math
from typing import Any

from ...cursors import filters_digest
from ...errors import ApiError
from ...routes import RequestContext, runs
from ....core.epochs import WEEK, epoch_start
from ..common.decimals import decimal_text
from ..common.flows import stamp
from ..common.traversal import next_cursor, traversal
from ..common.epochs import aligned_epoch
from ..common.params import qualified
from ..governance.bribes import page as records
from .handlers import GAUGE_NOT_FOUND, gauge_values
from .rows import token_amount

CURSOR_FORMAT = 1
NOT_INDEXED = "not_indexed"


def _history(start: int, e: tuple | None, snapshot: int) -> dict[str, Any]:
    head = {"epochStart": stamp(start), "epochEnd": stamp(start + WEEK)}
    if e is None:
        return {**head, "partial": start + WEEK > snapshot, "readAt": None, "alive": None, "votesRaw": None, "epochStartWeightRaw": None,
                "emissionsRaw": None, "ratePerSecondRaw": None, "emittedRaw": None, "feesUsd": None,
                "bribesUsd": None, "bribeCount": None, "unpricedBribeCount": None, "gap": NOT_INDEXED}
    _, alive, partial, votes, at_start, emissions, rate, emitted, _, fees_usd, bribes_usd, count, unpriced, read = e
    return {**head, "partial": bool(partial) or start + WEEK > snapshot, "readAt": stamp(read), "alive": bool(alive),
            "votesRaw": votes, "epochStartWeightRaw": at_start, "emissionsRaw": emissions, "ratePerSecondRaw": rate,
            "emittedRaw": emitted, "feesUsd": decimal_text(fees_usd), "bribesUsd": decimal_text(bribes_usd),
            "bribeCount": int(count), "unpricedBribeCount": int(unpriced), "gap": None}


def _rewards(start: int, e: tuple | None, bribes: list[tuple], snapshot: int) -> dict[str, Any]:
    head = {"epochStart": stamp(start), "epochEnd": stamp(start + WEEK)}
    if e is None:
        return {**head, "partial": start + WEEK > snapshot, "fees": None, "feesUsd": None, "bribes": None, "bribesUsd": None,
                "gap": NOT_INDEXED}
    deposits = [{**token_amount(t, s, d, raw), "amountUsd": None if missing else decimal_text(usd), "deposits": int(n)}
                for _, t, s, d, raw, usd, n, missing in bribes]
    known = not any(b[7] for b in bribes)
    return {**head, "partial": bool(e[2]) or start + WEEK > snapshot,
            "fees": [token_amount(t, s, d, raw) for t, s, d, raw in e[8]], "feesUsd": decimal_text(e[9]),
            "bribes": deposits, "bribesUsd": decimal_text(math.fsum(b[5] for b in bribes)) if known else None,
            "gap": None}


@runs("gauge_epochs")
async def epochs(ctx: RequestContext) -> dict[str, Any]:
    p = ctx.params
    cid, address, limit = p["chainId"], p["gaugeAddress"], p["limit"]
    digest = filters_digest({"chainId": cid, "address": address})
    payload, chain = traversal(ctx, digest, CURSOR_FORMAT)
    newest = payload["next"] if payload else epoch_start(chain.snapshot.unix)
    oldest = newest - (limit - 1) * WEEK
    row = (await ctx.rows("gauge_epochs", chain_id=cid, snapshot_at=chain.snapshot.param, address=address,
                          epoch_from=oldest, epoch_to=newest + WEEK))[0]
    if not row["listed"]:
        raise ApiError(404, GAUGE_NOT_FOUND, f"gauge {address} is not listed in chain {cid}'s published snapshot")
    first = epoch_start(row["created_at"]) if row["created_at"] is not None else newest
    read = {int(e[0]): e for e in row["epochs"]}
    deposits: dict[int, list[tuple]] = {}
    for b in row["bribes"]:
        deposits.setdefault(int(b[0]), []).append(b)
    snapshot = chain.snapshot.unix
    starts = range(newest, max(oldest, first) - 1, -WEEK)
    if ctx.route.name == "gauge_history":
        out = [_history(s, read.get(s), snapshot) for s in starts]
    else:
        out = [_rewards(s, read.get(s), deposits.get(s, []), snapshot) for s in starts]
    if any(e["partial"] or e["gap"] for e in out):
        ctx.meta["complete"] = False
    more = oldest > first
    ctx.meta["pageInfo"] = {"hasNextPage": more, "nextCursor": next_cursor(
        ctx, digest, CURSOR_FORMAT, chain, next=oldest - WEEK) if more else None}
    return {"chainId": cid, "address": address, "snapshotAt": chain.snapshot.at_iso, "firstEpoch": stamp(first),
            "epochs": out}


@runs("gauges", "bribes", "events_coverage")
async def bribes(ctx: RequestContext) -> dict[str, Any]:
    """/v1/gauges/{chainId}/{gaugeAddress}/bribes: the /v1/bribes records of one gauge."""
    p = ctx.params
    cid, address = p["chainId"], p["gaugeAddress"]
    token_chain, token = qualified(p["token"])
    f = {"chainIds": [cid], "epoch": aligned_epoch(p["epoch"], "epoch"), "pool": "", "poolChain": 0,
         "gauge": address, "gaugeChain": cid, "token": token, "tokenChain": token_chain, "briber": ""}
    digest = filters_digest(f)
    payload, chain = traversal(ctx, digest, CURSOR_FORMAT)
    if payload is None and not await ctx.rows("gauges", **gauge_values(chain, address)):
        raise ApiError(404, GAUGE_NOT_FOUND, f"gauge {address} is not listed in chain {cid}'s published snapshot")
    return await records(ctx, f, digest, payload, (chain,))
