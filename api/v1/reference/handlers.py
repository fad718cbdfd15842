"""Handlers of the /v1 reference routes: /v1/chains, /v1/deployments, /v1/health and
/v1/health/chains. What a chain supports and deploys comes from the chain book; what is indexed
and how fresh it is, from the warehouse (snapshot runs and chain coverage) and the coverage the
pipeline resolved; /v1/health/chains also asks each chain's RPC for its head (a reachability
probe, not data)."""
from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx

from ...chain_health import UNHEALTHY, chains_health, coverage_by_chain, dataset_at, dataset_range, subgraph_lag_seconds
from ...coverage_holes import filling, holes_by_chain, holes_params, missing
from ...coverage import FAILED, FRESH, STALE, UNAVAILABLE, WITHIN_LIMIT
from ...errors import ApiError
from ...routes import RequestContext, runs
from ....core.chains import FEATURES
from ....core.epochs import iso
from ....core import clock

RPC_PROBE_SECONDS = 2.0

# The feature whose indexing a contract of the chain book serves (vault contracts: `vaults`);
# a contract not named here (multicall3) is infrastructure: indexed when its chain is.
CONTRACT_FEATURES = {
    "voter": "gauges", "minter": "gauges", "votingEscrow": "votingEscrow", "rewardsDistributor": "rebases",
    "v2Factory": "v2Pools", "clFactory": "clPools", "dynamicFeeModule": "clPools", "router": "pools",
    "coreToken": "pools", "vaultFactory": "vaults", "zapper": "vaults", "positionManager": "vaults",
    "xcore": "xcore", "xcoreAdapter": "xcore", "lpSugar": "liquidityPositions",
}


@runs("health_coverage", "coverage_holes")
async def chains(ctx: RequestContext) -> list[dict[str, Any]]:
    covered = ctx.coverage
    assert covered is not None
    book = ctx.settings.chains
    chain_ids = list(covered.chain_ids)
    rows = await ctx.rows("health_coverage", chain_ids=chain_ids)
    holes_of = holes_by_chain(await ctx.rows("coverage_holes", **holes_params(book, chain_ids, clock.now())))
    by_chain = coverage_by_chain(rows)
    out = []
    for c in covered.chains:
        chain, coverage = book[c.chain_id], by_chain.get(c.chain_id, {})
        holes = holes_of.get(c.chain_id, {})
        out.append({
            "chainId": c.chain_id,
            "name": chain.name,
            "network": chain.network,
            "nativeSymbol": chain.native_symbol or None,
            "deployedAt": iso(chain.deployed_at) if chain.deployed_at is not None else None,
            "features": [{"name": f, "supported": chain.supports(f), "status": c.state if chain.supports(f) else "unsupported"}
                         for f in FEATURES],
            **c.meta(),
            "coverage": {
                "firstMarketActivity": dataset_at(coverage, "market_activity", "first_at"),
                "history": dataset_range(coverage, "hourly"),
                "snapshots": dataset_range(coverage, "snapshots"),
                "missingSnapshots": missing(holes, "snapshots"),
                "missingHistory": missing(holes, "history"),
                "subgraphIndexedAt": dataset_at(coverage, "subgraph", "last_at"),
                "chainHeadAt": dataset_at(coverage, "chain_head", "last_at"),
                "subgraphLagSeconds": subgraph_lag_seconds(coverage),
            },
            "filling": filling(holes),
        })
    return out


async def deployments(ctx: RequestContext) -> list[dict[str, Any]]:
    covered = ctx.coverage
    assert covered is not None
    book = ctx.settings.chains
    out = []
    for c in covered.chains:
        chain = book[c.chain_id]
        indexed = c.state != UNAVAILABLE
        contracts = {**chain.contracts, **chain.vault_contracts}
        out.append({
            "chainId": c.chain_id,
            "name": chain.name,
            "indexed": indexed,
            "contracts": [
                {"name": name, "address": address, "feature": CONTRACT_FEATURES.get(name),
                 "indexed": indexed and (name not in CONTRACT_FEATURES or chain.supports(CONTRACT_FEATURES[name]))}
                for name, address in sorted(contracts.items())
            ],
        })
    return out


