"""Handlers of /v1/gauges (every gauge of the covered chains at their published snapshots, in
pages with signed cursors) and /v1/gauges/{chainId}/{gaugeAddress} (one gauge, with this epoch's
notified bribes per token and trading fees accrued to it).

Both read `gauges.sql`: the gauge snapshot rows of each chain's published snapshot, the chain's
total Voter weight, the core token's price, the pool, the gauge's timeline and the weight that
split this epoch's emissions. A traversal pins the first page's snapshots in its cursor.
"""
from __future__ import annotations

from typing import Any

from ...cursors import filters_digest
from ...errors import ApiError
from ...routes import RequestContext, runs
from ....core.epochs import WEEK
from ..common.decimals import float_bits
from ..common.params import qualified
from ..common.path_chain import path_chain
from ..common.traversal import chains_traversal, one_page
from .rows import gauge, this_epoch

CURSOR_FORMAT = 1
GAUGE_NOT_FOUND = "gauge_not_found"
ALL = {"kind": "", "alive": -1, "pool": "", "pool_chain": 0, "token": "", "token_chain": 0, "address": ""}
TRISTATE = {None: -1, False: 0, True: 1}


def filters(ctx: RequestContext) -> dict[str, Any]:
    """The normalized filters: what the cursor binds to and the query takes."""
    p = ctx.params
    pool_chain, pool = qualified(p["pool"])
    token_chain, token = qualified(p["token"])
    return {"chainIds": list(ctx.coverage.chain_ids), "kind": p["kind"] or "", "alive": p["alive"],
            "pool": pool, "poolChain": pool_chain, "token": token, "tokenChain": token_chain, "sort": p["sort"],
            "direction": p["direction"], "aprProfile": p["aprProfile"]}


def _values(chains, **filters: Any) -> dict[str, Any]:
    return {"chain_ids": [c.chain_id for c in chains], "snapshot_ats": [c.snapshot.param for c in chains],
            **ALL, **filters}


def gauge_values(chain, address: str) -> dict[str, Any]:
    """`gauges.sql`'s values for one gauge of `chain` at its snapshot."""
    return {**_values((chain,), address=address), "sort": "votes", "descending": 1, "after": 0, "c_null": 0,
            "c_num": 0, "c_chain": 0, "c_address": "", "limit": 1}


@runs("gauges")
async def page(ctx: RequestContext) -> dict[str, Any]:
    f = filters(ctx)
    digest = filters_digest(f)
    payload, chains = chains_traversal(ctx, digest, CURSOR_FORMAT)
    c_null, c_num, c_chain, c_address = payload["key"] if payload else (0, 0.0, 0, "")
    rows = await ctx.rows("gauges", **_values(
        chains, kind=f["kind"], alive=TRISTATE[f["alive"]], pool=f["pool"], pool_chain=f["poolChain"],
        token=f["token"], token_chain=f["tokenChain"]), sort=f["sort"], descending=int(f["direction"] == "desc"),
        after=int(payload is not None), c_null=c_null, c_num=float_bits(c_num), c_chain=c_chain, c_address=c_address,
        limit=ctx.params["limit"] + 1)
    rows = one_page(ctx, rows, digest, CURSOR_FORMAT, chains,
                    lambda last: [int(last["k_null"]), last["k_num"], int(last["chain_id"]), last["address"]])
    return {"rows": [gauge(r, f["aprProfile"]) for r in rows], "filters": f}


@runs("gauges", "gauge_epochs")
async def detail(ctx: RequestContext) -> dict[str, Any]:
    p = ctx.params
    chain = path_chain(ctx)
    cid, address = p["chainId"], p["gaugeAddress"]
    rows = await ctx.rows("gauges", **gauge_values(chain, address))
    if not rows:
        raise ApiError(404, GAUGE_NOT_FOUND, f"gauge {address} is not listed in chain {cid}'s published snapshot")
    row = rows[0]
    epoch = row["epoch_ts"]
    read = (await ctx.rows("gauge_epochs", chain_id=cid, snapshot_at=chain.snapshot.param, address=address,
                           epoch_from=epoch, epoch_to=epoch + WEEK))[0]
    return {**gauge(row, p["aprProfile"]), "thisEpoch": this_epoch(read, epoch, chain.snapshot.unix)}
