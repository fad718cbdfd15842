"""Rows of token_snap15m, pool_snap15m and protocol_snap15m: one snapshot's subgraph entities and
chain governance state at its block, with rolling flows from hourly buckets (core.flows).

Each function builds the rows of one snapshot point; the snapshot assets call them per point.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .values import fsum_or_none, opt_float, opt_int, opt_price, opt_raw, ref_id, req_float, req_int
from ...core.epochs import DAY, epoch_start, to_datetime
from ...core.flows import HourlySeries, flow_end, protocol_flows
from ...core.prices import PRICE_GENERATION

if TYPE_CHECKING:
    from ..upstream import SnapshotPoint
    from ...readers.chain import GovernanceState

V2_TYPES = ("v2-volatile", "v2-stable")
CL_TYPES = ("cl",)

TOKEN_COLUMNS = ("chain_id", "snapshot_at", "token_address", "symbol", "name", "decimals",
                 "price_usd", "derived_eth", "tvl_usd", "price_generation")
POOL_COLUMNS = ("chain_id", "snapshot_at", "pool_address", "pool_type", "token0_address",
                "token1_address", "token0_symbol", "token1_symbol", "fee_pips", "is_dynamic_fee",
                "reserve0", "reserve1", "tvl_usd", "volume_24h_usd", "fees_24h_usd", "hours_24h",
                "gauge_address", "gauge_alive", "is_custom_fee", "token0_decimals", "token1_decimals",
                "tick_spacing", "volume_lifetime_usd", "fees_lifetime_usd", "liquidity_raw", "sqrt_price_x96", "tick",
                "reserve0_raw", "reserve1_raw")
PROTOCOL_COLUMNS = ("chain_id", "snapshot_at", "block_number", "block_timestamp", "tvl_usd",
                    "tvl_v2_usd", "tvl_cl_usd", "pool_count", "flow_window_end",
                    "volume_24h_usd", "fees_24h_usd", "hours_24h", "volume_7d_usd", "fees_7d_usd",
                    "hours_7d", "volume_30d_usd", "fees_30d_usd", "hours_30d",
                    "active_gauge_count", "epoch_start", "emissions_epoch_raw", "ve_locked_raw",
                    "ve_voting_power_raw", "core_price_usd")


def token_rows(chain_id: int, snapshot_at: int, tokens: list[dict]) -> list[dict[str, Any]]:
    at = to_datetime(snapshot_at)
    return [
        {
            "chain_id": chain_id,
            "snapshot_at": at,
            "token_address": ref_id(t),
            "symbol": t.get("symbol") or "",
            "name": t.get("name") or "",
            "decimals": req_int(t.get("decimals"), f"token {t['id']} decimals"),
            "price_usd": opt_price(t.get("priceUSD")),
            "derived_eth": opt_float(t.get("derivedETH")),
            "tvl_usd": opt_float(t.get("totalValueLockedUSD")),
            "price_generation": PRICE_GENERATION,  # how price_usd was derived (ADR 0011)
        }
        for t in tokens
    ]


def pool_rows(chain_id: int, snapshot_at: int, pools: list[dict], protocol: HourlySeries,
              per_pool: dict[str, HourlySeries]) -> list[dict[str, Any]]:
    """Every pool with its 24h flows over the snapshot's flow window (None without buckets)."""
    at = to_datetime(snapshot_at)
    end = flow_end(protocol, snapshot_at)
    rows = []
    for p in pools:
        address = ref_id(p)
        # range state is a CL pool's own: the subgraph's V2 liquidity/sqrtPrice are derived, not stored
        cl = p["type"] in CL_TYPES
        series = per_pool.get(address)
        flows = series.window(end - DAY, end) if (series is not None and end is not None) else None
        gauge = p.get("gauge")
        decimals0 = opt_int((p.get("token0") or {}).get("decimals"))
        decimals1 = opt_int((p.get("token1") or {}).get("decimals"))
        rows.append(
            {
                "chain_id": chain_id,
                "snapshot_at": at,
                "pool_address": address,
                "pool_type": p["type"],
                "token0_address": ref_id(p.get("token0")) or "",
                "token1_address": ref_id(p.get("token1")) or "",
                "token0_symbol": (p.get("token0") or {}).get("symbol") or "",
                "token1_symbol": (p.get("token1") or {}).get("symbol") or "",
                "fee_pips": req_int(p.get("feeTier"), f"pool {address} feeTier"),
                "is_dynamic_fee": bool(p.get("isDynamicFee")),
                "reserve0": req_float(p.get("reserve0"), f"pool {address} reserve0"),
                "reserve1": req_float(p.get("reserve1"), f"pool {address} reserve1"),
                "tvl_usd": opt_float(p.get("totalValueLockedUSD")),
                "volume_24h_usd": flows.volume_usd if flows else None,
                "fees_24h_usd": flows.fees_usd if flows else None,
                "hours_24h": flows.hours if flows else 0,
                "gauge_address": ref_id(gauge),
                "gauge_alive": (bool(gauge["isAlive"]) if isinstance(gauge, dict) and gauge.get("isAlive") is not None else None),
                "is_custom_fee": bool(p.get("isCustomFee")),
                "token0_decimals": decimals0,
                "token1_decimals": decimals1,
                "tick_spacing": opt_int(p.get("tickSpacing")),
                "volume_lifetime_usd": opt_float(p.get("volumeUSD")),
                "fees_lifetime_usd": opt_float(p.get("feesUSD")),
                "liquidity_raw": opt_int(p.get("liquidity")) if cl else None,
                "sqrt_price_x96": opt_int(p.get("sqrtPrice")) if cl else None,
                "tick": opt_int(p.get("tick")) if cl else None,
                "reserve0_raw": opt_raw(p.get("reserve0"), decimals0),
                "reserve1_raw": opt_raw(p.get("reserve1"), decimals1),
            }
        )
    return rows


