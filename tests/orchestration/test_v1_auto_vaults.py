"""The auto-managed vault list, detail and /history over the session's chains with vaults (56, 4663
and 5042): every vault read live equals the devnet's truth at the block it names; chain 56 agrees
with the vault data API (/api/v1) at the same block; a vault whose live read fails, and a chain
whose RPC fails, answer their last indexed snapshot, marked; the estimated APR follows from the
vault's indexed hours and claims; history periods equal the truth at each period's last block.
Every /v1 answer is checked against /openapi.json."""
from __future__ import annotations

import calendar
import dataclasses
import time
from fractions import Fraction

import httpx
import pytest

from orchestration_session import CHAINS
from session_api import STALE_AFTER_MINUTES, ensure_curation
from support.api_server import ApiServer
from support.contract_check import CheckedClient
from test_v1_auto_manage import TRUNC, is_truncation, tick_price

HOUR, DAY = 3600, 86400
LIST = "/v1/auto-manage/vaults"


def unix(text: str) -> int:
    return calendar.timegm(time.strptime(text, "%Y-%m-%dT%H:%M:%SZ"))


def start_api(stack, folder):
    ensure_curation(stack, folder)
    settings = dataclasses.replace(stack.settings, stale_after_minutes=STALE_AFTER_MINUTES, api_workers=1)
    return ApiServer(settings, families=("v1", "vaults"), log_path=folder / "api.log")


@pytest.fixture(scope="module")
def api(stack, tmp_path_factory):
    with start_api(stack, tmp_path_factory.mktemp("v1-auto-vaults")) as server, httpx.Client(timeout=60) as http:
        yield CheckedClient(server.url, http)


def vault_chains(stack) -> list[int]:
    return [cid for cid in CHAINS if stack.settings.vaults(cid)]


def snapshot_prices(stack, cid: int, at: str) -> dict[str, float | None]:
    rows = stack.query("SELECT lower(token_address), price_usd FROM token_snap15m FINAL WHERE chain_id = {c:UInt32} "
                       "AND snapshot_at = toDateTime64({t:Int64}, 3, 'UTC')", c=cid, t=unix(at))
    return dict(rows)


def test_every_vault_is_read_live_and_equals_the_devnet(api, stack):
    rows, meta = api.data(LIST)
    chains = vault_chains(stack)
    assert meta["chainIds"] == chains
    # every vault live: complete as far as the chains are fresh (5042's lagging subgraph makes it stale here)
    assert meta["complete"] is all(c["state"] == "fresh" for c in meta["chains"])
    assert [(r["chainId"], r["address"]) for r in rows] == [
        (cid, v.address.lower()) for cid in chains for v in stack.settings.vaults(cid)]
    snapshots = {c["chainId"]: c["snapshotAt"] for c in meta["chains"]}
    for r in rows:
        obs = r["observation"]
        assert (obs["source"], obs["reason"]) == ("live", None)
        truth = {v["address"].lower(): v for v in stack.truth("vaults", chain_id=r["chainId"],
                                                              block=obs["blockNumber"])["vaults"]}[r["address"]]
        p, t0, t1 = r["principal"], r["token0"], r["token1"]
        assert (r["key"], r["kind"], r["pool"], r["strategy"], t0["address"], t1["address"]) == (
            truth["key"], truth["kind"], truth["pool"].lower(), truth["strategy"].lower(), truth["token0"].lower(),
            truth["token1"].lower())
        assert (p["shares"]["amountRaw"], p["token0"]["amountRaw"], p["token1"]["amountRaw"]) == (
            truth["totalSupply"], truth["amount0"], truth["amount1"])
        assert is_truncation(p["token0"]["amount"], Fraction(int(truth["amount0"]), 10 ** t0["decimals"]))
        assert (r["rewardFee"]["bps"], r["rewardFee"]["recipient"]) == (truth["rewardFeeBps"],
                                                                          truth["feeRecipient"].lower())
        s = r["status"]
        assert (s["isCalm"], s["strategyPaused"], s["globalPause"], s["needsRebalance"]) == (
            truth["isCalm"], truth["strategyPaused"], truth["globalPause"], truth["needsRebalance"])
        # valued with the prices of the chain's published snapshot, as /api/v1 values
        prices = snapshot_prices(stack, r["chainId"], snapshots[r["chainId"]])
        p0, p1 = prices[t0["address"]], prices[t1["address"]]
        assert p["prices"]["at"] == snapshots[r["chainId"]]
        tvl = int(truth["amount0"]) / 10 ** t0["decimals"] * p0 + int(truth["amount1"]) / 10 ** t1["decimals"] * p1
        assert is_truncation(p["tvlUsd"], Fraction(tvl))
        if r["kind"] == "cl":
            g = r["range"]
            assert (g["tickLower"], g["tickUpper"], g["tick"], g["sqrtPriceX96"]) == (
                truth["tickLower"], truth["tickUpper"], truth["tick"], truth["sqrtPriceX96"])
            assert is_truncation(g["priceLower"], tick_price(g["tickLower"], t0["decimals"], t1["decimals"]))
            assert g["inRange"] is (g["tickLower"] <= g["tick"] < g["tickUpper"])
        else:
            assert r["range"] is None


