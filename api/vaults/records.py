"""Vault, token and health records of /api/v1 built from one BookState (chain) and the latest
published token prices (warehouse). Unknown stays None: a failed read, a missing price."""
from __future__ import annotations

from typing import Any

from eth_utils import to_checksum_address

from .chain import BookState, VaultState

ZERO = "0x" + "0" * 40


def checksum(address: str | None) -> str | None:
    return to_checksum_address(address) if address else None


def token(raw: dict[str, Any] | None) -> dict[str, Any]:
    raw = raw or {}
    return {"address": checksum(raw.get("address")), "symbol": raw.get("symbol"), "decimals": raw.get("decimals")}


def deposits_available(vault: VaultState, book: BookState) -> bool | None:
    """isCalm and neither pause; a known blocker decides even when another input is unknown."""
    calm, strategy_paused, global_pause = vault.get("isCalm"), vault.get("strategyPaused"), book.global_pause
    if calm is False or strategy_paused is True or global_pause is True:
        return False
    if calm is None or strategy_paused is None or global_pause is None:
        return None
    return True


def _raw(value: int | None) -> str | None:
    return None if value is None else str(int(value))


def _scaled(raw: int | None, decimals: int | None) -> float | None:
    if raw is None or decimals is None:
        return None
    return int(raw) / 10 ** int(decimals)


def amounts(vault: VaultState) -> tuple[int | None, int | None]:
    totals = vault.get("totalAmounts")
    return (None, None) if totals is None else (int(totals[0]), int(totals[1]))


def value_usd(vault: VaultState, a0: int | None, a1: int | None, prices: dict[str, float]) -> float | None:
    """amount0*p0 + amount1*p1 with scaled amounts; None when an amount or a price is unknown."""
    total = 0.0
    for side, raw in (("token0", a0), ("token1", a1)):
        t = vault.tokens.get(side) or {}
        amount = _scaled(raw, t.get("decimals"))
        price = prices.get((t.get("address") or "").lower())
        if amount is None or price is None:
            return None
        total += amount * price
    return total


def tvl_usd(vault: VaultState, prices: dict[str, float]) -> float | None:
    return value_usd(vault, *amounts(vault), prices)


def vault_record(vault: VaultState, book: BookState, prices: dict[str, float]) -> dict[str, Any]:
    cfg = vault.config
    a0, a1 = amounts(vault)
    t0, t1 = token(vault.tokens.get("token0")), token(vault.tokens.get("token1"))
    tvl = tvl_usd(vault, prices)
    supply = vault.get("totalSupply")
    share_decimals = vault.get("decimals")
    supply_scaled = _scaled(supply, share_decimals)
    gauge = vault.get("gauge")
    cl = None
    if cfg.kind == "cl":
        cl = {
            "tick": vault.get("tick"),
            "tickLower": vault.get("tickLower"),
            "tickUpper": vault.get("tickUpper"),
            "positionTokenIdRaw": _raw(vault.get("positionTokenId")),
            "lastRebalance": vault.get("lastRebalance"),
        }
    return {
        "key": cfg.key,
        "address": checksum(cfg.address),
        "kind": cfg.kind,
        "name": vault.get("name"),
        "symbol": vault.get("symbol"),
        "decimals": share_decimals,
        "pool": checksum(vault.get("pool")),
        "gauge": None if gauge is None or gauge == ZERO else checksum(gauge),
        "strategy": checksum(vault.get("strategy")),
        "token0": t0,
        "token1": t1,
        "totalSupplyRaw": _raw(supply),
        "amount0Raw": _raw(a0),
        "amount1Raw": _raw(a1),
        "amount0": _scaled(a0, t0["decimals"]),
        "amount1": _scaled(a1, t1["decimals"]),
        "tvlUsd": tvl,
        "sharePriceUsd": tvl / supply_scaled if tvl is not None and supply_scaled else None,
        "isCalm": vault.get("isCalm"),
        "paused": vault.get("paused"),
        "strategyPaused": vault.get("strategyPaused"),
        "globalPause": book.global_pause,
        "depositsAvailable": deposits_available(vault, book),
        "slippageBps": vault.get("slippageBps"),
        "needsRebalance": vault.get("needsRebalance"),
        "lastHarvest": vault.get("lastHarvest"),
        "cl": cl,
        "complete": vault.complete,
    }


def health_record(vault: VaultState, book: BookState) -> dict[str, Any]:
    """Rebalance health of a CL vault. actionable = needsRebalance and isCalm and not paused
    (neither pause): a keeper can rebalance now. Unknown inputs give actionable null."""
    tick, lower, upper = vault.get("tick"), vault.get("tickLower"), vault.get("tickUpper")
    in_range = None if None in (tick, lower, upper) else lower <= tick < upper
    needs, calm = vault.get("needsRebalance"), vault.get("isCalm")
    paused = None
    if vault.get("strategyPaused") is True or book.global_pause is True:
        paused = True
    elif vault.get("strategyPaused") is False and book.global_pause is False:
        paused = False
    if needs is False or calm is False or paused is True:
        actionable: bool | None = False
    elif None in (needs, calm, paused):
        actionable = None
    else:
        actionable = True
    return {
        "key": vault.config.key,
        "address": checksum(vault.config.address),
        "tick": tick,
        "tickLower": lower,
        "tickUpper": upper,
        "inRange": in_range,
        "ticksToLower": None if tick is None or lower is None else tick - lower,
        "ticksToUpper": None if tick is None or upper is None else upper - tick,
        "needsRebalance": needs,
        "lastRebalance": vault.get("lastRebalance"),
        "isCalm": calm,
        "paused": paused,
        "actionable": actionable,
        "complete": vault.complete,
    }
