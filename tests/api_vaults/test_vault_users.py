"""History and user routes of /api/v1 on a warehouse filled by the real Dagster pipeline
(users_stack), against the devnet's ground truth and subgraph at the block the API read.

Prices: the API values positions with the latest published snapshot's token prices (/tokens),
the truth with the simulation's prices at the block, up to 15 minutes later. So shares, amounts,
deposited and withdrawn USD (each valued at its own time, the same numbers on both sides) are
compared exactly; valueUsd and pnlUsd exactly against the truth's amounts at the API's prices,
and valueUsd against the truth's own valuation within 5 % (the price move over <= 15 minutes).
"""
from __future__ import annotations

import math
from decimal import Decimal

import pytest

from ve_analytics.core.epochs import DAY, HOUR
from ve_analytics.readers.graphql import SubgraphClient
from users_stack import users_stack  # noqa: F401 - the module's fixture

USERS = 6
STRANGER = "0x00000000000000000000000000000000000b0b00"
PERIOD_FIELDS = ("periodStartUnix vault { id token0 { decimals } token1 { decimals } } totalSupply amount0 amount1 "
                 "tvlUSD sharePriceUSD harvestedUSD apr")


def ok(api, path, **params):
    r = api.get(path, params=params)
    assert r.status_code == 200, r.text
    return r.json()


def prices(api) -> dict[str, float]:
    return {t["address"].lower(): t["priceUsd"] for t in ok(api, "/tokens")["data"]}


def expected_value(position: dict, truth: dict, price: dict[str, float]) -> float:
    return (int(truth["amount0"]) / 10 ** position["token0"]["decimals"] * price[position["token0"]["address"].lower()]
            + int(truth["amount1"]) / 10 ** position["token1"]["decimals"] * price[position["token1"]["address"].lower()])


def active_users(stack, block: int) -> list[str]:
    users = [u["user"] for u in stack.truth("vault-users", block=block)["users"] if u["openPositions"]]
    assert len(users) >= USERS
    return users[:USERS]


def test_positions_equal_truth(users_stack):
    api = users_stack.api
    price = prices(api)
    block = ok(api, "/vaults")["meta"]["indexedBlock"]
    for user in active_users(users_stack, block):
        body = ok(api, f"/users/{user}/positions")
        assert body["meta"]["indexedBlock"] == block and body["meta"]["degraded"] is False
        data = body["data"]
        assert data["address"].lower() == user
        truth = {p["vault"].lower(): p for p in users_stack.truth("vault-positions", user=user, block=block)["positions"]
                 if int(p["shares"]) > 0}
        assert {p["vault"]["address"].lower() for p in data["positions"]} == set(truth)
        for p in data["positions"]:
            t = truth[p["vault"]["address"].lower()]
            assert p["vault"]["key"] == t["key"]
            assert (p["sharesRaw"], p["amount0Raw"], p["amount1Raw"]) == (t["shares"], t["amount0"], t["amount1"])
            assert p["indexedNetSharesRaw"] == t["shares"] and p["interactions"] == len(t["interactions"])
            assert p["depositedUsd"] == t["depositedUsd"] and p["withdrawnUsd"] == t["withdrawnUsd"]
            value = expected_value(p, t, price)
            assert p["valueUsd"] == pytest.approx(value, rel=1e-12)
            assert p["valueUsd"] == pytest.approx(t["valueUsd"], rel=0.05)
            assert p["pnlComplete"] is True
            assert p["pnlUsd"] == pytest.approx(value + t["withdrawnUsd"] - t["depositedUsd"], rel=1e-12, abs=1e-9)
        assert data["totals"] == {"usd": math.fsum(p["valueUsd"] for p in data["positions"]), "usdComplete": True}
        assert data["totalPnlUsd"] == math.fsum(p["pnlUsd"] for p in data["positions"]) and data["pnlComplete"] is True
    assert r_cache(api, f"/users/{user}/positions").startswith("public, max-age=0, s-maxage=10,")


def r_cache(api, path: str) -> str:
    return api.get(path).headers["cache-control"]


def test_user_vault_history_equals_truth_interactions(users_stack):
    api = users_stack.api
    block = ok(api, "/vaults")["meta"]["indexedBlock"]
    users = [u["user"] for u in users_stack.truth("vault-users", block=block)["users"]]
    for user in users[:3]:
        for t in users_stack.truth("vault-positions", user=user, block=block)["positions"]:
            mixed = "0x" + user[2:].upper()
            body = ok(api, f"/users/{mixed}/vaults/{t['key']}")
            d = body["data"]
            assert body["meta"]["indexedBlock"] == block
            assert d["address"].lower() == user and d["sharesRaw"] == t["shares"]
            assert (d["amount0Raw"], d["amount1Raw"]) == (t["amount0"], t["amount1"])
            assert d["depositedUsd"] == t["depositedUsd"] and d["withdrawnUsd"] == t["withdrawnUsd"]
            assert d["pnlComplete"] is True
            expected = sorted(t["interactions"], key=lambda i: (i["timestamp"], i["blockNumber"]), reverse=True)
            got = [(h["type"], h["timestamp"], h["blockNumber"], h["transactionHash"], h["sharesRaw"], h["amount0Raw"],
                    h["amount1Raw"], h["amountUsd"]) for h in d["history"]]
            assert got == [(i["type"], i["timestamp"], i["blockNumber"], i["transactionHash"].lower(), i["shares"],
                            i["amount0"], i["amount1"], i["amountUsd"]) for i in expected]
            # a closed position keeps its realized P&L here (it is not an active position)
            if int(t["shares"]) == 0:
                assert d["valueUsd"] == 0 and d["pnlUsd"] == pytest.approx(t["pnlUsd"], rel=1e-12, abs=1e-9)


