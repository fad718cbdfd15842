"""/v1/pools/{chainId}/{poolAddress}/history and /daily over the session's backfilled chains,
against the devnet's model of every pool: per period the swaps' volume, fees and transactions
(the hour rows), and `historicalState`, the pool's state at the period's close (raw holdings,
sqrt price, tick, active liquidity, marginal price), valued with the tokens' prices at the last
block of the closing hour; a period in which the pool recorded no transaction is `carried`, one
before the pool existed has no state and says so; errors answer as the contract says (every
response is checked against /openapi.json)."""
from __future__ import annotations

import calendar
import math
import time
from fractions import Fraction

import httpx
import pytest

from orchestration_session import CHAINS
from session_api import v1_server
from support.contract_check import CheckedClient

from ve_analytics.core.epochs import DAY, HOUR

REL = 1e-9


@pytest.fixture(scope="module")
def api(stack, tmp_path_factory):
    with v1_server(stack, tmp_path_factory.mktemp("v1-pool-history")) as server, httpx.Client(timeout=60) as http:
        yield CheckedClient(server.url, http)


@pytest.fixture(scope="module")
def pools(api) -> list[dict]:
    body = api.get("/v1/pools?scope=all&curated=all&limit=500").json()
    assert body["pageInfo"]["hasNextPage"] is False
    return body["data"]["rows"]


def unix(text: str) -> int:
    return calendar.timegm(time.strptime(text, "%Y-%m-%dT%H:%M:%SZ"))


def close(a: float, b: float) -> bool:
    return abs(a - b) <= REL * max(abs(b), 1.0)


def check_period(period: dict, pool, sim, counts: dict) -> None:
    """One period against the model: flows from the pool's hour rows, the state at its close."""
    start, stop = unix(period["from"]), unix(period["toExclusive"])
    hours = [h for h in pool.hours if start <= h["periodStartUnix"] < stop]
    assert period["complete"] and period["hoursCovered"] == period["hoursExpected"] == (stop - start) // HOUR
    assert close(float(period["volumeUsd"]), math.fsum(h["volumeUSD"] for h in hours))
    assert close(float(period["feesUsd"]), math.fsum(h["feesUSD"] for h in hours))
    assert period["txCount"] == sum(h["txCount"] for h in hours)
    truth = pool.state_at(stop - 1)  # after every event before the period's close
    state = period["historicalState"]
    if truth is None:
        assert state is None and period["stateGap"] == "before_pool_created"
        counts["before"] += 1
        return
    assert period["stateGap"] is None and state is not None
    assert unix(state["valuedAt"]) == stop
    assert unix(state["bucketHour"]) == stop - HOUR  # the devnet writes hour data every hour
    activity = "changed" if sum(h["txCount"] for h in hours) else "carried"
    assert state["activity"] == activity
    counts[activity] += 1
    leg0, leg1 = state["holdings"]
    assert (leg0["token"], leg1["token"]) == (pool.token0.id, pool.token1.id)
    assert (leg0["amountRaw"], leg1["amountRaw"]) == (str(truth.reserve0), str(truth.reserve1))
    if pool.is_cl:
        assert (state["sqrtPriceX96"], state["tick"], state["activeLiquidityRaw"]) == (
            str(truth.sqrt_price), truth.tick, str(truth.liquidity))
    else:
        assert (state["sqrtPriceX96"], state["tick"], state["activeLiquidityRaw"]) == (None, None, None)
    assert close(float(state["marginalPrices"]["token1PerToken0"]), pool.price1_per_0(truth))
    values = []
    for leg, token, raw in ((leg0, pool.token0, truth.reserve0), (leg1, pool.token1, truth.reserve1)):
        price = sim.price(token, stop - sim.block_time)  # TokenHourData: the hour's last block
        assert close(float(leg["priceUsd"]), price) and leg["priceSource"] == "historical-valuation"
        values.append(Fraction(raw, token.unit) * Fraction(price))
        assert close(float(leg["valueUsd"]), float(values[-1]))
    assert state["usdComplete"] and close(float(state["valueUsd"]), float(sum(values)))


def test_hourly_periods_are_the_devnets_hours(api, stack, pools):
    counts = {"changed": 0, "carried": 0, "before": 0}
    for row in pools:
        cid = row["chainId"]
        sim = stack.devnet.sim(cid)
        r = api.get(f"/v1/pools/{cid}/{row['address']}/history?scope=all&days=2")
        assert r.status_code == 200, r.text
        data = r.json()["data"]
        anchor = unix(data["anchorAt"])
        assert data["periodSeconds"] == HOUR and len(data["periods"]) == 48
        assert [unix(p["toExclusive"]) for p in data["periods"]] == list(range(anchor - 47 * HOUR, anchor + 1, HOUR))
        for period in data["periods"]:
            check_period(period, sim.pool(row["address"]), sim, counts)
    assert counts["changed"] and counts["carried"], counts  # quiet pools leave hours without a transaction
    assert {r["chainId"] for r in pools} == set(CHAINS)


