"""Market numbers served by the API (pools, tokens, core token, dynamic fees) against the devnet's
independent ground truth (truth/flows, truth/state, deployment)."""
from __future__ import annotations

import math
from datetime import datetime

import httpx
import pytest

from ve_analytics.core.epochs import DAY, HOUR

REL = 1e-9


def unix(text: str) -> int:
    return int(datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp())


def close(a: float, b: float, rel: float = REL) -> bool:
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-12)


@pytest.fixture(scope="module")
def market(fresh):
    """Everything of the latest snapshot the tests compare: pools, the block, truth at that block."""
    protocol = fresh.get("/api/stats/protocol").json()
    r = fresh.get("/api/stats/pools?limit=500")
    assert r.status_code == 200
    body = r.json()
    assert body["meta"]["snapshotAt"] == protocol["meta"]["snapshotAt"]
    block = protocol["data"]["blockNumber"]
    return {
        "pools": body["data"],
        "block": block,
        "state": fresh.truth("state", block=block),
        "deployment": httpx.get(f"{fresh.devnet_url}/chains/56/deployment", timeout=30).json(),
    }


def test_every_pool_is_listed_with_its_tvl_at_the_snapshot_block(market):
    pools = {p["address"]: p for p in market["pools"]}
    truth = market["state"]["pools"]
    assert set(pools) == set(truth)
    for address, pool in pools.items():
        assert close(pool["tvlUsd"], truth[address]["tvlUsd"]), (address, pool["tvlUsd"], truth[address])
        assert pool["type"] == truth[address]["type"]
        assert pool["version"] == ("v3" if pool["type"] == "cl" else "v2")
        assert pool["feePips"] == truth[address]["fee"]
        if pool["tvlUsd"]:
            assert close(pool["feeApr"], pool["fees24hUsd"] * 365 / pool["tvlUsd"])


def test_pool_24h_volume_and_fees_equal_ground_truth_over_the_flow_window(fresh, market):
    checked = 0
    for pool in market["pools"]:
        window = pool["flowWindow"]
        assert window is not None and window["durationSeconds"] == DAY
        start, end = unix(window["from"]), unix(window["toExclusive"])
        truth = fresh.truth("flows", **{"from": start, "to": end, "pool": pool["address"]})
        if window["hoursCovered"] == 0:  # a pool created inside the window has no bucket before it
            assert pool["volume24hUsd"] is None
            continue
        assert close(pool["volume24hUsd"], truth["volumeUsd"]), (pool["address"], pool["volume24hUsd"], truth)
        assert close(pool["fees24hUsd"], truth["feesUsd"]), (pool["address"], pool["fees24hUsd"], truth)
        checked += truth["swapCount"] > 0
    assert checked >= 5


def test_sorts_follow_the_served_numbers(fresh, market):
    for sort, key in (("tvl", "tvlUsd"), ("volume24h", "volume24hUsd"), ("fees24h", "fees24hUsd"), ("apr", "feeApr")):
        data = fresh.get(f"/api/stats/pools?limit=500&sort={sort}").json()["data"]
        values = [p[key] for p in data]
        known = [v for v in values if v is not None]
        assert known == sorted(known, reverse=True) and values[: len(known)] == known, sort
    assert [p["address"] for p in fresh.get("/api/stats/pools?limit=3").json()["data"]] == [
        p["address"] for p in sorted(market["pools"], key=lambda p: -p["tvlUsd"])[:3]]


