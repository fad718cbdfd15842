"""Rows of core_token_snap15m: the core token's factsheet figures at each snapshot block.

Per snapshot point, all at the point's block: the token (subgraph Token.priceUSD, derivedETH,
decimals), every pool containing it (TVL, cumulative volume and fees), and ERC20 totalSupply()
through Multicall3. Rolling flows sum the hourly buckets of those pools over windows ending at
the snapshot's protocol flow-window end (the same end /api/stats/protocol uses).
"""

from typing import TYPE_CHECKING, Any, Callable, Sequence

from ve_analytics.assets.rows.values import columns, fsum_or_none, opt_float, ref_id
from ve_analytics.assets.snapshot_rows import load_flow_series
from ve_analytics.assets.upstream import SnapshotPoint, fetch_each
from ve_analytics.assets.writers import query_columns, utc
from ve_analytics.core.epochs import DAY, floor_to
from ve_analytics.core.flows import HourlySeries, combined, flow_end, series_by_key
from ve_analytics.readers.chain import ChainReader, ChainReadError
from ve_analytics.readers.graphql import MAX_PAGE_SIZE, SubgraphClient, graphql_literal

if TYPE_CHECKING:
    from ve_analytics.assets.snapshots import SnapshotStep

PRICE_SOURCE = "subgraph:Token.priceUSD"
CORE_COLUMNS = (
    "chain_id", "snapshot_at", "block_number", "token_address", "symbol", "decimals", "price_usd",
    "derived_eth", "price_source", "price_reference_pool", "total_supply_raw", "market_cap_usd",
    "liquidity_usd", "pool_count", "flow_window_end", "volume_24h_usd", "fees_24h_usd", "hours_24h",
    "volume_day_usd", "fees_day_usd", "hours_day", "volume_7d_usd", "fees_7d_usd", "hours_7d",
    "volume_30d_usd", "fees_30d_usd", "hours_30d", "volume_lifetime_usd", "fees_lifetime_usd",
)
POOL_FIELDS = "id totalValueLockedUSD volumeUSD feesUSD"
WINDOWS = (("24h", DAY), ("7d", 7 * DAY), ("30d", 30 * DAY))


def load_pool_series(client, chain_id: int, times: Sequence[int]) -> dict[str, HourlySeries]:
    """Hourly buckets of every pool over the 30 days before the range (one load)."""
    cols = query_columns(
        client,
        "snapshots/pool_hours.sql",
        {"chain_id": chain_id, "from_ts": min(times) - 31 * DAY, "to_ts": max(times)},
    )
    return series_by_key(cols["pool_address"], cols["hour_ts"], cols["volume_usd"], cols["fees_usd"])


def _sum_of_some(values: list[float | None]) -> float | None:
    """A total over the pools: unknown without pools or when one of them is unknown."""
    return fsum_or_none(values) if values else None


def _reads(subgraph: SubgraphClient, block: int, core: str) -> tuple[dict | None, list[dict]]:
    blk = graphql_literal({"number": int(block)})
    ident = graphql_literal(core)
    q = (
        f"{{ core: token(id: {ident}, block: {blk}) {{ id symbol decimals priceUSD derivedETH }} "
        f"a: pools(first: {MAX_PAGE_SIZE}, orderBy: id, where: {{token0: {ident}}}, block: {blk}) {{ {POOL_FIELDS} }} "
        f"b: pools(first: {MAX_PAGE_SIZE}, orderBy: id, where: {{token1: {ident}}}, block: {blk}) {{ {POOL_FIELDS} }} }}"
    )
    data = subgraph.query(q)
    pools = {ref_id(p): p for p in [*(data.get("a") or []), *(data.get("b") or [])]}
    return data.get("core"), [pools[k] for k in sorted(pools)]