def test_stranger_and_errors(users_stack):
    api = users_stack.api
    body = ok(api, f"/users/{STRANGER}/positions")
    assert body["data"]["positions"] == [] and body["meta"]["degraded"] is False
    assert body["data"]["totals"] == {"usd": 0, "usdComplete": True}
    assert body["data"]["totalPnlUsd"] == 0 and body["data"]["pnlComplete"] is True
    one = ok(api, f"/users/{STRANGER}/vaults/cl-wbnb-usdt")["data"]
    assert one["sharesRaw"] == "0" and one["history"] == [] and one["pnlUsd"] == 0 and one["pnlComplete"] is True
    for path, status, code in (
        ("/users/0x1234/positions", 400, "invalid_address"),
        ("/users/" + STRANGER + "00/positions", 400, "invalid_address"),
        ("/users/bob/positions", 400, "invalid_address"),
        (f"/users/{STRANGER}/vaults/no-such-vault", 404, "not_found"),
        (f"/users/{STRANGER}/vaults/0x12", 400, "invalid_address"),
        (f"/users/{STRANGER}/vaults/0x{'12' * 20}", 404, "not_found"),
        ("/vaults/no-such-vault/history", 404, "not_found"),
    ):
        r = api.get(path)
        assert (r.status_code, r.json()["error"]["code"]) == (status, code), path
    for params, code in (({"days": "0"}, "invalid_days"), ({"days": "366"}, "invalid_days"),
                         ({"days": "x"}, "invalid_days"), ({"period": "weekly"}, "invalid_period")):
        r = api.get("/vaults/cl-wbnb-usdt/history", params=params)
        assert (r.status_code, r.json()["error"]["code"]) == (400, code)


def _subgraph_rows(stack, entity: str, block: int) -> dict[tuple[str, int], dict]:
    with SubgraphClient(stack.devnet.subgraph_url()) as sg:
        rows = sg.paginate(entity, PERIOD_FIELDS, block=block)
    return {(r["vault"]["id"].lower(), int(r["periodStartUnix"])): r for r in rows}


def test_history_equals_subgraph_and_windows(users_stack):
    api = users_stack.api
    vaults = ok(api, "/vaults")["data"]
    block = ok(api, "/vaults")["meta"]["indexedBlock"]
    head_ts = users_stack.devnet.sim().block_ts(block)
    for period, entity, length in (("hourly", "vaultHourDatas", HOUR), ("daily", "vaultDayDatas", DAY)):
        truth = _subgraph_rows(users_stack, entity, block)
        for v in vaults:
            everything = ok(api, f"/vaults/{v['key']}/history", period=period, days=365)
            assert everything["meta"]["indexedBlock"] == block and everything["meta"]["degraded"] is False
            points = everything["data"]["points"]
            starts = [_unix(p["periodStart"]) for p in points]
            assert starts == sorted(starts) and len(starts) == len(set(starts))
            # every hour that had ended by the backfill, every day (the running one partial)
            wanted = sorted(s for (a, s) in truth if a == v["address"].lower() and (period == "daily" or s + HOUR <= head_ts))
            assert starts == wanted
            for p, s in zip(points, starts):
                d = truth[(v["address"].lower(), s)]
                raw0 = int(Decimal(d["amount0"]).scaleb(int(d["vault"]["token0"]["decimals"])))
                raw1 = int(Decimal(d["amount1"]).scaleb(int(d["vault"]["token1"]["decimals"])))
                assert (p["totalSupplyRaw"], p["amount0Raw"], p["amount1Raw"]) == (d["totalSupply"], str(raw0), str(raw1))
                assert p["amount0"] == raw0 / 10 ** v["token0"]["decimals"]
                for field, sg_field in (("tvlUsd", "tvlUSD"), ("sharePriceUsd", "sharePriceUSD"),
                                        ("harvestedUsd", "harvestedUSD"), ("apr", "apr")):
                    assert p[field] == pytest.approx(float(d[sg_field]), rel=1e-9), field
                assert p["partial"] is (period == "daily" and s <= head_ts < s + length)
            newest = starts[-1]
            for days in (1, 2):
                window = ok(api, f"/vaults/{v['address']}/history", period=period, days=days)["data"]
                assert window["days"] == days and window["period"] == period
                assert [_unix(p["periodStart"]) for p in window["points"]] == [s for s in starts if s > newest - days * DAY]
    default = ok(api, "/vaults/cl-wbnb-usdt/history")["data"]
    assert (default["period"], default["days"]) == ("daily", 30)
    assert r_cache(api, "/vaults/cl-wbnb-usdt/history").startswith("public, max-age=0, s-maxage=60,")


def _unix(iso_text: str) -> int:
    from datetime import datetime

    return int(datetime.fromisoformat(iso_text.replace("Z", "+00:00")).timestamp())
