"""/v1/pools/{chainId}/{poolAddress} over the session's backfilled chains with the repository's
curation published, against an independent computation: every pool's detail holds its /v1/pools
row value for value (under each aprProfile); its holdings are the devnet's reserves at the
snapshot block, each leg valued at the token's price there; its marginal prices are the model's
pool price both ways; a concentrated-liquidity pool's scenario range is the profile's range
computed here from the model's tick (the standard one the row's emissionsRange). Scope, curation
status and errors answer as the contract says; every response is checked against /openapi.json."""
from __future__ import annotations

from decimal import Decimal, localcontext
from fractions import Fraction

import httpx
import pytest

from cl_truth import ranges
from orchestration_session import CHAINS, LAGGING, NO_CL
from session_api import v1_server
from support.contract_check import CheckedClient

REL = 1e-9
PROFILES = ("minimum", "five-spacing", "standard")


@pytest.fixture(scope="module")
def api(stack, tmp_path_factory):
    with v1_server(stack, tmp_path_factory.mktemp("v1-pool-detail")) as server, httpx.Client(timeout=60) as http:
        yield CheckedClient(server.url, http)


def close(a: str | None, b: float) -> bool:
    return a is not None and abs(float(a) - b) <= REL * max(abs(b), 1e-12)


def truncated(q: Fraction) -> str:
    """q as a decimal truncated toward zero at 36 places, written here with Decimal."""
    with localcontext() as c:
        c.prec = 200
        d = (Decimal(q.numerator) / Decimal(q.denominator)).quantize(Decimal(1).scaleb(-36), rounding="ROUND_DOWN")
    return format(d.normalize(), "f")


def pools(api, profile: str = "standard") -> list[dict]:
    body = api.get(f"/v1/pools?scope=all&curated=all&limit=500&aprProfile={profile}").json()
    assert body["pageInfo"]["hasNextPage"] is False
    return body["data"]["rows"]


def detail(api, row: dict, **query) -> dict:
    q = "&".join(f"{k}={v}" for k, v in {"scope": "all", **query}.items())
    r = api.get(f"/v1/pools/{row['chainId']}/{row['address']}?{q}")
    assert r.status_code == 200, r.text
    return r.json()["data"]


def test_the_detail_holds_its_discovery_row_value_for_value_under_every_profile(api):
    for profile in PROFILES:
        rows = pools(api, profile)
        assert {r["chainId"] for r in rows} == set(CHAINS)
        for row in rows:
            data = detail(api, row, aprProfile=profile)
            assert {k: data[k] for k in row} == row, (profile, row["chainId"], row["address"])
            assert data["emissionsScenario"]["aprProfile"] == profile
            assert data["emissionsScenario"]["emissionsApr"] == row["emissionsApr"]


def test_holdings_prices_and_marginal_prices_equal_the_model_at_the_snapshot_block(api, stack):
    checked = {"cl": 0, "v2-volatile": 0, "v2-stable": 0}
    for row in pools(api):
        cid = row["chainId"]
        data = detail(api, row)
        state = data["liquidityState"]
        block = data["blockNumber"]
        assert state["custody"] == {"source": "subgraph", "entity": "Pool", "fields": ["reserve0", "reserve1"],
                                    "blockNumber": block, "blockTimestamp": state["custody"]["blockTimestamp"]}
        truth = stack.truth("state", cid, block=block)
        pool = truth["pools"][row["address"]]
        values = []
        for leg, side, raw in zip(state["holdings"], (row["token0"], row["token1"]), (pool["reserve0"], pool["reserve1"])):
            assert leg["token"] == side["address"] and leg["amountRaw"] == raw
            assert leg["amount"] == truncated(Fraction(int(raw), 10 ** side["decimals"]))
            price = truth["tokens"][side["address"]]["priceUsd"]
            assert close(leg["price"]["priceUsd"], price) and leg["priceReason"] is None
            assert leg["price"]["canonical"] == {"snapshotAt": data["snapshotAt"], "blockNumber": block}
            value = Fraction(int(raw), 10 ** side["decimals"]) * Fraction(Decimal(leg["price"]["priceUsd"]))
            assert close(leg["valueUsd"], float(value))
            values.append(float(value))
        assert state["usdComplete"] is True and close(state["valueUsd"], sum(values))
        assert close(state["valueUsd"], pool["tvlUsd"])  # the legs at the snapshot's prices are the pool's TVL
        sim = stack.devnet.sim(cid)
        ts = sim.block_ts(block)
        model = next(p for p in sim.pools_at(ts) if p.id == row["address"])
        st = model.state_at(ts)
        expected = model.price1_per_0(st)
        prices = state["marginalPrices"]
        assert close(prices["token1PerToken0"], expected) and close(prices["token0PerToken1"], 1 / expected)
        assert prices["derivedFrom"] == ("sqrtPriceX96" if model.is_cl else "reserves")
        if model.is_cl:
            assert (state["sqrtPriceX96"], state["tick"], state["activeLiquidityRaw"]) == (
                str(st.sqrt_price), st.tick, str(st.liquidity))
        else:
            assert (state["sqrtPriceX96"], state["tick"], state["activeLiquidityRaw"]) == (None, None, None)
        checked[row["poolType"]] += 1
    assert all(checked.values()), checked


