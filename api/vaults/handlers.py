"""Handlers of /api/v1 that answer from the vault book: each reads the memoized vault book
(chain, one block) and, where the route needs them, the latest published stats rows; sets
meta.indexedBlock and meta.degraded. History and positions: users.py."""
from __future__ import annotations

import logging
import re
from typing import Any

from ..errors import ApiError
from ..routes import RequestContext, runs
from . import sources
from .chain import BookState, VaultState
from .manifest import manifest
from .records import checksum, health_record, token, tvl_usd, vault_record
from ...core.vaults import KINDS

NOT_FOUND = "not_found"
INVALID_ADDRESS = "invalid_address"
STATUSES = {
    "ok": "the source answered completely and is fresh",
    "degraded": "the source answered partly, or late (stale snapshot, lagging or erroring index)",
    "down": "the source did not answer",
}
SUBGRAPH_MAX_LAG_BLOCKS = 100
_ADDRESS = re.compile(r"0x[0-9a-fA-F]{40}")

log = logging.getLogger("api")


def _answered(ctx: RequestContext, state: BookState, degraded: bool = False) -> None:
    ctx.meta["indexedBlock"] = state.block
    ctx.meta["degraded"] = bool(degraded or not state.complete)


def _priced(state: BookState, vaults: list[VaultState], prices: dict[str, float]) -> bool:
    """True when every token of these vaults has a published price."""
    return all((t.get("address") or "").lower() in prices for v in vaults for t in v.tokens.values())


def _partial(state: BookState, vaults: list[VaultState]) -> bool:
    """An answer built from these vaults is partial only through their own reads and the global
    pause (part of every vault record): a fault on another vault does not degrade it."""
    return state.global_pause is None or not all(v.complete for v in vaults)


def find_vault(state: BookState, key_or_address: str) -> VaultState:
    if key_or_address.lower().startswith("0x") and not _ADDRESS.fullmatch(key_or_address):
        raise ApiError(400, INVALID_ADDRESS, "an address is 0x followed by exactly 40 hex digits (either case)")
    vault = state.find(key_or_address)
    if vault is None:
        raise ApiError(404, NOT_FOUND, f"no vault with key or address {key_or_address[:64]!r}; /api/v1/vaults lists them")
    return vault


@runs("token_prices")
async def meta(ctx: RequestContext) -> dict[str, Any]:
    state = await sources.book(ctx)
    prices = await sources.prices(ctx, state)
    tvls = [tvl_usd(v, prices) for v in state.vaults]
    book = sources.contracts(ctx)
    _answered(ctx, state, None in tvls)
    return {
        "chainId": ctx.chain_id,
        "network": ctx.settings.chain(ctx.chain_id).network,
        "contracts": {name: checksum(address) for name, address in sorted(book.items())},
        "protocolTokens": {"core": checksum(book.get("coreToken"))},
        "vaultCounts": {"total": len(state.vaults), **{k: sum(v.config.kind == k for v in state.vaults) for k in KINDS}},
        "globalPause": state.global_pause,
        "totalTvlUsd": None if None in tvls else sum(tvls),
    }


@runs("stats_health")
async def health(ctx: RequestContext) -> dict[str, Any]:
    out: dict[str, Any] = {}
    chain_block = None
    try:
        state = await sources.book(ctx)
        chain_block = state.block
        out["onchain"] = {"status": "ok" if state.complete else "degraded", "block": state.block}
    except ApiError:
        out["onchain"] = {"status": "down", "block": None}
    stats: dict[str, Any] = {"status": "down", "snapshotAt": None, "ageSeconds": None, "block": None}
    try:
        rows = await ctx.rows("stats_health")
        if rows:
            age = sources.age_seconds(rows[0]["snapshotAt"])
            fresh = age < int(ctx.settings.stale_after_minutes) * 60
            stats = {"status": "ok" if fresh else "degraded", "snapshotAt": rows[0]["snapshotAt"], "ageSeconds": age, "block": int(rows[0]["blockNumber"])}
    except Exception:  # noqa: BLE001 - an unreachable warehouse is the stats source being down
        pass
    out["stats"] = stats
    sub = await sources.subgraph_head(ctx)
    if sub["block"] is None:
        status = "down"
    elif sub["hasIndexingErrors"] or (chain_block is not None and chain_block - sub["block"] > SUBGRAPH_MAX_LAG_BLOCKS):
        status = "degraded"
    else:
        status = "ok"
    out["subgraph"] = {"status": status, "block": sub["block"], "hasIndexingErrors": sub["hasIndexingErrors"]}
    indexed = next((b for b in (chain_block, sub["block"], stats["block"]) if b is not None), None)
    worst = max((s["status"] for s in out.values()), key=list(STATUSES).index)
    ctx.meta["indexedBlock"] = indexed
    ctx.meta["degraded"] = worst != "ok"
    return {"status": worst, "sources": out, "indexedBlock": indexed, "statuses": STATUSES}


def _includes(raw: str | None) -> set[str]:
    return set(raw.split(",")) if raw else set()