def test_chain_56_agrees_with_the_vault_data_api_at_the_same_block(api, stack):
    legacy = api.http.get(api.url + "/api/v1/vaults").json()
    rows, _ = api.data(f"{LIST}?chainIds=56")
    assert {r["observation"]["blockNumber"] for r in rows} == {legacy["meta"]["indexedBlock"]}
    by_address = {v["address"].lower(): v for v in legacy["data"]}
    for r in rows:
        old = by_address[r["address"]]
        p = r["principal"]
        assert (p["shares"]["amountRaw"], p["token0"]["amountRaw"], p["token1"]["amountRaw"]) == (
            old["totalSupplyRaw"], old["amount0Raw"], old["amount1Raw"])
        assert is_truncation(p["tvlUsd"], Fraction(old["tvlUsd"]))
        assert is_truncation(p["sharePriceUsd"], Fraction(old["sharePriceUsd"]))
        assert (r["status"]["isCalm"], r["status"]["paused"], r["status"]["lastHarvest"] is None) == (
            old["isCalm"], old["paused"], not old["lastHarvest"])


def test_detail_is_the_list_row_and_errors_have_their_codes(api, stack):
    rows, _ = api.data(LIST)
    for r in rows[:3]:
        detail, _ = api.data(f"{LIST}/{r['chainId']}/{r['address']}")
        assert detail == r
    cl = [r for r in rows if r["kind"] == "cl"]
    assert api.data(f"{LIST}?kind=cl")[0] == cl and cl
    for path, status, code in ((f"{LIST}/56/0x{'1' * 40}", 404, "vault_not_found"),
                               (f"{LIST}/1/0x{'1' * 40}", 404, "feature_unsupported"),
                               (f"{LIST}?chainIds=1", 404, "feature_unsupported"),
                               (f"{LIST}/56/0x12", 400, "invalid_vault"),
                               (f"{LIST}/56/{rows[0]['address']}/history?interval=1h&days=91", 400, "invalid_range")):
        r = api.get(path)
        assert (r.status_code, r.json()["error"]["code"]) == (status, code), path
    first = api.get(LIST)
    again = api.get(LIST, headers={"if-none-match": first.headers["etag"]})
    assert again.status_code == 304 and api.http.head(api.url + LIST).status_code == 200


def test_a_failed_live_read_answers_the_last_indexed_state_marked(stack, tmp_path_factory):
    faulty = stack.settings.vaults(56)[0].address.lower()
    stack.fault("vaults", "error", chain_id=56, vault=faulty)
    stack.fault("rpc", "error", chain_id=4663)
    try:
        with start_api(stack, tmp_path_factory.mktemp("v1-auto-vaults-faults")) as server, \
                httpx.Client(timeout=60) as http:
            api = CheckedClient(server.url, http)
            rows, meta = api.data(LIST)
    finally:
        stack.fault("vaults", "ok", chain_id=56)
        stack.fault("rpc", "ok", chain_id=4663)
    assert meta["complete"] is False
    marked = {(r["chainId"], r["address"]): r["observation"] for r in rows}
    expected = {(56, faulty): "live_read_failed", **{(4663, v.address.lower()): "rpc_unavailable"
                                                     for v in stack.settings.vaults(4663)}}
    assert {k: o["reason"] for k, o in marked.items() if o["source"] == "indexed"} == expected
    assert all(o["source"] == "live" for k, o in marked.items() if k not in expected)
    for r in rows:
        if (r["chainId"], r["address"]) not in expected:
            continue
        obs = r["observation"]
        snapshot = {c["chainId"]: c["snapshotAt"] for c in meta["chains"]}[r["chainId"]]
        assert unix(obs["at"]) <= unix(snapshot) and r["principal"]["prices"]["at"] == obs["at"]
        truth = {v["address"].lower(): v for v in stack.truth("vaults", chain_id=r["chainId"],
                                                              block=obs["blockNumber"])["vaults"]}[r["address"]]
        assert (r["principal"]["shares"]["amountRaw"], r["principal"]["token0"]["amountRaw"]) == (
            truth["totalSupply"], truth["amount0"])
        assert r["name"] is None and r["status"]["paused"] is None  # what the index does not hold


