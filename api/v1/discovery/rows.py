"""The JSON of /v1/pools and /v1/tokens rows, their facets and filters (pure functions).

Financial values are decimal strings, exact and truncated toward zero at 36 places
(common/decimals.py); a missing value is null. A row's window amounts come with the windows of
its chain (`flowWindows`: what each summed, whether its evidence is complete), and its TVL with
the time of the chain block it was read at.
"""
from __future__ import annotations

from typing import Any

from ..common.decimals import decimal_text
from ..common.flows import ANCHOR, stamp

FACET_NAMES = {"chainId": "chainIds", "poolType": "poolTypes", "category": "categories", "tokenTag": "tokenTags",
               "tag": "tags", "status": "statuses"}


def chain_context(at: list, windows: dict[int, list[dict]]) -> dict[int, dict[str, Any]]:
    """Per chain: what every row of it shares (its windows, the time its TVL was read)."""
    out = {}
    for a in at:
        chain = a.chain
        spans = windows.get(chain.chain_id)
        out[chain.chain_id] = {
            "tvlObservedAt": chain.snapshot.indexed_at or chain.snapshot.at_iso,
            "flowWindows": [{
                "label": w["label"], "from": w["from"], "toExclusive": w["toExclusive"],
                "durationSeconds": w["durationSeconds"], "anchor": ANCHOR,
                "anchorAt": stamp(a.end), "hoursCovered": w["hoursCovered"], "hoursExpected": w["hoursExpected"],
                "evidence": "available" if w["complete"] else "unavailable",
            } for w in spans] if spans else [],
        }
    return out


def _token(row: dict[str, Any], side: str) -> dict[str, Any]:
    return {
        "address": row[f"{side}_address"],
        "symbol": row[f"{side}_symbol"],
        "name": row[f"{side}_name"] or None,
        "decimals": row[f"{side}_decimals"],
        "tags": row[f"{side}_tags"],
    }


def _curation(row: dict[str, Any]) -> dict[str, Any]:
    """A row's curation fields, pools' and tokens' alike."""
    return {"curated": row["curated"], "status": row["status"], "featured": row["featured"],
            "displayOrder": row["display_order"]}


def pool(row: dict[str, Any], chain: dict[str, Any]) -> dict[str, Any]:
    gauge = row["gauge_address"]
    lower, upper = row["range_tick_lower"], row["range_tick_upper"]
    return {
        "chainId": row["chain_id"],
        "address": row["address"],
        "poolType": row["pool_type"],
        "token0": _token(row, "token0"),
        "token1": _token(row, "token1"),
        "feePips": row["fee_pips"],
        "customFee": row["custom_fee"],
        "dynamicFee": row["dynamic_fee"],
        "tickSpacing": row["tick_spacing"],
        "tvlUsd": decimal_text(row["tvl"]),
        "tvlObservedAt": chain["tvlObservedAt"],
        "volume24hUsd": decimal_text(row["volume_24h"]),
        "volume7dUsd": decimal_text(row["volume_7d"]),
        "fees24hUsd": decimal_text(row["fees_24h"]),
        "fees7dUsd": decimal_text(row["fees_7d"]),
        "flowWindows": chain["flowWindows"],
        "feeApr": decimal_text(row["fee_apr"]),
        "emissionsApr": decimal_text(row["emissions_apr"]),
        "emissionsRange": None if lower is None else {"tickLower": lower, "tickUpper": upper, "widthTicks": upper - lower},
        "gauge": None if not gauge else {"address": gauge, "alive": bool(row["gauge_alive"])},
        "incentivized": row["incentivized"],
        "liveGauge": row["live_gauge"],
        "categories": row["categories"],
        "tokenTags": row["token_tags"],
        **_curation(row),
    }


def token(row: dict[str, Any], chain: dict[str, Any]) -> dict[str, Any]:
    return {
        "chainId": row["chain_id"],
        "address": row["address"],
        "symbol": row["symbol"],
        "name": row["name"],
        "decimals": row["decimals"],
        "priceUsd": decimal_text(row["price"]),
        "priceObservedAt": chain["tvlObservedAt"],
        "tvlUsd": decimal_text(row["tvl"]),
        "volume24hUsd": decimal_text(row["volume_24h"]),
        "flowWindows": chain["flowWindows"][:1],
        "poolCount": row["pool_count"],
        "tags": row["tags"],
        **_curation(row),
    }


def facets(rows: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The facets query's (facet, value, n) rows as {facet: [{value, count}]}, every facet present."""
    out: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        name = FACET_NAMES[r["facet"]]
        value = int(r["value"]) if r["facet"] == "chainId" else r["value"]
        out.setdefault(name, []).append({"value": value, "count": int(r["n"])})
    for values in out.values():
        values.sort(key=lambda f: f["value"])  # chain IDs as numbers
    return out


def echo(filters: dict[str, Any]) -> dict[str, Any]:
    """The normalized filters the page answers (tri-state filters as true / false / null = any)."""
    out = {k: (None if v == -1 else bool(v)) if k in _TRISTATE else v for k, v in filters.items()}
    if "token" in out:  # no token filter: null, not an empty address or chain 0
        out["token"], out["tokenChain"] = out["token"] or None, out["tokenChain"] or None
    return out


_TRISTATE = {"curated", "featured", "incentivized", "liveGauge", "dynamicFee", "customFee"}