def test_filters_against_the_deployment(fresh, market):
    deployment = market["deployment"]
    symbols = {t["address"].lower(): t["symbol"] for t in deployment["tokens"]}
    served = {p["address"]: p for p in market["pools"]}
    created = {p["address"].lower(): p for p in deployment["pools"] if p["address"].lower() in served}

    def listed(query: str) -> set[str]:
        r = fresh.get(f"/api/stats/pools?limit=500&{query}")
        assert r.status_code == 200, r.text
        return {p["address"] for p in r.json()["data"]}

    pair = {a for a, p in created.items() if {symbols[p["token0"].lower()], symbols[p["token1"].lower()]} == {"WBNB", "USDT"}}
    assert len(pair) == 2  # a v2 and a CL pool
    assert listed("pair=wbnb-usdt") == listed("pair=USDT-WBNB") == pair
    wbnb = next(a for a, s in symbols.items() if s == "WBNB")
    on_either_side = {a for a, p in created.items() if wbnb in (p["token0"].lower(), p["token1"].lower())}
    assert listed(f"token={wbnb}") == listed(f"token=0x{wbnb[2:].upper()}") == on_either_side
    assert listed("type=v3") == {a for a, p in created.items() if p["type"] == "cl"}
    assert listed("type=v2") == {a for a, p in created.items() if p["type"] != "cl"}
    threshold = sorted(p["tvlUsd"] for p in served.values())[len(served) // 2]
    assert listed(f"minTvl={threshold}") == {a for a, p in served.items() if p["tvlUsd"] >= threshold}
    incentivized = listed("incentivized=true")
    assert incentivized == {a for a, p in served.items() if p["incentivized"]}
    assert incentivized and all(served[a]["gauge"]["isAlive"] for a in incentivized)
    assert not any(created[a]["gauge"] is None for a in incentivized)
    assert listed("incentivized=false") == set(served) - incentivized
    assert len(fresh.get("/api/stats/pools?limit=1").json()["data"]) == 1
    assert fresh.get("/api/stats/pools?limit=0").status_code == 400
    assert fresh.get("/api/stats/pools?limit=501").status_code == 400


def test_pool_detail_and_daily(fresh, market):
    pool = market["pools"][0]
    detail = fresh.get(f"/api/stats/pools/{pool['address'].upper().replace('0X', '0x')}").json()["data"]
    assert detail["current"] == pool
    times = [unix(h["snapshotAt"]) for h in detail["history"]]
    assert times == sorted(times) and len(times) <= 672 and detail["history"][-1]["tvlUsd"] == pool["tvlUsd"]
    rows = fresh.get(f"/api/stats/pools/{pool['address']}/daily?days=3").json()["data"]
    assert [r["partial"] for r in rows] == [False, False, True]
    for row in rows[:-1]:
        start = unix(row["date"] + "T00:00:00Z")
        truth = fresh.truth("flows", **{"from": start, "to": start + DAY, "pool": pool["address"]})
        assert close(row["volumeUsd"], truth["volumeUsd"]) and close(row["feesUsd"], truth["feesUsd"])


def test_token_prices_equal_ground_truth(fresh, market):
    tokens = fresh.get("/api/stats/tokens?limit=500").json()["data"]
    truth = market["state"]["tokens"]
    in_pools = {t for p in market["pools"] for t in (p["token0"]["address"], p["token1"]["address"])}
    assert {t["address"] for t in tokens} == in_pools
    prices = [t["priceUsd"] for t in tokens]
    assert prices == sorted(prices, reverse=True)
    for token in tokens:
        assert close(token["priceUsd"], truth[token["address"]]["priceUsd"]), (token, truth[token["address"]])
        assert token["symbol"] == truth[token["address"]]["symbol"]
    detail = fresh.get(f"/api/stats/tokens/{tokens[0]['address']}").json()["data"]
    assert detail["current"] == tokens[0] and detail["history"][-1]["priceUsd"] == tokens[0]["priceUsd"]


def test_core_factsheet_equals_ground_truth(fresh, market):
    data = fresh.get("/api/stats/core").json()["data"]
    state = market["state"]
    assert data["blockNumber"] == market["block"]
    assert close(data["price"]["usd"], state["corePriceUsd"])
    assert data["supply"]["totalSupplyRaw"] == state["coreTotalSupply"]
    assert close(data["marketCapUsd"], state["corePriceUsd"] * int(state["coreTotalSupply"]) / 1e18, 1e-12)
    core = data["token"]["address"]
    core_pools = [p for p in market["pools"] if core in (p["token0"]["address"], p["token1"]["address"])]
    assert data["liquidity"]["poolCount"] == len(core_pools) >= 2
    assert close(data["liquidity"]["tvlUsd"], math.fsum(state["pools"][p["address"]]["tvlUsd"] for p in core_pools))
    assert data["price"]["referencePool"] == max(core_pools, key=lambda p: p["tvlUsd"])["address"]
    assert close(data["activity"]["lifetimeVolumeUsd"], math.fsum(state["pools"][p["address"]]["volumeUsd"] for p in core_pools))
    activity = data["activity"]
    end = unix(activity["flowWindows"]["24h"]["toExclusive"])
    for label, seconds, key in (("24h", DAY, "volume24hUsd"), ("7d", 7 * DAY, "volume7dUsd"), ("30d", 30 * DAY, "volume30dUsd")):
        assert activity["flowWindows"][label]["complete"] is True
        truth = math.fsum(fresh.truth("flows", **{"from": end - seconds, "to": end, "pool": p["address"]})["volumeUsd"]
                          for p in core_pools)
        assert close(activity[key], truth), (label, activity[key], truth)
    day_start = unix(data["snapshotAt"]) // DAY * DAY
    if end > day_start:
        truth = math.fsum(fresh.truth("flows", **{"from": day_start, "to": end, "pool": p["address"]})["volumeUsd"]
                          for p in core_pools)
        assert close(activity["utcDay"]["volumeUsd"], truth)
        assert activity["utcDay"]["hoursCovered"] == (end - day_start) // HOUR
    assert close(data["ratios"]["marketCapToLiquidity"], data["marketCapUsd"] / data["liquidity"]["tvlUsd"])
    assert data["priceHistory"][-1]["priceUsd"] == data["price"]["usd"]
    assert len(data["daily"]) == 90 and data["daily"][-1]["partial"] is True


def test_live_rpc_fault_is_500_while_the_snapshot_route_answers(fresh):
    """Runs before any other live read of this suite, so no cached read can answer instead."""
    fresh.fault("rpc", "error")
    try:
        r = fresh.get("/api/stats/live/dynamic-fees")
        assert r.status_code == 500 and r.json()["error"]["code"] == "live_dynamic_fees_failed"
        snapshot = fresh.get("/api/stats/dynamic-fees")
        assert snapshot.status_code == 200 and snapshot.json()["data"]
    finally:
        fresh.fault("rpc", "ok")


def test_live_dynamic_fees_equal_the_devnet_now(fresh, market):
    r = fresh.get("/api/stats/live/dynamic-fees")
    assert r.status_code == 200, r.text
    assert r.headers["cache-control"] == "public, max-age=0, s-maxage=15, stale-while-revalidate=30"
    data = r.json()["data"]
    truth = fresh.truth("state", block=data["blockNumber"])
    cl = {a: p for a, p in truth["pools"].items() if p["type"] == "cl"}
    pools = {p["address"]: p for p in data["pools"]}
    assert set(pools) == set(cl)
    for address, pool in pools.items():
        assert pool["feePips"] == pool["moduleFeePips"] == cl[address]["fee"]
    flags = {p["address"].lower(): p for p in market["deployment"]["pools"]}
    for address, pool in pools.items():
        assert pool["isDynamicFee"] is flags[address]["isDynamicFee"]
        assert pool["isCustomFee"] is flags[address]["isCustomFee"]


def test_snapshot_dynamic_fees_equal_ground_truth(fresh, market):
    data = fresh.get("/api/stats/dynamic-fees").json()["data"]
    flags = {p["address"].lower(): p for p in market["deployment"]["pools"]}
    expected = {a for a, p in flags.items() if p["type"] == "cl" and (p["isDynamicFee"] or p["isCustomFee"])}
    assert {p["address"] for p in data} == expected
    for pool in data:
        assert pool["feePips"] == market["state"]["pools"][pool["address"]]["fee"]