@runs("token_prices")
async def vaults(ctx: RequestContext) -> list[dict[str, Any]]:
    state = await sources.book(ctx)
    include = _includes(ctx.params.get("include"))
    chosen = [v for v in state.vaults if ctx.params.get("kind") in (None, v.config.kind)]
    prices = await sources.prices(ctx, state)
    book = sources.contracts(ctx)
    out = []
    for vault in chosen:
        record = vault_record(vault, state, prices)
        if include:
            record["integration"] = manifest(vault, state, book, with_abi="abi" in include)
        out.append(record)
    ctx.meta["indexedBlock"] = state.block
    ctx.meta["degraded"] = _partial(state, chosen) or not _priced(state, chosen, prices)
    return out


@runs("token_prices")
async def vault(ctx: RequestContext) -> dict[str, Any]:
    state = await sources.book(ctx)
    found = find_vault(state, ctx.params["keyOrAddress"])
    prices = await sources.prices(ctx, state)
    record = vault_record(found, state, prices)
    record["integration"] = manifest(found, state, sources.contracts(ctx), with_abi=ctx.params.get("include") == "abi")
    ctx.meta["indexedBlock"] = state.block
    ctx.meta["degraded"] = _partial(state, [found]) or not _priced(state, [found], prices)
    return record


async def vaults_health(ctx: RequestContext) -> list[dict[str, Any]]:
    state = await sources.book(ctx)
    cl = [v for v in state.vaults if v.config.kind == "cl"]
    records = [health_record(v, state) for v in cl]
    wanted = ctx.params.get("actionable")
    kept = [(v, r) for v, r in zip(cl, records) if wanted is None or r["actionable"] is wanted]
    # a vault whose actionable is unknown may belong to the filtered list: its absence is partial too
    dropped_unknown = any(r["actionable"] is None for r in records if wanted is not None)
    ctx.meta["indexedBlock"] = state.block
    ctx.meta["degraded"] = _partial(state, [v for v, _ in kept]) or dropped_unknown
    return [r for _, r in kept]


@runs("gauge_aprs")
async def gauges(ctx: RequestContext) -> list[dict[str, Any]]:
    """Every gauge of the latest published stats snapshot, each mapped to the vault wrapping it
    (null when none); a vault's gauge missing from the snapshot is listed with null APR."""
    state = await sources.book(ctx)
    try:
        rows = {r["address"]: r for r in await ctx.rows("gauge_aprs")}
    except Exception as exc:  # noqa: BLE001 - a warehouse failure degrades the answer to the vaults' gauges
        log.warning("vault API: gauge_aprs failed: %s", type(exc).__name__)
        rows = None
    wrapped = {v.get("gauge").lower(): v for v in state.vaults if v.get("gauge") and int(v.get("gauge"), 16) != 0}
    # a vault whose gauge() read failed, or no stats rows at all: the list may miss gauges
    missing = rows is None or any(v.get("gauge") is None for v in state.vaults)
    wanted = ctx.params.get("alive")
    out = []
    for address in sorted(set(rows or {}) | set(wrapped)):
        row, vault = (rows or {}).get(address), wrapped.get(address)
        alive = vault.get("gaugeAlive") if vault is not None else row["isAlive"]
        if wanted is not None and alive is not wanted:
            missing |= alive is None  # unknown isAlive may match the filter
            continue
        pool = vault.get("pool") if vault is not None else row["pool"]
        missing |= alive is None or pool is None or row is None
        out.append({
            "address": checksum(address),
            "pool": checksum(pool),
            "vault": None if vault is None else {"key": vault.config.key, "address": checksum(vault.config.address),
                                                 "kind": vault.config.kind},
            "isAlive": alive,
            "apr": None if row is None else {k: row[k] for k in ("emission", "fee", "bribe", "total")},
            "aprSnapshotAt": None if row is None else row["snapshotAt"],
        })
    ctx.meta["indexedBlock"] = state.block
    ctx.meta["degraded"] = missing
    return out


@runs("token_prices")
async def tokens(ctx: RequestContext) -> list[dict[str, Any]]:
    state = await sources.book(ctx)
    rows = await sources.latest_rows(ctx, "token_prices", [t["address"] for v in state.vaults for t in v.tokens.values() if t.get("address")])
    by_address: dict[str, dict[str, Any]] = {}
    for v in state.vaults:
        for side in ("token0", "token1"):
            raw = v.tokens.get(side) or {}
            if not raw.get("address"):
                continue
            entry = by_address.setdefault(raw["address"].lower(), {**token(raw), "logo": None, "priceUsd": None, "priceSnapshotAt": None, "vaults": []})
            entry["vaults"].append(v.config.key)
    # partial: a vault whose token reads failed (the list may miss its tokens), or a listed token
    # without symbol, decimals or price
    missing = rows is None or any(not (v.tokens.get(s) or {}).get("address") for v in state.vaults for s in ("token0", "token1"))
    for address, entry in by_address.items():
        row = (rows or {}).get(address)
        if row is not None and row["priceUsd"] is not None:
            entry["priceUsd"], entry["priceSnapshotAt"] = row["priceUsd"], row["snapshotAt"]
        else:
            missing = True
        missing |= entry["symbol"] is None or entry["decimals"] is None
    ctx.meta["indexedBlock"] = state.block
    ctx.meta["degraded"] = missing
    return sorted(by_address.values(), key=lambda e: (e["symbol"] or "", e["address"]))
