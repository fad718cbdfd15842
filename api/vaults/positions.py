"""A wallet's position in one vault, from three sources at one block: the live share balance
(`balanceOf`), the vault's live totals and supply (BookState), and the wallet's deposits and
withdrawals indexed in the warehouse (vault_events), valued with the latest published prices.

P&L rule (devnet truth): pnlUsd = valueUsd + withdrawnUsd - depositedUsd, each interaction valued
in USD at its own time. The events are only as fresh as the hourly history run, so the indexed
history is trusted only when it reconciles with the chain: deposited shares minus withdrawn
shares (events up to the answer's block) must equal the live balance, and every interaction
must have a USD value. Otherwise depositedUsd, withdrawnUsd and pnlUsd are null (unknown, never
a partial sum) and pnlComplete is false.
"""
from __future__ import annotations

import math
from typing import Any

from .chain import VaultState
from .records import _raw, _scaled, amounts, checksum, token, value_usd

FLOW_TYPES = ("deposit", "withdrawal")


def vault_ref(vault: VaultState) -> dict[str, Any]:
    return {"key": vault.config.key, "address": checksum(vault.config.address), "kind": vault.config.kind}


def flows(events: list[dict[str, Any]] | None) -> dict[str, Any]:
    """Net shares and USD in/out of one vault's interactions; USD sums are None when any
    interaction has no USD value. `events` None = the warehouse did not answer."""
    if events is None:
        return {"netShares": None, "depositedUsd": None, "withdrawnUsd": None, "count": None}
    net: int | None = 0
    usd: dict[str, list[float]] = {kind: [] for kind in FLOW_TYPES}
    known = True
    for e in events:
        shares = int(e["sharesRaw"]) if e["sharesRaw"] is not None else None
        if shares is None:
            net = None  # an interaction without shares: the net is unknown
        elif net is not None:
            net += shares if e["type"] == "deposit" else -shares
        if e["amountUsd"] is None:
            known = False
        else:
            usd[e["type"]].append(e["amountUsd"])
    return {
        "netShares": net,
        "depositedUsd": math.fsum(usd["deposit"]) if known else None,  # fsum: exact sum, order-independent
        "withdrawnUsd": math.fsum(usd["withdrawal"]) if known else None,
        "count": len(events),
    }


def position(vault: VaultState, shares: int | None, events: list[dict[str, Any]] | None, prices: dict[str, float]) -> dict[str, Any]:
    total0, total1 = amounts(vault)
    supply = vault.get("totalSupply")
    a0 = a1 = None
    if shares is not None and supply is not None and total0 is not None:
        # the share of the totals, rounded down like previewWithdraw of idle balances
        a0, a1 = (total0 * shares // supply, total1 * shares // supply) if supply else (0, 0)
    t0, t1 = token(vault.tokens.get("token0")), token(vault.tokens.get("token1"))
    value = value_usd(vault, a0, a1, prices)
    f = flows(events)
    reconciled = shares is not None and f["netShares"] is not None and f["netShares"] == shares
    complete = reconciled and value is not None and f["depositedUsd"] is not None
    deposited = f["depositedUsd"] if reconciled else None
    withdrawn = f["withdrawnUsd"] if reconciled else None
    return {
        "vault": vault_ref(vault),
        "token0": t0,
        "token1": t1,
        "sharesRaw": _raw(shares),
        "shares": _scaled(shares, vault.get("decimals")),
        "amount0Raw": _raw(a0),
        "amount1Raw": _raw(a1),
        "amount0": _scaled(a0, t0["decimals"]),
        "amount1": _scaled(a1, t1["decimals"]),
        "valueUsd": value,
        "depositedUsd": deposited,
        "withdrawnUsd": withdrawn,
        "pnlUsd": value + withdrawn - deposited if complete else None,
        "pnlComplete": complete,
        "indexedNetSharesRaw": _raw(f["netShares"]),
        "interactions": f["count"],
    }


def interaction(vault: VaultState, event: dict[str, Any]) -> dict[str, Any]:
    t0, t1 = vault.tokens.get("token0") or {}, vault.tokens.get("token1") or {}
    a0 = None if event["amount0Raw"] is None else int(event["amount0Raw"])
    a1 = None if event["amount1Raw"] is None else int(event["amount1Raw"])
    return {
        "type": event["type"],
        "timestamp": event["timestamp"],
        "blockNumber": event["blockNumber"],
        "transactionHash": event["transactionHash"],
        "logIndex": event["logIndex"],
        "sharesRaw": event["sharesRaw"],
        "amount0Raw": event["amount0Raw"],
        "amount1Raw": event["amount1Raw"],
        "amount0": _scaled(a0, t0.get("decimals")),
        "amount1": _scaled(a1, t1.get("decimals")),
        "amountUsd": event["amountUsd"],
    }


def portfolio(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Totals of the listed positions (spec rule 5): null with the flag false when any part is
    unknown. An empty portfolio is known to be worth 0 with 0 P&L."""
    values = [r["valueUsd"] for r in records]
    pnls = [r["pnlUsd"] for r in records]
    usd_complete = None not in values
    pnl_complete = all(r["pnlComplete"] for r in records)
    return {
        "totals": {"usd": math.fsum(values) if usd_complete else None, "usdComplete": usd_complete},
        "totalPnlUsd": math.fsum(pnls) if pnl_complete else None,
        "pnlComplete": pnl_complete,
    }


def vault_known(vault: VaultState) -> bool:
    """The reads a position needs (totals, supply, decimals, tokens) all answered."""
    return vault.get("totalAmounts") is not None and vault.get("totalSupply") is not None and vault.get("decimals") is not None and all(
        (vault.tokens.get(s) or {}).get("decimals") is not None for s in ("token0", "token1")
    )