def test_a_cl_scenario_range_is_the_profiles_range_around_the_models_tick(api, stack):
    seen = with_gauge = 0
    for row in (r for r in pools(api) if r["poolType"] == "cl"):
        for profile in PROFILES:
            data = detail(api, row, aprProfile=profile)
            scenario = data["emissionsScenario"]
            sim = stack.devnet.sim(row["chainId"])
            ts = sim.block_ts(data["blockNumber"])
            model = next(p for p in sim.pools_at(ts) if p.id == row["address"])
            tick = model.state_at(ts).tick
            lower, upper = ranges(tick, model.tick_spacing)[profile]
            got = scenario["range"]
            assert (got["tickLower"], got["tickUpper"], got["widthTicks"], got["currentTick"]) == (lower, upper, upper - lower, tick)
            assert got["widthSpacings"] * model.tick_spacing == upper - lower and got["inRange"] is (lower <= tick < upper)
            unit = 10 ** (model.token0.decimals - model.token1.decimals)
            assert close(got["priceLower"], 1.0001 ** lower * unit) and close(got["priceUpper"], 1.0001 ** upper * unit)
            assert (scenario["basis"], scenario["depositUsd"]) == ("cl-range-deposit", "100")
            if profile == "standard" and row["emissionsRange"] is not None:  # stored with the pool's gauge row
                assert row["emissionsRange"] == {"tickLower": lower, "tickUpper": upper, "widthTicks": upper - lower}
                with_gauge += 1
            seen += 1
    assert seen and with_gauge


def test_a_v2_scenario_is_the_staked_lp_value_whatever_the_profile(api):
    row = next(r for r in pools(api) if r["poolType"] != "cl")
    for profile in PROFILES:
        scenario = detail(api, row, aprProfile=profile)["emissionsScenario"]
        assert scenario == {"aprProfile": profile, "basis": "v2-staked-lp", "depositUsd": None,
                            "emissionsApr": row["emissionsApr"], "range": None, "inRangeLiquidityRaw": None}


def test_scope_and_curation_status(api):
    every = pools(api)
    uncurated = next(r for r in every if not r["curated"])
    path = f"/v1/pools/{uncurated['chainId']}/{uncurated['address']}"
    refused = api.get(path)  # scope=curated by default
    assert refused.status_code == 404 and refused.json()["error"]["code"] == "pool_not_found"
    assert "scope=all" in refused.json()["error"]["message"]
    assert api.get(path + "?scope=all").json()["data"]["curated"] is False
    mixed = f"/v1/pools/{uncurated['chainId']}/0x{uncurated['address'][2:].upper()}?scope=all"
    assert api.get(mixed).json()["data"]["address"] == uncurated["address"]  # either case, answered in lower case
    hidden = api.get("/v1/pools?status=hidden&limit=500").json()["data"]["rows"]
    assert hidden, "the session's curation hides a pool"
    for row in hidden:
        data = api.get(f"/v1/pools/{row['chainId']}/{row['address']}").json()["data"]
        assert data["status"] == "hidden" and data["curated"] is True


def test_errors_have_their_own_codes(api):
    row = pools(api)[0]
    cases = {
        f"/v1/pools/{row['chainId']}/0x{'1' * 40}": (404, "pool_not_found"),
        f"/v1/pools/{row['chainId']}/0x123": (400, "invalid_pool_address"),
        f"/v1/pools/0/{row['address']}": (400, "invalid_chain_id"),
        f"/v1/pools/{row['chainId']}/{row['address']}?aprProfile=widest": (400, "invalid_apr_profile"),
        f"/v1/pools/{row['chainId']}/{row['address']}?scope=some": (400, "invalid_scope"),
        f"/v1/pools/999/{row['address']}": (404, "chain_not_public"),
    }
    for path, (status, code) in cases.items():
        r = api.get(path)
        assert (r.status_code, r.json()["error"]["code"]) == (status, code), path


def test_etag_head_and_the_chain_it_rests_on(api):
    row = next(r for r in pools(api) if r["chainId"] == LAGGING)
    path = f"/v1/pools/{row['chainId']}/{row['address']}?scope=all"
    r = api.get(path)
    meta = r.json()["meta"]
    assert meta["chainIds"] == [LAGGING] and meta["chains"][0]["state"] == "stale" and meta["complete"] is False
    assert api.get(path, headers={"If-None-Match": r.headers["etag"]}).status_code == 304
    head = api.http.head(api.url + path)
    assert head.status_code == 200 and head.headers["etag"] == r.headers["etag"] and not head.content
    assert r.headers["cache-control"].startswith("public")
    assert not any(p["poolType"] == "cl" for p in pools(api) if p["chainId"] == NO_CL)