def test_the_estimated_apr_follows_from_the_indexed_hours_and_claims(api, stack):
    rows, _ = api.data(LIST)
    estimated = 0
    for r in rows:
        a = r["apr"]
        if a["hours"] < 24:
            assert (a["status"], a["value"]) == ("insufficient_history", None)
            continue
        base = f"{LIST}/{r['chainId']}/{r['address']}"
        periods = api.data(f"{base}/history?interval=1h&days=9")[0]["periods"]
        window = [q for q in periods if unix(a["from"]) <= unix(q["periodStart"]) < unix(a["toExclusive"])
                  and q["gap"] is None]
        assert len(window) == a["hours"] <= 168
        claims, _ = api.every_row(f"{base}/activity?limit=500")
        fees = [c["claim"]["feeUsd"] for c in claims if c["kind"] == "claim"
                and unix(a["from"]) <= unix(c["at"]) < unix(a["toExclusive"])]
        gross = sum(Fraction(q["harvestedUsd"]) for q in window)
        fee = sum(Fraction(f) for f in fees)
        tvl = sum(Fraction(q["tvlUsd"]) for q in window) / len(window)
        assert abs(Fraction(a["harvestedUsd"]) - gross) <= len(window) * TRUNC + gross * Fraction(1, 10 ** 12)
        assert abs(Fraction(a["rewardFeeUsd"]) - fee) <= len(fees) * TRUNC + fee * Fraction(1, 10 ** 12)
        if a["status"] == "estimated":
            estimated += 1
            value = (gross - fee) / tvl * 365 * 24 / a["hours"]
            assert abs(Fraction(a["value"]) - value) <= value * Fraction(1, 10 ** 9)
            assert fee > 0 and Fraction(r["rewardFee"]["fraction"]) == Fraction(r["rewardFee"]["bps"], 10_000)
    assert estimated >= 2


def test_history_periods_are_the_truth_at_their_last_block(api, stack):
    for cid in vault_chains(stack):
        sim = stack.devnet.sim(cid)
        for v in stack.settings.vaults(cid):
            base = f"{LIST}/{cid}/{v.address.lower()}/history"
            hours, meta = api.data(f"{base}?interval=1h&days=2")
            days, _ = api.data(f"{base}?interval=1d&days=10")
            assert len(hours["periods"]) == 48 and len(days["periods"]) == 10
            assert unix(days["toExclusive"]) - unix(days["from"]) == 10 * DAY
            snapshot = unix(meta["chains"][0]["snapshotAt"])
            assert unix(hours["toExclusive"]) == snapshot - snapshot % HOUR
            shown = [q for q in hours["periods"] if q["gap"] is None]
            assert shown, (cid, v.key)
            for q in shown[-3:]:
                last = sim.block_at(unix(q["periodStart"]) + HOUR - sim.block_time)
                truth = {t["address"].lower(): t for t in stack.truth("vaults", chain_id=cid, block=last)["vaults"]}
                t = truth[v.address.lower()]
                assert (q["shares"]["amountRaw"], q["token0"]["amountRaw"], q["token1"]["amountRaw"]) == (
                    t["totalSupply"], t["amount0"], t["amount1"]), (cid, v.key, q["periodStart"])
            until = unix(hours["indexedUntil"])
            for q in hours["periods"]:
                if unix(q["periodStart"]) + HOUR > until:
                    assert q["gap"] == "not_indexed" and q["shares"]["amountRaw"] is None
            created = [t for t in stack.truth("vaults", chain_id=cid)["vaults"]
                       if t["address"].lower() == v.address.lower()][0]["createdAtTimestamp"]
            for q in days["periods"]:
                if unix(q["periodStart"]) + DAY <= created and unix(q["periodStart"]) >= unix(days["indexedFrom"]):
                    assert q["gap"] == "before_vault_deployment"
                if q["gap"] is None:
                    assert unix(q["periodStart"]) + DAY > created
