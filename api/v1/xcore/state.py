"""Handler of /v1/xcore: the escrow-share token as the chains' published snapshots observed it.

The canonical chain (the chain book entry with `contracts.xcoreAdapter`) holds the token: its
rate, supply and backing are read by RPC at its snapshot block (xcore_snap15m). The bridged
representations on other chains are that supply's shares locked in the adapter, so they are
never added to it: the canonical supply is counted once. The reconciliation compares the
adapter's locked shares with the representations' supplies, each chain at its own snapshot
(independent observers), and explains the difference from the indexed transfers each chain shows
at that instant (xcore_transfers.sql): in flight, seen delivered before sent (observer skew), or
held for chains this service does not cover. The explanation needs every chain's events indexed
up to its snapshot; otherwise the status is `events_behind` and only the difference is given.
"""
from __future__ import annotations

import asyncio
from typing import Any

from ...errors import ApiError
from ...routes import RequestContext, runs
from ..common.decimals import quantity
from ..common.events_coverage import read_coverage
from ..common.flows import stamp

XCORE_EVENTS = "xcore"  # their chain_coverage dataset (assets/xcore_events.py)
DECIMALS = 18  # the token, its backing and its ratio (CORE per xCORE x 1e18) all have 18 decimals
RATE_SCALE = 10 ** DECIMALS
TOKEN_NOT_DEPLOYED = "xcore_not_deployed"
STATUSES = ("reconciled", "explained", "events_behind", "unexplained")


def canonical_chain(ctx: RequestContext) -> int:
    """The chain holding the token (the book's one with an adapter); 404 when the book has none."""
    for cid, chain in sorted(ctx.settings.chains.items()):
        if chain.xcore_canonical:
            return cid
    raise ApiError(404, TOKEN_NOT_DEPLOYED, "no chain of the chain book holds the escrow-share token (contracts.xcore "
                   "with contracts.xcoreAdapter)")


def canonical_observer(ctx: RequestContext) -> tuple[int, Any]:
    """(the canonical chain, its coverage: the snapshot the answer rests on); 503 while unusable."""
    canonical = canonical_chain(ctx)
    ctx.coverage.require_usable()
    return canonical, ctx.coverage.chain(canonical)


def indexed_through(found: dict[str, Any], chain: Any, now: int) -> int | None:
    """The last second of the canonical chain's events the answer shows: its indexed events, not past
    its published snapshot nor the server time (the boundary is a valid `to`); None before any."""
    if found["events_through"] is None or chain.snapshot is None:
        return None
    return min(int(found["events_through"]), chain.snapshot.unix, now)


def signed(value: int | None) -> str | None:
    return None if value is None else str(value)


def observation(row: dict[str, Any], snapshot_at: str) -> dict[str, Any]:
    return {"chainId": row["chain_id"], "snapshotAt": snapshot_at, "blockNumber": int(row["block_number"]),
            "at": stamp(int(row["observed_at"]))}


def _chain_entry(c, row: dict[str, Any] | None, role: str) -> dict[str, Any]:
    snapshot_at = c.snapshot.at_iso if c.snapshot else None
    entry: dict[str, Any] = {"chainId": c.chain_id, "role": role, "token": None, "observation": None,
                             "supply": quantity(None), "adapterLocked": None, "circulating": None,
                             "status": "observed" if row else ("not_deployed" if c.snapshot else "unavailable")}
    if row is None:
        return entry
    supply = int(row["supply_raw"])
    entry.update(token=row["token_address"], observation=observation(row, snapshot_at), supply=quantity(supply))
    if role == "canonical":
        locked = int(row["adapter_locked_raw"])
        entry.update(adapterLocked=quantity(locked), circulating=quantity(supply - locked))
    return entry