def core_token_columns(
    subgraph: SubgraphClient,
    chain: ChainReader,
    chain_id: int,
    points: Sequence[SnapshotPoint],
    protocol: HourlySeries,
    per_pool: dict[str, HourlySeries],
    core_token: str,
    on_done: Callable[[int, int], None] | None = None,
) -> dict[str, list]:
    core = core_token.lower()
    merged: dict[frozenset[str], HourlySeries] = {}  # the pool set rarely changes: combine once

    def read(point: SnapshotPoint) -> dict[str, Any]:
        block = point.block.number
        token, pools = _reads(subgraph, block, core)
        if token is None:
            raise ValueError(f"core token {core} is not in the subgraph at block {block}")
        erc20 = chain.erc20(core, block)
        supply = erc20.get("totalSupply")
        if supply is None:
            raise ChainReadError(f"{core}.totalSupply() failed at block {block}")
        decimals = int(token["decimals"])
        price = opt_float(token.get("priceUSD"))
        tvls = [opt_float(p.get("totalValueLockedUSD")) for p in pools]
        known = [(t, ref_id(p)) for t, p in zip(tvls, pools) if t is not None]
        ids = frozenset(ref_id(p) for p in pools)
        series = merged.get(ids)
        if series is None:
            series = merged[ids] = combined([per_pool[i] for i in ids if i in per_pool])
        end = flow_end(protocol, point.snapshot_at)
        flows: dict[str, Any] = {}
        for label, seconds in WINDOWS:
            w = series.window(end - seconds, end) if end is not None else None
            flows[label] = (w.volume_usd, w.fees_usd, w.hours) if w else (None, None, 0)
        day_start = floor_to(point.snapshot_at, DAY)
        day = series.window(day_start, end) if end is not None and end > day_start else None
        return {
            "chain_id": chain_id,
            "snapshot_at": utc(point.snapshot_at),
            "block_number": block,
            "token_address": core,
            "symbol": token.get("symbol") or "",
            "decimals": decimals,
            "price_usd": price,
            "derived_eth": opt_float(token.get("derivedETH")),
            "price_source": PRICE_SOURCE,
            "price_reference_pool": max(known)[1] if known else None,
            "total_supply_raw": int(supply),
            "market_cap_usd": price * int(supply) / 10**decimals if price is not None else None,
            "liquidity_usd": _sum_of_some(tvls),
            "pool_count": len(pools),
            "flow_window_end": utc(end) if end is not None else None,
            "volume_24h_usd": flows["24h"][0],
            "fees_24h_usd": flows["24h"][1],
            "hours_24h": flows["24h"][2],
            "volume_day_usd": day.volume_usd if day else None,
            "fees_day_usd": day.fees_usd if day else None,
            "hours_day": day.hours if day else 0,
            "volume_7d_usd": flows["7d"][0],
            "fees_7d_usd": flows["7d"][1],
            "hours_7d": flows["7d"][2],
            "volume_30d_usd": flows["30d"][0],
            "fees_30d_usd": flows["30d"][1],
            "hours_30d": flows["30d"][2],
            "volume_lifetime_usd": _sum_of_some([opt_float(p.get("volumeUSD")) for p in pools]),
            "fees_lifetime_usd": _sum_of_some([opt_float(p.get("feesUSD")) for p in pools]),
        }

    rows = fetch_each(points, read, on_done=on_done)
    return columns(CORE_COLUMNS, rows)


def write_core_token(s: "SnapshotStep") -> dict[str, int]:
    protocol, _ = load_flow_series(s.client, s.chain_id, s.times)
    per_pool = load_pool_series(s.client, s.chain_id, s.times)
    columns = core_token_columns(s.subgraph, s.chain.reader, s.chain_id, s.points, protocol, per_pool,
                                 s.chain.contracts()["coreToken"], on_done=s.on_done("core token"))
    return {"core_token_snap15m": s.insert("core_token_snap15m", columns)}


# (name, tables, description, write) of the market snapshot assets besides tokens, pools, protocol
MARKET_SNAPSHOT_ASSETS = [
    ("core_token_snapshot", ("core_token_snap15m",),
     "Core-token price, ERC20 totalSupply, market cap, liquidity and flows of the pools containing it, "
     "all at each snapshot block (core_token_snap15m).", write_core_token),
]
