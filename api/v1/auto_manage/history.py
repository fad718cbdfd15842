"""Handler of /v1/auto-manage/vaults/{chainId}/{vault}/history: the vault's principal per hour or
UTC day (ADR 0018), every period of the range oldest first, from the hour and day rows the history
asset indexes (vault_hourly, vault_daily). A period without a row says why: before the vault's
first indexed hour while the chain's vault history covers it (`before_vault_deployment`), else
`not_indexed`. Hours end at the last whole hour before the chain's snapshot; days at the end of
the snapshot's UTC day (the running day is partial, as of its last indexed block)."""
from __future__ import annotations

import asyncio
from typing import Any

from ...errors import ApiError
from ...routes import RequestContext, runs
from ....core.epochs import DAY, HOUR
from ..common.decimals import decimal_text
from ..common.flows import stamp
from .events import VAULT_NOT_FOUND
from .records import amount
from ..common.ranges import INVALID_RANGE

MAX_HOURLY_DAYS = 90  # 2,160 hourly periods, as /v1/protocol/history
BEFORE_DEPLOYMENT, NOT_INDEXED = "before_vault_deployment", "not_indexed"


def _period(start: int, r: dict[str, Any] | None, gap: str | None, v: dict[str, Any]) -> dict[str, Any]:
    if r is None:
        return {"periodStart": stamp(start), "partial": False, "shares": amount(None, None),
                "token0": amount(None, None), "token1": amount(None, None), "tvlUsd": None, "sharePriceUsd": None,
                "harvestedUsd": None, "deposits": None, "withdrawals": None, "gap": gap}
    return {"periodStart": stamp(start), "partial": bool(r["partial"]),
            "shares": amount(r["total_supply_raw"], v["share_decimals"]),
            "token0": amount(r["amount0_raw"], v["token0_decimals"]),
            "token1": amount(r["amount1_raw"], v["token1_decimals"]),
            "tvlUsd": decimal_text(r["tvl_usd"]), "sharePriceUsd": decimal_text(r["share_price_usd"]),
            "harvestedUsd": decimal_text(r["harvested_usd"]), "deposits": int(r["deposits"]),
            "withdrawals": int(r["withdrawals"]), "gap": None}


@runs("vault_identity", "auto_vault_history")
async def history(ctx: RequestContext) -> dict[str, Any]:
    p = ctx.params
    cid, address, hourly = p["chainId"], p["vault"], p["interval"] == "1h"
    if hourly and p["days"] > MAX_HOURLY_DAYS:
        raise ApiError(400, INVALID_RANGE, f"interval=1h spans at most {MAX_HOURLY_DAYS} days; got days={p['days']} "
                       "(use interval=1d for longer)", details={"maximum": MAX_HOURLY_DAYS})
    chain = ctx.coverage.require_usable()[0]
    step = HOUR if hourly else DAY
    snap = chain.snapshot.unix
    end = snap - snap % HOUR if hourly else snap - snap % DAY + DAY
    start = end - p["days"] * DAY
    rows, found = await asyncio.gather(  # independent: run together
        ctx.rows("vault_identity", chain_id=cid, address=address, snapshot_at=chain.snapshot.param),
        ctx.rows("auto_vault_history", chain_id=cid, address=address, hourly=int(hourly),
                 **{"from": stamp(start).replace("T", " ").rstrip("Z"), "to": stamp(end).replace("T", " ").rstrip("Z")}))
    if not rows or address not in {v.address.lower() for v in ctx.settings.vaults(cid)}:
        raise ApiError(404, VAULT_NOT_FOUND, f"{address} is not an auto-managed vault of chain {cid} at its published "
                       "snapshot (GET /v1/auto-manage/vaults lists them)", details={"chainId": cid, "vault": address})
    v = rows[0]
    by_start = {int(r["start"]): r for r in found}
    first = next((int(r["first_hour"]) for r in found if r["first_hour"]), None)
    covered_from, covered_through = v["events_from"], v["events_through"]
    periods = []
    for t in range(start, end, step):
        gap = None
        if t not in by_start:
            inside = covered_from is not None and covered_from <= t and t + step - 1 <= covered_through
            gap = BEFORE_DEPLOYMENT if inside and (first is None or t + step <= first) else NOT_INDEXED
            if gap == NOT_INDEXED:
                ctx.meta["complete"] = False
        periods.append(_period(t, by_start.get(t), gap, v))
    return {"chainId": cid, "vault": address, "interval": p["interval"], "from": stamp(start),
            "toExclusive": stamp(end),
            "indexedFrom": None if covered_from is None else stamp(covered_from),
            "indexedUntil": None if covered_through is None else stamp(min(covered_through + 1, snap)),
            "periods": periods}