async def _rpc_probe(client: httpx.AsyncClient, url: str) -> dict[str, Any]:
    started = time.perf_counter()
    try:
        response = await client.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "eth_blockNumber", "params": []})
        response.raise_for_status()
        head = int(response.json()["result"], 16)
    except Exception as exc:  # noqa: BLE001 - an unreachable RPC is a reported state, not a failure of the route
        return {"reachable": False, "blockNumber": None, "latencyMs": None, "error": type(exc).__name__}
    return {"reachable": True, "blockNumber": head, "latencyMs": round((time.perf_counter() - started) * 1000, 1), "error": None}


async def _health_rows(ctx: RequestContext) -> tuple[list[dict[str, Any]], list[dict[str, Any]], float]:
    """Every public chain's health entry (chain_health.py) and meta entry, at one `now`; 503
    `unhealthy` when the warehouse cannot say."""
    settings = ctx.settings
    chain_ids = sorted(settings.chains)
    now = clock.now()
    try:
        runs = await ctx.rows("health", chain_ids=chain_ids)
        coverage = await ctx.rows("health_coverage", chain_ids=chain_ids)
        holes = await ctx.rows("coverage_holes", **holes_params(settings.chains, chain_ids, now))
    except Exception as exc:  # noqa: BLE001 - an unreachable warehouse is an unhealthy service, not a 500
        raise ApiError(503, UNHEALTHY, f"the warehouse is unreachable ({type(exc).__name__})") from exc
    entries = chains_health(settings.chains, runs, coverage, holes, now, int(settings.stale_after_minutes) * 60)
    by_chain = {int(r["chain_id"]): r for r in runs}
    metas = []
    for entry in entries:
        row = by_chain.get(entry["chainId"], {})
        state = UNAVAILABLE if entry["ageSeconds"] is None else STALE if not entry["healthy"] else FAILED if _failed_since(entry) else FRESH
        metas.append({"chainId": entry["chainId"], "state": state, "snapshotAt": entry["snapshotAt"],
                      "indexedAt": row.get("last_success_block_time"), "availableAt": row.get("last_success_published_at")})
    ctx.meta["chains"] = metas
    return entries, metas, now


def _failed_since(entry: dict[str, Any]) -> bool:
    """The chain's latest attempt failed, at a boundary after its latest published snapshot."""
    last = entry["lastRun"]
    return bool(last) and last["status"] == "failed" and entry["snapshotAt"] is not None and last["snapshotAt"] > entry["snapshotAt"]


@runs("health", "health_coverage", "coverage_holes")
async def health(ctx: RequestContext) -> dict[str, Any]:
    """200 `ok` when every public chain is fresh, `degraded` when some are not (named); 503
    `unhealthy` when the warehouse is unreachable or no chain's snapshot is within the freshness
    limit (fresh, or failed: its latest attempt failed but its last published snapshot is recent)."""
    _, metas, now = await _health_rows(ctx)
    fresh = [m["chainId"] for m in metas if m["state"] == FRESH]
    body = {
        "status": "ok" if len(fresh) == len(metas) else "degraded",
        "checkedAt": iso(now),
        "freshChainIds": fresh,
        "failedChainIds": [m["chainId"] for m in metas if m["state"] == FAILED],
        "staleChainIds": [m["chainId"] for m in metas if m["state"] == STALE],
        "unavailableChainIds": [m["chainId"] for m in metas if m["state"] == UNAVAILABLE],
        "staleAfterMinutes": int(ctx.settings.stale_after_minutes),
    }
    if not any(m["state"] in WITHIN_LIMIT for m in metas):
        raise ApiError(503, UNHEALTHY, "no chain has a published snapshot within the freshness limit",
                       details={**body, "status": "unhealthy"})
    return body


@runs("health", "health_coverage", "coverage_holes")
async def health_chains(ctx: RequestContext) -> list[dict[str, Any]]:
    """Per public chain: snapshot age, subgraph lag, coverage, what is filling in, and whether its
    RPC answers now; a chain past the freshness limit is `stale` while the others stay fresh."""
    entries, metas, _ = await _health_rows(ctx)
    book = ctx.settings.chains
    async with httpx.AsyncClient(timeout=RPC_PROBE_SECONDS) as client:
        probes = await asyncio.gather(*(_rpc_probe(client, book[e["chainId"]].rpc_url) for e in entries))
    return [{**entry, "state": meta["state"], "rpc": probe} for entry, meta, probe in zip(entries, metas, probes)]