def test_a_young_pool_has_no_state_before_it_existed(api, stack, pools):
    """Each chain's youngest pool, over hours from before its creation (after the chain's first)."""
    counts = {"changed": 0, "carried": 0, "before": 0}
    for cid in CHAINS:
        sim = stack.devnet.sim(cid)
        listed = {r["address"] for r in pools if r["chainId"] == cid}
        young = max((p for p in sim.pools if p.id in listed), key=lambda p: p.created_ts)
        assert young.created_ts > min(p.created_ts for p in sim.pools)
        data = api.get(f"/v1/pools/{cid}/{young.id}/history?scope=all&days=1").json()["data"]
        days = -(-(unix(data["anchorAt"]) - young.created_ts + 3 * HOUR) // DAY)
        data = api.get(f"/v1/pools/{cid}/{young.id}/history?scope=all&days={days}").json()["data"]
        first = unix(data["firstMarketActivityHour"])
        for period in data["periods"]:
            if unix(period["from"]) >= first:
                check_period(period, young, sim, counts)
    assert counts["before"] >= 3 * len(CHAINS) and counts["changed"], counts


def test_the_newest_hour_closes_with_the_state_at_its_last_block(api, stack, pools):
    """The devnet's truth over HTTP (truth/state at the hour's last block), pool by pool."""
    for cid in CHAINS:
        sim = stack.devnet.sim(cid)
        chain_pools = [r for r in pools if r["chainId"] == cid]
        truth = None
        for row in chain_pools:
            last = api.get(f"/v1/pools/{cid}/{row['address']}/history?scope=all&days=1").json()["data"]["periods"][-1]
            stop = unix(last["toExclusive"])
            if truth is None:
                truth = stack.truth("state", cid, block=sim.block_at(stop - 1))
                assert truth["timestamp"] == stop - sim.block_time
            pool, state = truth["pools"][row["address"]], last["historicalState"]
            assert [h["amountRaw"] for h in state["holdings"]] == [pool["reserve0"], pool["reserve1"]]
            assert (state["sqrtPriceX96"], state["tick"], state["activeLiquidityRaw"]) == (
                pool["sqrtPriceX96"], pool["tick"], pool["liquidity"])


def test_utc_days_clip_the_running_one(api, stack, pools):
    counts = {"changed": 0, "carried": 0, "before": 0}
    for row in pools:
        cid = row["chainId"]
        sim = stack.devnet.sim(cid)
        data = api.get(f"/v1/pools/{cid}/{row['address']}/daily?scope=all&days=3&alignment=utc").json()["data"]
        anchor = unix(data["anchorAt"])
        first = unix(data["firstMarketActivityHour"])
        periods = data["periods"]
        ends = [unix(p["from"]) + DAY for p in periods]
        assert ends[-1] == -(-anchor // DAY) * DAY and ends == [ends[-1] - (2 - i) * DAY for i in range(3)]
        last = periods[-1]
        assert unix(last["toExclusive"]) == anchor and last["partial"] is (anchor % DAY != 0)
        for period in periods:
            if unix(period["toExclusive"]) <= first:  # a young chain: the day precedes its market
                assert period["gap"] == "before_first_market_activity" and period["volumeUsd"] is None
                assert period["historicalState"] is None and period["stateGap"] == "before_pool_created"
                continue
            if unix(period["from"]) < first:
                continue  # its hours before the market are not expected: checked hour by hour above
            check_period(period, sim.pool(row["address"]), sim, counts)
    assert counts["changed"], counts


def test_errors_have_their_own_codes(api, pools):
    row = pools[0]
    base = f"/v1/pools/{row['chainId']}/{row['address']}"
    cases = {
        f"{base}/history?days=91": (400, "invalid_days"),
        f"{base}/daily?days=0": (400, "invalid_days"),
        f"{base}/daily?alignment=calendar": (400, "invalid_alignment"),
        f"/v1/pools/{row['chainId']}/0x{'ab' * 20}/history?scope=all": (404, "pool_not_found"),
        f"/v1/pools/999/{row['address']}/daily": (404, "chain_not_public"),
        f"/v1/pools/{row['chainId']}/0x12/history": (400, "invalid_pool_address"),
    }
    for path, (status, code) in cases.items():
        r = api.get(path)
        assert (r.status_code, r.json()["error"]["code"]) == (status, code), (path, r.text)
    first = api.get(f"{base}/history?scope=all")
    assert first.headers["etag"] and api.get(f"{base}/history?scope=all",
                                              headers={"If-None-Match": first.headers["etag"]}).status_code == 304
    head = api.http.head(f"{api.url}{base}/daily?scope=all")
    assert head.status_code == 200 and head.content == b"" and head.headers["etag"]
