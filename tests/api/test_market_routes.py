"""Market routes (pools, tokens, core, dynamic fees, live, competitors) against crafted rows in
their own database (tests/api/market_seed.py), and the live route against a devnet's RPC. Every
response is validated against the served OpenAPI document."""
from __future__ import annotations

import pytest
from market_seed import CORE, G1, LONELY, P1, P2, P3, P4, P5, SUPPLY_RAW, USDC, USDT, WBNB, start_market

from support import instant
from ve_analytics.core.epochs import DAY, QUARTER_HOUR, iso

@pytest.fixture(scope="module")
def market(fresh_settings, contract, http, api_devnet, tmp_path_factory):
    api = start_market(fresh_settings, contract, http, api_devnet, tmp_path_factory.mktemp("market"),
                       instant.AT // QUARTER_HOUR * QUARTER_HOUR)
    try:
        yield api
    finally:
        api.server.stop()


def addresses(r) -> list[str]:
    assert r.status_code == 200, r.text
    return [p["address"] for p in r.json()["data"]]


def mixed(address: str) -> str:
    return "0x" + address[2:].upper()


def error_code(r, status: int = 400) -> str:
    assert r.status_code == status, r.text
    return r.json()["error"]["code"]


# ------------------------------------------------------------------------------ /pools


def test_pool_snapshot_fields(market):
    body = market.get("/api/stats/pools").json()
    assert body["meta"]["snapshotAt"] == iso(market.data.latest)
    pools = {p["address"]: p for p in body["data"]}
    p1 = pools[P1]
    assert p1["type"] == "v2-volatile" and p1["version"] == "v2"
    assert p1["token0"] == {"address": CORE, "symbol": "CORE", "decimals": 18}
    assert p1["token1"] == {"address": WBNB, "symbol": "WBNB", "decimals": 18}
    assert p1["feePips"] == 3000 and p1["isDynamicFee"] is False and p1["isCustomFee"] is False
    assert p1["tvlUsd"] == 1000.0 and p1["volume24hUsd"] == 500.0 and p1["fees24hUsd"] == 1.5
    assert p1["feeApr"] == pytest.approx(1.5 * 365 / 1000)
    assert p1["gauge"] == {"address": G1, "isAlive": True} and p1["incentivized"] is True
    # the gauge snapshot joined on (chain, snapshot, pool): the latest row, not the older or failed ones
    assert p1["gaugeApr"] == 0.8
    assert p1["aprBreakdown"] == {"emission": 0.5, "fee": 0.1, "bribe": 0.2, "total": 0.8}
    w = p1["flowWindow"]
    assert w["toExclusive"] == iso(market.data.window_end) and w["from"] == iso(market.data.window_end - DAY)
    assert w["hoursCovered"] == 24 and w["complete"] is True
    p2 = pools[P2]
    assert p2["type"] == "cl" and p2["version"] == "v3" and p2["tickSpacing"] == 50 and p2["isDynamicFee"] is True
    p3 = pools[P3]
    assert p3["gauge"] == {"address": "0x" + "a3" * 20, "isAlive": False} and p3["incentivized"] is False
    assert p3["gaugeApr"] is None and p3["aprBreakdown"] is None  # no gauge snapshot row: unknown, not 0
    p4 = pools[P4]  # unknown TVL and flows stay null; no gauge
    assert p4["tvlUsd"] is None and p4["volume24hUsd"] is None and p4["feeApr"] is None
    assert p4["gauge"] is None and p4["incentivized"] is False and p4["isCustomFee"] is True
    assert p4["flowWindow"]["hoursCovered"] == 0 and p4["flowWindow"]["complete"] is False
    p5 = pools[P5]
    assert p5["tvlUsd"] == 0.0 and p5["feeApr"] is None  # TVL 0: no APR
    assert p5["incentivized"] is False  # alive gauge, but no emissions this epoch


@pytest.mark.parametrize(
    "sort, expected",
    [
        ("tvl", [P2, P3, P1, P5, P4]),
        ("volume24h", [P3, P1, P2, P5, P4]),
        ("fees24h", [P1, P3, P2, P5, P4]),
        ("apr", [P1, P3, P2, P4, P5]),
        ("gaugeApr", [P2, P1, P5, P3, P4]),
    ],
)
def test_sort_orders_descending_unknown_last(market, sort, expected):
    assert addresses(market.get(f"/api/stats/pools?sort={sort}")) == expected


def test_default_sort_is_tvl(market):
    assert addresses(market.get("/api/stats/pools")) == [P2, P3, P1, P5, P4]


@pytest.mark.parametrize(
    "query, expected",
    [
        ("type=v2", [P3, P1]),
        ("type=v3", [P2, P5, P4]),
        ("type=all", [P2, P3, P1, P5, P4]),
        ("pair=wbnb-usdt", [P2, P4]),
        ("pair=USDT-WBNB", [P2, P4]),  # either order, any case
        ("pair=Core-Wbnb", [P1]),
        ("pair=core-doge", []),
        (f"token={WBNB}", [P2, P1, P4]),
        (f"token={mixed(WBNB)}", [P2, P1, P4]),  # addresses in either case
        (f"token={USDT}&type=v3", [P2, P5, P4]),
        ("minTvl=1000", [P2, P3, P1]),  # at least; unknown TVL dropped
        ("minTvl=0", [P2, P3, P1, P5]),
        ("minTvl=3000.5", [P2]),
        ("incentivized=true", [P2, P1]),
        ("incentivized=1", [P2, P1]),
        ("incentivized=false", [P3, P5, P4]),
        ("incentivized=0", [P3, P5, P4]),
        ("limit=1", [P2]),
        ("limit=500", [P2, P3, P1, P5, P4]),
        ("limit=2&sort=volume24h&type=v2", [P3, P1]),
    ],
)
def test_filters(market, query, expected):
    assert addresses(market.get(f"/api/stats/pools?{query}")) == expected


@pytest.mark.parametrize(
    "query, code",
    [
        ("limit=0", "invalid_limit"),
        ("limit=501", "invalid_limit"),
        ("limit=-1", "invalid_limit"),
        ("sort=volume", "invalid_sort"),
        ("sort=TVL", "invalid_sort"),
        ("type=v4", "invalid_type"),
        ("type=", "invalid_type"),
        ("pair=wbnb", "invalid_pair"),
        ("pair=wbnb-usdt-usdc", "invalid_pair"),
        ("token=0x123", "invalid_token"),
        ("token=" + "0x" + "g" * 40, "invalid_token"),
        ("minTvl=-1", "invalid_min_tvl"),
        ("minTvl=abc", "invalid_min_tvl"),
        ("minTvl=inf", "invalid_min_tvl"),
        ("incentivized=yes", "invalid_incentivized"),
        ("incentivized=TRUE", "invalid_incentivized"),
        ("limit=1&limit=2", "invalid_limit"),
    ],
)
def test_invalid_parameters(market, query, code):
    assert error_code(market.get(f"/api/stats/pools?{query}")) == code


# ------------------------------------------------------------------------------ /pools/{poolId}


def test_pool_detail(market):
    r = market.get(f"/api/stats/pools/{mixed(P1)}")
    assert r.status_code == 200
    data = r.json()["data"]
    assert data["current"]["address"] == P1 and data["current"]["gaugeApr"] == 0.8
    history = data["history"]
    published = market.data.published
    assert [h["snapshotAt"] for h in history] == [iso(t) for t in published]  # chronological; failed run absent
    assert [h["tvlUsd"] for h in history] == [998.0, 999.0, 1000.0]
    assert history[-1]["feeApr"] == pytest.approx(1.5 * 365 / 1000) and history[-1]["feePips"] == 3000
    gauge = data["gauge"]
    assert gauge["address"] == G1 and gauge["isAlive"] is True and gauge["snapshotAt"] == iso(market.data.latest)
    assert gauge["votesRaw"] == str(7 * 10**18) and gauge["votes"] == 7.0
    assert gauge["aprBreakdown"] == {"emission": 0.5, "fee": 0.1, "bribe": 0.2, "total": 0.8}
    assert [g["snapshotAt"] for g in data["gaugeHistory"]] == [iso(published[1]), iso(published[2])]
    assert [g["aprBreakdown"]["total"] for g in data["gaugeHistory"]] == [0.7, 0.8]


def test_pool_detail_without_gauge_rows(market):
    data = market.get(f"/api/stats/pools/{P4}").json()["data"]
    assert data["gauge"] is None and data["gaugeHistory"] == []
    assert len(data["history"]) == 1


def test_pool_detail_errors(market):
    assert error_code(market.get("/api/stats/pools/0x1234")) == "invalid_pool_id"
    assert error_code(market.get("/api/stats/pools/" + "0x" + "z" * 40)) == "invalid_pool_id"
    assert error_code(market.get("/api/stats/pools/" + "0x" + "9" * 40), 404) == "pool_not_found"
    assert error_code(market.get("/api/stats/pools/" + "0x" + "9" * 40 + "/daily"), 404) == "pool_not_found"
    assert error_code(market.get("/api/stats/pools/nope/daily")) == "invalid_pool_id"


def test_pool_daily(market):
    day = market.data.day
    rows = market.get(f"/api/stats/pools/{P1}/daily?days=3").json()["data"]
    assert [r["date"] for r in rows] == [(day.fromordinal(day.toordinal() - n)).isoformat() for n in (2, 1, 0)]
    assert [r["partial"] for r in rows] == [False, False, True]
    assert (rows[0]["volumeUsd"], rows[0]["feesUsd"], rows[0]["tvlUsdClose"], rows[0]["hoursCovered"]) == (240.0, 0.72, 990.0, 24)
    assert rows[1] == {"date": rows[1]["date"], "volumeUsd": None, "feesUsd": None, "tvlUsdClose": None, "hoursCovered": None, "partial": False}
    assert rows[2]["volumeUsd"] == 10.0 and rows[2]["tvlUsdClose"] == 1000.0
    assert len(market.get(f"/api/stats/pools/{P1}/daily").json()["data"]) == 90
    assert len(market.get(f"/api/stats/pools/{P1}/daily?days=365").json()["data"]) == 365
    for bad in ("0", "366", "x"):
        assert error_code(market.get(f"/api/stats/pools/{P1}/daily?days={bad}")) == "invalid_days"


def test_dynamic_fees_snapshot(market):
    data = market.get("/api/stats/dynamic-fees").json()["data"]
    assert [p["address"] for p in data] == [P2, P4]
    assert all(p["type"] == "cl" and (p["isDynamicFee"] or p["isCustomFee"]) for p in data)


# ------------------------------------------------------------------------------ tokens


def test_tokens_sorted_by_price(market):
    data = market.get("/api/stats/tokens").json()["data"]
    assert [t["address"] for t in data] == [WBNB, CORE, USDT, USDC]  # LONELY is in no pool; null price last
    assert data[0] == {"address": WBNB, "symbol": "WBNB", "name": "Wbnb", "decimals": 18, "priceUsd": 600.0,
                       "derivedEth": 1.0, "tvlUsd": 1000.0}
    assert data[-1]["priceUsd"] is None and data[-1]["decimals"] == 6
    assert [t["address"] for t in market.get("/api/stats/tokens?limit=1").json()["data"]] == [WBNB]
    assert len(market.get("/api/stats/tokens?limit=500").json()["data"]) == 4
    for bad in ("0", "501", "1.5"):
        assert error_code(market.get(f"/api/stats/tokens?limit={bad}")) == "invalid_limit"


def test_token_detail(market):
    data = market.get(f"/api/stats/tokens/{mixed(CORE)}").json()["data"]
    assert data["current"]["address"] == CORE and data["current"]["priceUsd"] == 2.0
    assert [(h["snapshotAt"], h["priceUsd"]) for h in data["history"]] == [
        (iso(market.data.latest - QUARTER_HOUR), 1.9), (iso(market.data.latest), 2.0)]  # the failed run's 1.5 never
    assert error_code(market.get("/api/stats/tokens/0xabc")) == "invalid_address"
    assert error_code(market.get(f"/api/stats/tokens/{LONELY}"), 404) == "token_not_found"


# ------------------------------------------------------------------------------ core


def test_core_factsheet(market):
    body = market.get("/api/stats/core").json()
    data = body["data"]
    latest = market.data.latest
    assert data["snapshotAt"] == body["meta"]["snapshotAt"] == iso(latest)
    assert data["token"] == {"address": CORE, "symbol": "CORE", "decimals": 18}
    assert data["price"]["usd"] == 2.0 and data["price"]["source"] == "subgraph:Token.priceUSD"
    assert data["price"]["referencePool"] == P1 and data["price"]["blockNumber"] == data["blockNumber"]
    assert data["supply"]["totalSupplyRaw"] == str(SUPPLY_RAW)  # exact beyond 2**64
    assert data["supply"]["totalSupply"] == pytest.approx(SUPPLY_RAW / 1e18)
    assert data["marketCapUsd"] == pytest.approx(2.0 * SUPPLY_RAW / 1e18)
    assert data["liquidity"] == {"tvlUsd": 1000.0, "poolCount": 2}
    a = data["activity"]
    assert (a["volume24hUsd"], a["fees24hUsd"], a["volume7dUsd"], a["volume30dUsd"]) == (500.0, 1.5, 3500.0, 15000.0)
    assert a["lifetimeVolumeUsd"] == 2e6 and a["utcDay"]["volumeUsd"] == 50.0 and a["utcDay"]["partial"] is True
    assert a["flowWindows"]["24h"]["toExclusive"] == iso(market.data.window_end)
    assert a["flowWindows"]["30d"]["complete"] is False
    mcap = 2.0 * SUPPLY_RAW / 1e18
    ratios = data["ratios"]
    assert ratios["marketCapToTvl"] == pytest.approx(mcap / 1_000_000.0)
    assert ratios["marketCapToLiquidity"] == pytest.approx(mcap / 1000.0)
    assert ratios["feesAnnualizedToMarketCap"] == pytest.approx(1000.0 * 365 / mcap)
    assert ratios["volume24hToLiquidity"] == pytest.approx(0.5)
    assert [(p["snapshotAt"], p["priceUsd"]) for p in data["priceHistory"]] == [
        (iso(latest - QUARTER_HOUR), 1.9), (iso(latest), 2.0)]
    daily = data["daily"]
    assert len(daily) == 90 and daily[-1]["partial"] is True and not any(d["partial"] for d in daily[:-1])
    assert daily[-1]["volumeUsd"] == 10.0  # only P1 has a row today
    assert daily[-3]["volumeUsd"] == pytest.approx(240.0 + 60.0)  # P1 + P5; P2 holds no CORE
    assert daily[-2]["volumeUsd"] is None


# ------------------------------------------------------------------------------ competitors


def test_competitors(market):
    r = market.get("/api/stats/competitors")
    assert r.json()["data"] == {"available": False}
    assert "s-maxage=300," in r.headers["cache-control"]
    assert market.get("/api/stats/competitors/usdt-wbnb").json()["data"] == {"pair": "usdt-wbnb", "recognised": True, "available": False}
    assert market.get("/api/stats/competitors/wbnb-core").json()["data"]["recognised"] is True
    assert market.get("/api/stats/competitors/core-doge").json()["data"]["recognised"] is False
    for bad in ("usdt", "usdt-wbnb-core", "usdt_wbnb", "-wbnb"):
        assert error_code(market.get(f"/api/stats/competitors/{bad}")) == "invalid_pair"


# ------------------------------------------------------------------------------ live


def _devnet_fees(devnet) -> dict[str, int]:
    sim = devnet.sim(56)
    now = sim.block_ts(sim.head())
    return {p.id: p.fee_at(now) for p in sim.pools if p.is_cl and p.exists_at(now)}


def test_live_dynamic_fees_equal_the_devnet(market):
    r = market.get("/api/stats/live/dynamic-fees")
    assert r.status_code == 200, r.text
    assert r.headers["cache-control"] == "public, max-age=0, s-maxage=15, stale-while-revalidate=30"
    assert "etag" not in r.headers
    body = r.json()
    assert body["meta"]["source"] == ["chain-rpc"] and "snapshotAt" not in body["meta"]
    data = body["data"]
    sim = market.devnet.sim(56)
    assert data["blockNumber"] == sim.head()
    fees = _devnet_fees(market.devnet)
    pools = {p["address"]: p for p in data["pools"]}
    assert set(pools) == set(fees)
    for address, pool in pools.items():
        spec = sim.pool_by_id[address].spec
        assert pool["feePips"] == pool["moduleFeePips"] == fees[address]
        assert pool["isDynamicFee"] is (spec.dynamic_fee is not None)
        assert pool["isCustomFee"] is (spec.custom_fee is not None)
        if spec.dynamic_fee is not None:
            assert pool["dynamicFeeConfig"] == dict(zip(("baseFeePips", "feeCapPips", "scalingFactor"), spec.dynamic_fee))
        if spec.custom_fee is not None:
            assert pool["customFeePips"] == spec.custom_fee == fees[address]
    assert any(p["isDynamicFee"] for p in pools.values()) and any(p["isCustomFee"] for p in pools.values())


def test_live_rpc_failure_is_500_and_the_snapshot_route_still_answers(market):
    market.fault("error")
    try:
        r = market.get("/api/stats/live/dynamic-fees")
        assert error_code(r, 500) == "live_dynamic_fees_failed"
        assert r.json()["meta"]["source"] == ["chain-rpc"] and r.headers["cache-control"] == "no-store"
        assert "127.0.0.1" not in r.text
        assert market.get("/api/stats/dynamic-fees").status_code == 200
    finally:
        market.fault("ok")
    assert market.get("/api/stats/live/dynamic-fees").status_code == 200


def test_live_reads_are_cached_briefly_server_side(fresh):
    """The fresh scenario runs with the default server-side cache (15 s): a second read is the first."""
    first = fresh.get("/api/stats/live/dynamic-fees").json()
    second = fresh.get("/api/stats/live/dynamic-fees").json()
    assert first["data"]["readAt"] == second["data"]["readAt"]
    assert error_code(fresh.get("/api/stats/live/dynamic-fees?x=1")) == "unknown_parameter"
