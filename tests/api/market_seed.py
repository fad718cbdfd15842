"""Crafted market rows: pools (with the gauge snapshot joined to them), tokens, the core token and
pool daily rows.

- `seed_market_minimal` adds to the `fresh` scenario what its market routes need to answer 200
  (token rows and a core-token row at the latest snapshot).
- `seed_market` fills the `market` scenario's own database: five pools chosen so every sort key,
  filter and null rule has a case, a failed run whose rows must never show, and history.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone

from support import instant
from ve_analytics.core.epochs import HOUR, QUARTER_HOUR, epoch_start

E18 = 10**18
SOURCES = ["subgraph", "chain-rpc"]

POOL_COLUMNS = [
    "chain_id", "snapshot_at", "pool_address", "pool_type", "token0_address", "token1_address", "token0_symbol",
    "token1_symbol", "fee_pips", "is_dynamic_fee", "reserve0", "reserve1", "tvl_usd", "volume_24h_usd",
    "fees_24h_usd", "hours_24h", "gauge_address", "gauge_alive", "is_custom_fee", "token0_decimals",
    "token1_decimals", "tick_spacing", "volume_lifetime_usd", "fees_lifetime_usd",
]
TOKEN_COLUMNS = ["chain_id", "snapshot_at", "token_address", "symbol", "name", "decimals", "price_usd", "derived_eth", "tvl_usd"]
GAUGE_COLUMNS = [
    "chain_id", "snapshot_at", "gauge_address", "pool_address", "is_alive", "epoch_start", "votes_raw",
    "foundation_votes_raw", "foundation_vote_share", "emissions_epoch_raw", "emission_apr", "fee_apr", "bribe_apr",
    "total_apr", "bribes_epoch_usd", "fees_epoch_usd",
]
CORE_COLUMNS = [
    "chain_id", "snapshot_at", "block_number", "token_address", "symbol", "decimals", "price_usd", "derived_eth",
    "price_source", "price_reference_pool", "total_supply_raw", "market_cap_usd", "liquidity_usd", "pool_count",
    "flow_window_end", "volume_24h_usd", "fees_24h_usd", "hours_24h", "volume_day_usd", "fees_day_usd", "hours_day",
    "volume_7d_usd", "fees_7d_usd", "hours_7d", "volume_30d_usd", "fees_30d_usd", "hours_30d",
    "volume_lifetime_usd", "fees_lifetime_usd",
]
RUN_COLUMNS = [
    "chain_id", "snapshot_at", "run_id", "status", "block_number", "block_timestamp", "started_at",
    "finished_at", "rows_written", "sources", "error",
]
PROTOCOL_COLUMNS = ["chain_id", "snapshot_at", "block_number", "block_timestamp", "tvl_usd", "pool_count",
                    "flow_window_end", "volume_24h_usd", "fees_24h_usd", "hours_24h", "epoch_start"]
POOL_DAILY_COLUMNS = ["chain_id", "pool_address", "day", "volume_usd", "fees_usd", "tvl_usd_close", "hours_covered"]

CORE = "0x" + "c0" * 20
WBNB = "0x" + "b0" * 20
USDT = "0x" + "d0" * 20
USDC = "0x" + "e0" * 20
LONELY = "0x" + "f0" * 20  # a token in no pool: never listed
SYMBOLS = {CORE: "CORE", WBNB: "WBNB", USDT: "USDT", USDC: "USDC", LONELY: "LONE"}

P1, P2, P3, P4, P5 = ("0x" + f"0{i}" * 20 for i in range(1, 6))
G1, G2, G3, G5 = "0x" + "a1" * 20, "0x" + "a2" * 20, "0x" + "a3" * 20, "0x" + "a5" * 20
SUPPLY_RAW = 600_000_000 * E18 + 123  # > 2**64: only a decimal string keeps it exact


def ts(unix: int) -> datetime:
    return datetime.fromtimestamp(unix, tz=timezone.utc)


def block_of(at: int) -> int:
    return 1_000_000 + at // 3


def pool_row(at: int, address: str, kind: str, t0: str, t1: str, *, tvl, volume, fees, gauge=None, alive=None,
             dynamic=False, custom=False, fee=2500) -> list:
    row = {
        "chain_id": 56, "snapshot_at": ts(at), "pool_address": address, "pool_type": kind,
        "token0_address": t0, "token1_address": t1, "token0_symbol": SYMBOLS[t0], "token1_symbol": SYMBOLS[t1],
        "fee_pips": fee, "is_dynamic_fee": dynamic, "reserve0": 1.0, "reserve1": 2.0, "tvl_usd": tvl,
        "volume_24h_usd": volume, "fees_24h_usd": fees, "hours_24h": 24 if volume is not None else 0,
        "gauge_address": gauge, "gauge_alive": alive, "is_custom_fee": custom, "token0_decimals": 18,
        "token1_decimals": 6 if t1 == USDC else 18, "tick_spacing": 50 if kind == "cl" else None,
        "volume_lifetime_usd": 1e6, "fees_lifetime_usd": 1e3,
    }
    return [row[c] for c in POOL_COLUMNS]


def gauge_row(at: int, gauge: str, pool: str, *, alive=True, emissions=10 * E18, apr=(0.5, 0.1, 0.2, 0.8)) -> list:
    emission, fee, bribe, total = apr
    return [56, ts(at), gauge, pool, alive, ts(epoch_start(at)), 7 * E18, 1 * E18, 1 / 7, emissions,
            emission, fee, bribe, total, 100.0, 20.0]


def token_row(at: int, address: str, price, decimals: int = 18) -> list:
    return [56, ts(at), address, SYMBOLS[address], SYMBOLS[address].title(), decimals, price,
            price / 600 if price is not None else None, 1000.0]


def core_row(at: int, price: float, window_end: int) -> list:
    row = {
        "chain_id": 56, "snapshot_at": ts(at), "block_number": block_of(at), "token_address": CORE, "symbol": "CORE",
        "decimals": 18, "price_usd": price, "derived_eth": price / 600, "price_source": "subgraph:Token.priceUSD",
        "price_reference_pool": P1, "total_supply_raw": SUPPLY_RAW, "market_cap_usd": price * SUPPLY_RAW / 1e18,
        "liquidity_usd": 1000.0, "pool_count": 2, "flow_window_end": ts(window_end), "volume_24h_usd": 500.0,
        "fees_24h_usd": 1.5, "hours_24h": 24, "volume_day_usd": 50.0, "fees_day_usd": 0.15, "hours_day": 3,
        "volume_7d_usd": 3500.0, "fees_7d_usd": 10.5, "hours_7d": 168, "volume_30d_usd": 15000.0,
        "fees_30d_usd": 45.0, "hours_30d": 700, "volume_lifetime_usd": 2e6, "fees_lifetime_usd": 2e3,
    }
    return [row[c] for c in CORE_COLUMNS]


def seed_market_minimal(client, latest: int) -> None:
    """Token rows for the fresh scenario's pool tokens and a core-token row at its latest snapshot."""
    t0, t1 = "0x" + "1" * 40, "0x" + "2" * 40
    rows = [[56, ts(latest), t0, "WBNB", "Wrapped BNB", 18, 600.0, 1.0, 10.0],
            [56, ts(latest), t1, "USDT", "Tether USD", 18, 1.0, 1 / 600, 10.0]]
    client.insert("token_snap15m", rows, column_names=TOKEN_COLUMNS)
    client.insert("core_token_snap15m", [core_row(latest, 2.5, latest // HOUR * HOUR)], column_names=CORE_COLUMNS)


@dataclass
class Market:
    latest: int
    published: list[int]
    failed: int
    window_end: int
    day: date = field(init=False)

    def __post_init__(self) -> None:
        self.day = ts(self.latest).date()


def seed_market(client, latest: int) -> Market:
    window_end = latest // HOUR * HOUR
    published = [latest - 2 * QUARTER_HOUR, latest - QUARTER_HOUR, latest]
    failed = latest - 3 * QUARTER_HOUR
    runs, protocol = [], []
    for at in [*published, failed]:
        status = "failed" if at == failed else "success"
        t = ts(at)
        runs.append([56, t, f"run-{at}", status, block_of(at), t, t, t + timedelta(seconds=30), {}, SOURCES, ""])
        protocol.append([56, t, block_of(at), t, 1_000_000.0, 5, ts(window_end), 2600.0, 1000.0, 24, ts(epoch_start(at))])
    client.insert("snapshot_runs", runs, column_names=RUN_COLUMNS)
    client.insert("protocol_snap15m", protocol, column_names=PROTOCOL_COLUMNS)

    pools = [
        pool_row(latest, P1, "v2-volatile", CORE, WBNB, tvl=1000.0, volume=500.0, fees=1.5, gauge=G1, alive=True, fee=3000),
        pool_row(latest, P2, "cl", WBNB, USDT, tvl=5000.0, volume=100.0, fees=0.05, gauge=G2, alive=True, dynamic=True),
        pool_row(latest, P3, "v2-stable", USDT, USDC, tvl=3000.0, volume=2000.0, fees=0.2, gauge=G3, alive=False, fee=500),
        pool_row(latest, P4, "cl", USDT, WBNB, tvl=None, volume=None, fees=None, custom=True, fee=250),
        pool_row(latest, P5, "cl", CORE, USDT, tvl=0.0, volume=0.0, fees=0.0, gauge=G5, alive=True),
    ]
    for k, at in enumerate([latest - QUARTER_HOUR, latest - 2 * QUARTER_HOUR, failed], start=1):
        pools.append(pool_row(at, P1, "v2-volatile", CORE, WBNB, tvl=1000.0 - k, volume=500.0, fees=1.5, gauge=G1, alive=True))
    client.insert("pool_snap15m", pools, column_names=POOL_COLUMNS)

    gauges = [
        gauge_row(latest, G1, P1),
        gauge_row(latest, G2, P2, emissions=5 * E18, apr=(1.0, 0.2, 0.3, 1.5)),
        gauge_row(latest, G5, P5, emissions=0, apr=(0.0, 0.1, 0.2, 0.3)),
        gauge_row(latest - QUARTER_HOUR, G1, P1, apr=(0.4, 0.1, 0.2, 0.7)),
        gauge_row(failed, G1, P1, apr=(9.0, 9.0, 9.0, 27.0)),  # a failed run's row: never served
    ]
    client.insert("gauge_snap15m", gauges, column_names=GAUGE_COLUMNS)

    tokens = [
        token_row(latest, CORE, 2.0), token_row(latest, WBNB, 600.0), token_row(latest, USDT, 1.0),
        token_row(latest, USDC, None, decimals=6), token_row(latest, LONELY, 99999.0),
        token_row(latest - QUARTER_HOUR, CORE, 1.9), token_row(failed, CORE, 1.5),
    ]
    client.insert("token_snap15m", tokens, column_names=TOKEN_COLUMNS)
    client.insert("core_token_snap15m", [core_row(latest - QUARTER_HOUR, 1.9, window_end),
                                         core_row(failed, 1.5, window_end),
                                         core_row(latest, 2.0, window_end)], column_names=CORE_COLUMNS)
    day = ts(latest).date()
    daily = [
        [56, P1, day, 10.0, 0.03, 1000.0, (latest % 86400) // HOUR],
        [56, P1, day - timedelta(days=2), 240.0, 0.72, 990.0, 24],
        [56, P5, day - timedelta(days=2), 60.0, 0.18, 0.0, 24],
        [56, P2, day - timedelta(days=2), 7.0, 0.01, 5000.0, 24],  # not a core pool
    ]
    client.insert("pool_daily", daily, column_names=POOL_DAILY_COLUMNS)
    return Market(latest, published, failed, window_end)


# ------------------------------------------------------------------------------ the scenario


@dataclass
class MarketApi:
    """The market scenario's API (own database, live cache off) and its devnet."""

    server: object
    contract: object
    client: object
    data: Market
    devnet: object

    @property
    def url(self) -> str:
        return self.server.url  # type: ignore[attr-defined]

    def get(self, path: str, **kw):
        r = self.client.get(self.url + path, **kw)  # type: ignore[attr-defined]
        self.contract.check(r)  # type: ignore[attr-defined]
        return r

    def fault(self, mode: str) -> None:
        import httpx

        body = {"chainId": 56, "target": "rpc", "mode": mode}
        httpx.post(f"{self.devnet.url}/control/faults", json=body, timeout=10).raise_for_status()  # type: ignore[attr-defined]


def start_market(fresh_settings, contract, http, devnet, data_dir, latest: int) -> MarketApi:
    import dataclasses

    from support.api_server import ApiServer
    from ve_analytics.warehouse.client import get_client
    from ve_analytics.warehouse.migrate import migrate

    settings = dataclasses.replace(fresh_settings, clickhouse_database="api_market", data_dir=data_dir, live_cache_seconds=0.0)
    migrate(settings)
    client = get_client(settings)
    data = seed_market(client, latest)
    client.close()
    server = ApiServer(settings, log_path=data_dir / "api.log", env=instant.frozen_env()).start()
    return MarketApi(server, contract, http, data, devnet)
