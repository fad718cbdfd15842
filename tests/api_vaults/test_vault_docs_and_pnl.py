"""Per-family discovery text and the position P&L rule, without servers (the route tables and
pure functions only); the served documents are checked over HTTP in test_vault_routes."""
from __future__ import annotations

from ve_analytics.api.app import load_family
from ve_analytics.api.skill import build_skill, render_skill_md
from ve_analytics.api.guide import STATS_GUIDE, VAULT_GUIDE
from ve_analytics.api.openapi import build_openapi
from ve_analytics.api.vaults.chain import VaultState
from ve_analytics.api.vaults.positions import flows, portfolio, position
from ve_analytics.core.config import Settings
from ve_analytics.core.vaults import VaultConfig

T0, T1 = "0x" + "a" * 40, "0x" + "b" * 40


def test_vault_documents_carry_the_vault_guide():
    settings = Settings.from_env()
    stats, vaults = load_family("stats"), load_family("vaults")
    text = build_openapi(vaults, settings.production_host)["info"]["description"]
    assert "upstream_error" in text and "snapshot_unavailable" not in text
    assert VAULT_GUIDE.openapi_errors in text
    assert STATS_GUIDE.openapi_errors in build_openapi(stats, settings.production_host)["info"]["description"]
    alone = build_skill([vaults], settings)
    assert alone["usage"]["envelope"] == VAULT_GUIDE.envelope and alone["title"] == vaults.title
    assert "snapshotAt" not in render_skill_md(alone)
    both = build_skill([stats, vaults], settings)
    assert both["usage"]["envelope"] == STATS_GUIDE.envelope
    entries = {f["name"]: f for f in both["analytics_api"]["families"]}
    assert "usage" not in entries["stats"] and entries["vaults"]["usage"]["caching"] == VAULT_GUIDE.caching
    assert f"## {vaults.title} ({vaults.prefix})" in render_skill_md(both)


def _vault(supply=1000, totals=(500, 2000)) -> VaultState:
    v = VaultState(VaultConfig("cl-wbnb-usdt", "0x9bCabfFEeAf1365d3e1Ddc4c7f3CA283033f49E9", "cl"), {"totalSupply": supply, "totalAmounts": totals, "decimals": 18})
    v.tokens = {"token0": {"address": T0, "symbol": "A", "decimals": 0}, "token1": {"address": T1, "symbol": "B", "decimals": 0}}
    return v


def _event(kind, shares, usd):
    return {"type": kind, "sharesRaw": str(shares), "amountUsd": usd}


def test_pnl_only_when_indexed_events_reconcile_with_the_live_balance():
    prices = {T0: 2.0, T1: 1.0}
    events = [_event("withdrawal", 40, 90.0), _event("deposit", 140, 300.0)]
    p = position(_vault(), 100, events, prices)
    assert (p["amount0Raw"], p["amount1Raw"], p["valueUsd"]) == ("50", "200", 300.0)
    assert (p["depositedUsd"], p["withdrawnUsd"], p["pnlUsd"], p["pnlComplete"]) == (300.0, 90.0, 90.0, True)
    lagging = position(_vault(), 120, events, prices)  # a deposit the history run has not indexed yet
    assert (lagging["pnlUsd"], lagging["depositedUsd"], lagging["pnlComplete"]) == (None, None, False)
    assert lagging["indexedNetSharesRaw"] == "100" and lagging["valueUsd"] is not None
    unvalued = position(_vault(), 100, [_event("withdrawal", 40, None), _event("deposit", 140, 300.0)], prices)
    assert (unvalued["pnlUsd"], unvalued["pnlComplete"]) == (None, False)
    unpriced = position(_vault(), 100, events, {T0: 2.0})
    assert (unpriced["valueUsd"], unpriced["pnlUsd"], unpriced["pnlComplete"]) == (None, None, False)
    no_warehouse = position(_vault(), 100, None, prices)
    assert (no_warehouse["interactions"], no_warehouse["pnlComplete"]) == (None, False)
    assert flows([])["netShares"] == 0


def test_portfolio_totals():
    prices = {T0: 2.0, T1: 1.0}
    good = position(_vault(), 100, [_event("deposit", 100, 250.0)], prices)
    lagging = position(_vault(), 120, [_event("deposit", 100, 250.0)], prices)
    assert portfolio([good]) == {"totals": {"usd": 300.0, "usdComplete": True}, "totalPnlUsd": 50.0, "pnlComplete": True}
    assert portfolio([good, lagging]) == {"totals": {"usd": 660.0, "usdComplete": True}, "totalPnlUsd": None, "pnlComplete": False}
    assert portfolio([]) == {"totals": {"usd": 0, "usdComplete": True}, "totalPnlUsd": 0, "pnlComplete": True}
