"""Handler of /v1/markets/bribes: the vote market of one epoch on the covered chains, per gauge
with votes or bribes in it (`epoch_gauges.sql`): the rewards on offer to its voters (notified bribes, USD at deposit
time, and the trading fees accrued to its fee reward, USD at each swap's time), its votes in
effect, and dollarPerVote = rewardsUsd / votes (votes in whole units of voting power).

One epoch for every chain (epochs are the same Thursday weeks everywhere): `epoch`, default the
one holding the newest published snapshot of the covered chains. A closed epoch whose figures
were read after its end is `final`; the running one (or one read before its end) is `projected`:
its dollarPerVote is so far, and `projection` extrapolates its fees to the whole week at the rate
so far (bribes and votes as they stand), saying so. Rows are sorted by dollarPerVote, highest
first, unknown last, then chain and gauge; pages are slices of that order with a pinned cursor.
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
from ..common.traversal import chains_traversal, one_page
from .epochs import EPOCH_IN_FUTURE

CURSOR_FORMAT = 1
WAD = 10**18
FINAL, PROJECTED = "final", "projected"
ASSUMES = ("fees accrue for the rest of the epoch at their rate so far; bribes and votes stay as they are now "
           "(later bribes, votes, pokes and resets change them)")


def _per_vote(usd: float | None, votes: int) -> float | None:
    return None if usd is None or votes <= 0 else usd / (votes / WAD)


def market_row(r: dict[str, Any], epoch: int) -> dict[str, Any]:
    votes, bribes, fees = int(r["votes_raw"]), r["bribes_usd"], r["fees_usd"]
    read_until = r["read_at"] + 1
    final = not r["is_partial"]  # read at or after the epoch's end
    rewards = None if bribes is None or fees is None else bribes + fees
    projection = None
    if not final:
        covered = max(0, min(read_until, epoch + WEEK) - epoch)
        whole = None if fees is None or covered == 0 else fees * WEEK / covered
        projected = None if whole is None or bribes is None else bribes + whole
        projection = {"coveredSeconds": covered, "feesUsd": decimal_text(whole), "rewardsUsd": decimal_text(projected),
                      "dollarPerVote": decimal_text(_per_vote(projected, votes)), "assumes": ASSUMES}
    system = r["gauge_kind"] == "system"
    return {
        "chainId": int(r["chain_id"]),
        "epochStart": stamp(epoch),
        "gauge": r["address"],
        "kind": r["gauge_kind"],
        "target": r["target"],
        "pool": None if system else r["pool_address"],
        "symbols": [r["token0_symbol"], r["token1_symbol"]] if r["pool_listed"] and not system else None,
        "alive": bool(r["is_alive"]),
        "status": FINAL if final else PROJECTED,
        "valuedThrough": stamp(r["read_at"]),
        "votesRaw": str(votes),
        "bribesUsd": decimal_text(bribes),
        "bribeCount": int(r["bribe_count"]),
        "unpricedBribeCount": int(r["unpriced_bribe_count"]),
        "feesUsd": decimal_text(fees),
        "rewardsUsd": decimal_text(rewards),
        "dollarPerVote": decimal_text(_per_vote(rewards, votes)),
        "projection": projection,
        "_key": _per_vote(rewards, votes),
    }


@runs("epoch_gauges")
async def bribes(ctx: RequestContext) -> dict[str, Any]:
    f = {"chainIds": list(ctx.coverage.chain_ids), "epoch": aligned_epoch(ctx.params["epoch"], "epoch")}
    digest = filters_digest(f)
    payload, chains = chains_traversal(ctx, digest, CURSOR_FORMAT)
    newest = max(epoch_start(c.snapshot.unix) for c in chains)
    epoch = f["epoch"] if f["epoch"] is not None else payload["epoch"] if payload else newest
    if epoch > newest:
        raise ApiError(404, EPOCH_IN_FUTURE, f"epoch {stamp(epoch)} starts after the epoch of the covered chains' "
                       f"newest published snapshot ({stamp(newest)})", details={"newestEpoch": stamp(newest)})
    rows = await ctx.rows("epoch_gauges", chain_ids=[c.chain_id for c in chains],
                          snapshot_ats=[c.snapshot.param for c in chains], epoch=epoch)
    market = sorted((market_row(r, epoch) for r in rows if r["votes_raw"] != "0" or r["bribe_count"]), key=_order)
    if payload:
        after = tuple(payload["key"])
        market = [m for m in market if _order(m) > after]
    market = one_page(ctx, market, digest, CURSOR_FORMAT, tuple(chains), lambda last: list(_order(last)), epoch=epoch)
    read = {int(r["chain_id"]) for r in rows}  # a chain without a gauge of the epoch read has not read it yet
    if any(m["dollarPerVote"] is None or m["status"] == PROJECTED for m in market) or len(read) < len(chains):
        ctx.meta["complete"] = False
    for m in market:
        del m["_key"]
    return {"epochStart": stamp(epoch), "rows": market}


def _order(m: dict[str, Any]) -> tuple:
    """dollarPerVote highest first, unknown last, then chain ID and gauge address."""
    key = m["_key"]
    return (key is None, -(key or 0.0), m["chainId"], m["gauge"])
