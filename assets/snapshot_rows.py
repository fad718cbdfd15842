"""Rows of the 15-minute snapshot tables, built from upstream reads at each snapshot's block.

One function per table; each takes the resolved snapshot points of a whole partition range and
returns columns ready for one insert. The flow figures come from hourly buckets loaded once for
the range (`load_flow_series`), not from one query per snapshot.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

from ve_analytics.assets.rows.values import columns, fsum_or_none, opt_float, opt_int, ref_id, req_float, req_int
from ve_analytics.assets.upstream import POOL_FIELDS, POOL_TVL_FIELDS, TOKEN_FIELDS, SnapshotPoint, fetch_each
from ve_analytics.assets.writers import query_columns, query_rows, utc
from ve_analytics.core.epochs import DAY, epoch_start
from ve_analytics.core.flows import HourlySeries, flow_end, protocol_flows, series_by_key
from ve_analytics.readers.chain import ChainReader
from ve_analytics.readers.graphql import MAX_PAGE_SIZE, SubgraphClient, graphql_literal

V2_TYPES = ("v2-volatile", "v2-stable")
CL_TYPES = ("cl",)
OnDone = Callable[[int, int], None]


# -- hourly buckets for the flow windows -----------------------------------------------------
def load_flow_series(client, chain_id: int, times: Sequence[int]) -> tuple[HourlySeries, dict[str, HourlySeries]]:
    """Protocol and per-pool hourly series covering every window of `times` (two range loads)."""
    first, last = min(times), max(times)
    newest = query_rows(client, "snapshots/latest_protocol_hour.sql", {"chain_id": chain_id, "at_ts": first})
    earliest_end = first
    if newest and newest[0]["hour_ts"] is not None:
        earliest_end = min(first, int(newest[0]["hour_ts"]) + 3600)
    proto = query_columns(
        client,
        "snapshots/protocol_hours.sql",
        {"chain_id": chain_id, "from_ts": earliest_end - 30 * DAY, "to_ts": last},
    )
    protocol = HourlySeries(proto["hour_ts"], proto["volume_usd"], proto["fees_usd"])
    pools = query_columns(
        client,
        "snapshots/pool_hours.sql",
        {"chain_id": chain_id, "from_ts": earliest_end - DAY, "to_ts": last},
    )
    per_pool = series_by_key(pools["pool_address"], pools["hour_ts"], pools["volume_usd"], pools["fees_usd"])
    return protocol, per_pool


# -- token_snap15m ---------------------------------------------------------------------------
TOKEN_COLUMNS = ("chain_id", "snapshot_at", "token_address", "symbol", "name", "decimals",
                 "price_usd", "derived_eth", "tvl_usd")


def token_columns(subgraph: SubgraphClient, chain_id: int, points: Sequence[SnapshotPoint], on_done: OnDone | None = None) -> dict[str, list]:
    def read(point: SnapshotPoint) -> list[dict[str, Any]]:
        at = utc(point.snapshot_at)
        return [
            {
                "chain_id": chain_id,
                "snapshot_at": at,
                "token_address": ref_id(t),
                "symbol": t.get("symbol") or "",
                "name": t.get("name") or "",
                "decimals": req_int(t.get("decimals"), f"token {t['id']} decimals"),
                "price_usd": opt_float(t.get("priceUSD")),
                "derived_eth": opt_float(t.get("derivedETH")),
                "tvl_usd": opt_float(t.get("totalValueLockedUSD")),
            }
            for t in subgraph.paginate("tokens", TOKEN_FIELDS, block=point.block.number)
        ]

    rows = [r for batch in fetch_each(points, read, on_done=on_done) for r in batch]
    return columns(TOKEN_COLUMNS, rows)


# -- pool_snap15m ----------------------------------------------------------------------------
POOL_COLUMNS = ("chain_id", "snapshot_at", "pool_address", "pool_type", "token0_address",
                "token1_address", "token0_symbol", "token1_symbol", "fee_pips", "is_dynamic_fee",
                "reserve0", "reserve1", "tvl_usd", "volume_24h_usd", "fees_24h_usd", "hours_24h",
                "gauge_address", "gauge_alive", "is_custom_fee", "token0_decimals", "token1_decimals",
                "tick_spacing", "volume_lifetime_usd", "fees_lifetime_usd")


def pool_columns(
    subgraph: SubgraphClient,
    chain_id: int,
    points: Sequence[SnapshotPoint],
    protocol: HourlySeries,
    per_pool: dict[str, HourlySeries],
    on_done: OnDone | None = None,
) -> dict[str, list]:
    def read(point: SnapshotPoint) -> list[dict[str, Any]]:
        at = utc(point.snapshot_at)
        end = flow_end(protocol, point.snapshot_at)
        rows = []
        for p in subgraph.paginate("pools", POOL_FIELDS, block=point.block.number):
            address = ref_id(p)
            series = per_pool.get(address)
            flows = series.window(end - DAY, end) if (series is not None and end is not None) else None
            gauge = p.get("gauge")
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
                    "token0_decimals": opt_int((p.get("token0") or {}).get("decimals")),
                    "token1_decimals": opt_int((p.get("token1") or {}).get("decimals")),
                    "tick_spacing": opt_int(p.get("tickSpacing")),
                    "volume_lifetime_usd": opt_float(p.get("volumeUSD")),
                    "fees_lifetime_usd": opt_float(p.get("feesUSD")),
                }
            )
        return rows

    rows = [r for batch in fetch_each(points, read, on_done=on_done) for r in batch]
    return columns(POOL_COLUMNS, rows)


# -- protocol_snap15m ------------------------------------------------------------------------
PROTOCOL_COLUMNS = ("chain_id", "snapshot_at", "block_number", "block_timestamp", "tvl_usd",
                    "tvl_v2_usd", "tvl_cl_usd", "pool_count", "flow_window_end",
                    "volume_24h_usd", "fees_24h_usd", "hours_24h", "volume_7d_usd", "fees_7d_usd",
                    "hours_7d", "volume_30d_usd", "fees_30d_usd", "hours_30d",
                    "active_gauge_count", "epoch_start", "emissions_epoch_raw", "ve_locked_raw",
                    "ve_voting_power_raw", "core_price_usd")


def _state_reads(subgraph: SubgraphClient, block: int, core_token: str) -> tuple[list[dict], list[dict], dict | None]:
    """Pools (type, TVL), factories and the core token at `block`: one request for the usual case."""
    blk = graphql_literal({"number": int(block)})
    q = (
        f"{{ pools(first: {MAX_PAGE_SIZE}, orderBy: id, orderDirection: asc, block: {blk}) "
        f"{{ id {POOL_TVL_FIELDS} }} "
        f"factories(first: 100, block: {blk}) {{ id poolCount }} "
        f"core: token(id: {graphql_literal(core_token)}, block: {blk}) {{ id priceUSD }} }}"
    )
    data = subgraph.query(q)
    pools = list(data.get("pools") or [])
    if len(pools) == MAX_PAGE_SIZE:  # more than one page: continue with keyset paging
        rest = subgraph.paginate("pools", POOL_TVL_FIELDS, where={}, block=block)
        pools = rest
    return pools, list(data.get("factories") or []), data.get("core")


def protocol_columns(
    subgraph: SubgraphClient,
    chain: ChainReader,
    chain_id: int,
    points: Sequence[SnapshotPoint],
    protocol: HourlySeries,
    core_token: str,
    on_done: OnDone | None = None,
    warnings: list[str] | None = None,
) -> dict[str, list]:
    def read(point: SnapshotPoint) -> dict[str, Any]:
        block = point.block.number
        pools, factories, core = _state_reads(subgraph, block, core_token.lower())
        gov = chain.governance(block)
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
        factory_pools = sum(int(f.get("poolCount") or 0) for f in factories)
        if factories and warnings is not None and factory_pools != len(pools):
            warnings.append(f"block {block}: factories count {factory_pools} pools, subgraph lists {len(pools)}")
        end = flow_end(protocol, point.snapshot_at)
        flows = protocol_flows(protocol, end)
        return {
            "chain_id": chain_id,
            "snapshot_at": utc(point.snapshot_at),
            "block_number": block,
            "block_timestamp": utc(point.block.timestamp),
            "tvl_usd": fsum_or_none(tvl),
            "tvl_v2_usd": fsum_or_none(v2),
            "tvl_cl_usd": fsum_or_none(cl),
            "pool_count": len(pools),
            "flow_window_end": utc(end) if end is not None else None,
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
            "epoch_start": utc(epoch_start(point.snapshot_at)),
            "emissions_epoch_raw": gov.emissions_epoch_raw,
            "ve_locked_raw": gov.ve_locked_raw,
            "ve_voting_power_raw": gov.ve_voting_power_raw,
            "core_price_usd": opt_float(core.get("priceUSD")) if core else None,
        }

    rows = fetch_each(points, read, on_done=on_done)
    return columns(PROTOCOL_COLUMNS, rows)
