"""Handlers of /v1/gauges (every gauge of the covered chains at their published snapshots, in
pages with signed cursors) and /v1/gauges/{chainId}/{gaugeAddress} (one gauge, with this epoch's
notified bribes per token and trading fees accrued to it).

Both read `gauges.sql`: the gauge snapshot rows of each chain's published snapshot, the chain's
total Voter weight, the core token's price, the pool, the gauge's timeline and the weight that
split this epoch's emissions. A traversal pins the first page's snapshots in its cursor.
"""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from ...cursors import filters_digest
from ...errors import ApiError
from ...routes import RequestContext, runs
from ..common.decimals import decimal_text, float_bits, fraction_text
from ..common.flows import stamp
from ..common.params import qualified
from ..common.path_chain import path_chain
from ..common.traversal import chains_traversal, next_cursor
from .rows import gauge

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
    limit = ctx.params["limit"]
    rows = await ctx.rows("gauges", **_values(
        chains, kind=f["kind"], alive=TRISTATE[f["alive"]], pool=f["pool"], pool_chain=f["poolChain"],
        token=f["token"], token_chain=f["tokenChain"]), sort=f["sort"], descending=int(f["direction"] == "desc"),
        after=int(payload is not None), c_null=c_null, c_num=float_bits(c_num), c_chain=c_chain, c_address=c_address,
        limit=limit + 1)
    more = len(rows) > limit
    rows = rows[:limit]
    last = rows[-1] if more else None
    ctx.meta["pageInfo"] = {"hasNextPage": more, "nextCursor": next_cursor(
        ctx, digest, CURSOR_FORMAT, chains,
        key=[int(last["k_null"]), last["k_num"], int(last["chain_id"]), last["address"]]) if last else None}
    return {"rows": [gauge(r, f["aprProfile"]) for r in rows], "filters": f}


@runs("gauges", "gauge_epoch")
async def detail(ctx: RequestContext) -> dict[str, Any]:
    p = ctx.params
    chain = path_chain(ctx)
    cid, address = p["chainId"], p["gaugeAddress"]
    rows = await ctx.rows("gauges", **gauge_values(chain, address))
    if not rows:
        raise ApiError(404, GAUGE_NOT_FOUND, f"gauge {address} is not listed in chain {cid}'s published snapshot")
    row = rows[0]
    epoch = (await ctx.rows("gauge_epoch", chain_id=cid, snapshot_at=chain.snapshot.param, address=address,
                            epoch=row["epoch_ts"]))[0]
    return {**gauge(row, p["aprProfile"]), "thisEpoch": this_epoch(epoch, chain.snapshot.unix)}


def _amount(token: str, symbol: str, decimals: int | None, raw: int, usd: float | None, known: bool) -> dict[str, Any]:
    return {"token": token, "symbol": symbol, "decimals": decimals, "amountRaw": str(raw),
            "amount": None if decimals is None else fraction_text(Fraction(raw, 10 ** decimals)),
            "amountUsd": decimal_text(usd) if known else None}


def this_epoch(e: dict[str, Any], snapshot: int) -> dict[str, Any]:
    """The epoch's notified bribes per token (USD at deposit time; the deposits before the
    snapshot's time as far as the chain's governance events are read) and the trading fees accrued
    to the gauge's fee reward per pool token (USD at each swap's time), each with its own total."""
    until = None if e["events_through"] is None else min(e["events_through"] + 1, snapshot)
    bribes = [_amount(t, s, d, int(raw), usd, not missing) for t, s, d, raw, usd, missing in e["bribes"]]
    fees = None
    if e["fees_read"]:
        fees = [_amount(t, s, d, int(raw), None, False) for t, s, d, raw in e["fees"] if t]
    return {
        "bribes": bribes,
        "bribesIndexedUntil": None if until is None else stamp(until),
        "bribesUsd": None if any(b["amountUsd"] is None for b in bribes) else decimal_text(
            math.fsum(usd for *_, usd, _ in e["bribes"])),
        "fees": fees,
        "feesUsd": decimal_text(e["fees_usd"]) if e["fees_read"] else None,
        "feesReadAt": e["fees_read_at"],
    }