def reconciliation(canonical: int, rows: dict[int, dict], transfers: list[dict], indexed: dict[int, dict],
                   remotes: list[int]) -> dict[str, Any]:
    """The adapter's locked shares against the bridged supplies, and what explains the difference."""
    locked = int(rows[canonical]["adapter_locked_raw"])
    bridged = sum(int(rows[d]["supply_raw"]) for d in remotes if d in rows)
    unreconciled = locked - bridged
    # a chain's transfers are known at its observation once its events are indexed through its block's time
    behind = sorted(cid for cid, row in rows.items()
                    if cid not in indexed or int(indexed[cid]["events_through"]) < int(row["observed_at"]))
    flows: dict[tuple[int, str], dict] = {(int(t["remote_chain_id"]), t["direction"]): t for t in transfers}
    out: dict[str, Any] = {"adapterLocked": quantity(locked), "bridgedSupply": quantity(bridged),
                           "unreconciledRaw": signed(unreconciled), "reconciled": unreconciled == 0 and not behind,
                           "inFlight": None, "observerSkew": None, "uncoveredChains": None, "residualRaw": None,
                           "eventsBehind": behind}
    if behind:
        out["status"] = "events_behind"
        return out

    covered_remotes = {d for d in remotes if d in rows}

    def total(field: str, direction: str) -> int:
        return sum(int(t[field]) for (d, way), t in flows.items() if way == direction and d in covered_remotes)

    in_flight = {"outRaw": str(total("in_flight_raw", "out")), "outCount": total("in_flight_count", "out"),
                 "backRaw": str(total("in_flight_raw", "back")), "backCount": total("in_flight_count", "back")}
    skew = {"outRaw": str(total("skew_raw", "out")), "backRaw": str(total("skew_raw", "back"))}
    # chains without a covered supply: the canonical side alone says what the adapter holds for them
    uncovered: dict[int, int] = {}
    for (d, way), t in flows.items():
        if d not in covered_remotes:
            uncovered[d] = uncovered.get(d, 0) + (int(t["sent_raw"]) if way == "out" else -int(t["delivered_raw"]))
    explained = (int(in_flight["outRaw"]) + int(in_flight["backRaw"]) - int(skew["outRaw"]) - int(skew["backRaw"])
                 + sum(uncovered.values()))
    residual = unreconciled - explained
    out.update(inFlight=in_flight, observerSkew=skew, residualRaw=signed(residual),
               uncoveredChains=[{"chainId": d, "lockedRaw": signed(v)} for d, v in sorted(uncovered.items())],
               status="unexplained" if residual else ("reconciled" if unreconciled == 0 else "explained"))
    return out


@runs("xcore_state", "xcore_transfers", "events_coverage")
async def xcore(ctx: RequestContext) -> dict[str, Any]:
    canonical = canonical_chain(ctx)
    chains = ctx.coverage.require_usable()
    if canonical not in {c.chain_id for c in chains}:
        raise ApiError(503, "chain_unavailable", f"chain {canonical}, which holds the token, has no published snapshot "
                       "yet; retry after its next 15-minute snapshot")
    ids = [c.chain_id for c in chains]
    observed = [c.snapshot.unix for c in chains]
    state_rows, transfers, (covered, indexed) = await asyncio.gather(
        ctx.rows("xcore_state", chain_ids=ids, observed=observed),
        ctx.rows("xcore_transfers", chain_ids=ids, observed=observed, canonical=canonical),
        read_coverage(ctx, chains, XCORE_EVENTS))
    rows = {int(r["chain_id"]): r for r in state_rows}
    home = rows.get(canonical)
    entries = [_chain_entry(c, rows.get(c.chain_id), "canonical" if c.chain_id == canonical else "representation")
               for c in ctx.coverage.chains]
    if home is None:  # the token is not deployed at the canonical chain's snapshot
        ctx.meta["complete"] = False
        return {"canonicalChainId": canonical, "token": None, "observation": None, "rate": None, "supply": quantity(None),
                "backing": quantity(None), "exitPenaltyBps": None, "chains": entries, "reconciliation": None,
                "coverage": covered}
    remotes = [cid for cid, chain in sorted(ctx.settings.chains.items()) if chain.has_xcore and cid != canonical]
    rec = reconciliation(canonical, rows, transfers, indexed, remotes)
    if rec["status"] in ("events_behind", "unexplained"):
        ctx.meta["complete"] = False
    ratio = int(home["ratio_raw"])
    return {
        "canonicalChainId": canonical,
        "token": {"chainId": canonical, "address": home["token_address"], "name": home["token_name"],
                  "symbol": home["token_symbol"], "decimals": int(home["token_decimals"]),
                  "asset": home["asset_address"], "adapter": home["adapter_address"]},
        "observation": observation(home, ctx.coverage.chain(canonical).snapshot.at_iso),
        "rate": {**quantity(ratio), "changedAt": None if home["rate_changed_at"] is None
                 else stamp(int(home["rate_changed_at"]))},
        "supply": quantity(int(home["supply_raw"])),
        "backing": quantity(int(home["backing_raw"])),
        "exitPenaltyBps": None if home["exit_penalty_bps"] is None else int(home["exit_penalty_bps"]),
        "chains": entries,
        "reconciliation": rec,
        "coverage": covered,
    }