def protocol_row(chain_id: int, point: "SnapshotPoint", pools: list[dict], factories: list[dict], core: dict | None,
                 gov: "GovernanceState", protocol: HourlySeries) -> tuple[dict[str, Any], list[str]]:
    """(the protocol row, warnings): TVL split by pool type (unknown when a pool's is), rolling
    flows, governance totals and the core token's price, all at the point's block."""
    block = point.block.number
    tvl, v2, cl = [], [], []
    for p in pools:
        value = opt_float(p.get("totalValueLockedUSD"))
        tvl.append(value)
        if p.get("type") in V2_TYPES:
            v2.append(value)
        elif p.get("type") in CL_TYPES:
            cl.append(value)
        else:
            raise ValueError(f"pool {p.get('id')} has unknown type {p.get('type')!r}")
    warnings = []
    factory_pools = sum(int(f.get("poolCount") or 0) for f in factories)
    if factories and factory_pools != len(pools):
        warnings.append(f"block {block}: factories count {factory_pools} pools, subgraph lists {len(pools)}")
    end = flow_end(protocol, point.snapshot_at)
    flows = protocol_flows(protocol, end)
    row = {
        "chain_id": chain_id,
        "snapshot_at": to_datetime(point.snapshot_at),
        "block_number": block,
        "block_timestamp": to_datetime(point.block.timestamp),
        "tvl_usd": fsum_or_none(tvl),
        "tvl_v2_usd": fsum_or_none(v2),
        "tvl_cl_usd": fsum_or_none(cl),
        "pool_count": len(pools),
        "flow_window_end": to_datetime(end) if end is not None else None,
        "volume_24h_usd": flows["24h"].volume_usd,
        "fees_24h_usd": flows["24h"].fees_usd,
        "hours_24h": flows["24h"].hours,
        "volume_7d_usd": flows["7d"].volume_usd,
        "fees_7d_usd": flows["7d"].fees_usd,
        "hours_7d": flows["7d"].hours,
        "volume_30d_usd": flows["30d"].volume_usd,
        "fees_30d_usd": flows["30d"].fees_usd,
        "hours_30d": flows["30d"].hours,
        "active_gauge_count": gov.active_gauge_count,
        "epoch_start": to_datetime(epoch_start(point.snapshot_at)),
        "emissions_epoch_raw": gov.emissions_epoch_raw,
        "ve_locked_raw": gov.ve_locked_raw,
        "ve_voting_power_raw": gov.ve_voting_power_raw,
        "core_price_usd": opt_float(core.get("priceUSD")) if core else None,
    }
    return row, warnings
