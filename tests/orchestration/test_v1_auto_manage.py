"""An auto-managed vault's /rebalances and /activity over the session's backfilled chains with
vaults (56, 4663 and 5042, whose subgraph lags), against the devnet's own account of each vault's
events (truth/vault-events): every event before the answer's coverage boundary, with its exact
amounts, the reward fee of each claim and the range, amounts, fees, price and swap of each range
reset; a limit=3 traversal equals the unpaged answer; errors answer as the contract says (every
response is checked against /openapi.json)."""
from __future__ import annotations

import calendar
import time
from fractions import Fraction

import httpx
import pytest

from devnet.amm.cl import Q96, get_sqrt_ratio_at_tick
from orchestration_session import CHAINS
from session_api import v1_server
from support.contract_check import CheckedClient

TRUNC = Fraction(1, 10 ** 36)


@pytest.fixture(scope="module")
def api(stack, tmp_path_factory):
    with v1_server(stack, tmp_path_factory.mktemp("v1-auto-manage")) as server, httpx.Client(timeout=60) as http:
        yield CheckedClient(server.url, http)


def unix(text: str) -> int:
    return calendar.timegm(time.strptime(text, "%Y-%m-%dT%H:%M:%SZ"))


def vaults(stack) -> list[tuple[int, str, str]]:
    """(chain, address, kind) of every vault of the session's chains."""
    return [(cid, v.address.lower(), v.kind) for cid in CHAINS for v in stack.settings.vaults(cid)]


def truth_events(stack, cid: int, address: str, until: str | None) -> tuple[dict, list[dict]]:
    """The vault's truth and its events before the answer's boundary, newest first."""
    truth = stack.truth("vault-events", chain_id=cid, vault=address)
    bound = 0 if until is None else unix(until)
    shown = [e for e in truth["events"] if e["timestamp"] < bound]
    return truth, sorted(shown, key=lambda e: (e["blockNumber"], e["logIndex"]), reverse=True)


def decimal(text: str | None) -> Fraction | None:
    return None if text is None else Fraction(text)


def is_truncation(text: str | None, exact: Fraction) -> bool:
    return text is not None and 0 <= exact - Fraction(text) < TRUNC


def amount(a: dict, raw: str, decimals: int) -> bool:
    return a["amountRaw"] == raw and is_truncation(a["amount"], Fraction(int(raw), 10 ** decimals))


def tick_price(tick: int, d0: int, d1: int) -> Fraction:
    return Fraction(get_sqrt_ratio_at_tick(tick) ** 2, Q96 * Q96) * Fraction(10) ** (d0 - d1)


def test_every_chain_with_vaults_is_served_and_one_without_is_not(api, stack):
    served = {cid for cid, _, _ in vaults(stack)}
    assert served == {56, 4663, 5042}
    for cid in set(CHAINS) - served:
        r = api.get(f"/v1/auto-manage/vaults/{cid}/0x{'1' * 40}/activity")
        assert (r.status_code, r.json()["error"]["code"]) == (404, "feature_unsupported")


def test_activity_is_the_devnets_deposits_redemptions_and_claims(api, stack):
    kinds = {"deposit": "deposit", "withdrawal": "redemption", "harvest": "claim"}
    claims = 0
    for cid, address, _ in vaults(stack):
        rows, body = api.every_row(f"/v1/auto-manage/vaults/{cid}/{address}/activity?limit=500")
        data = body["data"]
        assert (data["chainId"], data["vault"]) == (cid, address)
        truth, expected = truth_events(stack, cid, address, data["coverage"]["indexedUntil"])
        expected = [e for e in expected if e["type"] in kinds]
        assert len(rows) == len(expected) > 0, (cid, address)
        d0, d1 = data["token0"]["decimals"], data["token1"]["decimals"]
        assert (data["token0"]["address"], data["token1"]["address"]) == (truth["token0"].lower(), truth["token1"].lower())
        for r, e in zip(rows, expected):
            assert (r["kind"], r["transactionHash"], r["blockNumber"], r["logIndex"], unix(r["at"])) == (
                kinds[e["type"]], e["transactionHash"].lower(), e["blockNumber"], e["logIndex"], e["timestamp"])
            if r["kind"] == "claim":
                claims += 1
                c = r["claim"]
                fee = int(e["amount"]) * truth["rewardFeeBps"] // 10000
                assert (c["gross"]["amountRaw"], c["fee"]["amountRaw"], c["compounded"]["amountRaw"]) == (
                    e["amount"], e["feeAmount"], str(int(e["amount"]) - fee)) and int(e["feeAmount"]) == fee
                assert amount(c["gross"], e["amount"], c["token"]["decimals"])
                assert r["account"] is None and r["shares"] is None and r["amounts"] is None
                assert float(c["feeUsd"]) == pytest.approx(e["feeAmountUSD"], rel=1e-9)
            else:
                assert r["account"] == e["user"].lower() and r["shares"]["amountRaw"] == e["shares"]
                assert amount(r["amounts"]["token0"], e["amount0"], d0) and amount(r["amounts"]["token1"], e["amount1"], d1)
                assert r["claim"] is None
            assert float(r["amountUsd"]) == pytest.approx(e["amountUSD"], rel=1e-9)
        if data["coverage"]["behind"]:
            assert body["meta"]["complete"] is False
    assert claims > 0


def test_range_resets_are_the_devnets_rebalances(api, stack):
    seen = 0
    for cid, address, kind in vaults(stack):
        path = f"/v1/auto-manage/vaults/{cid}/{address}/rebalances"
        if kind != "cl":
            r = api.get(path)
            assert (r.status_code, r.json()["error"]["code"]) == (400, "vault_not_concentrated")
            continue
        rows, body = api.every_row(f"{path}?limit=500")
        data = body["data"]
        d0, d1 = data["token0"]["decimals"], data["token1"]["decimals"]
        _, expected = truth_events(stack, cid, address, data["coverage"]["indexedUntil"])
        expected = [e for e in expected if e["type"] == "rebalance"]
        assert len(rows) == len(expected)
        for r, e in zip(rows, expected):
            seen += 1
            assert (r["transactionHash"], r["tick"], r["sqrtPriceX96"]) == (e["transactionHash"].lower(), e["tick"],
                                                                            e["sqrtPriceX96"])
            for side, (lo, hi) in (("rangeBefore", ("oldTickLower", "oldTickUpper")),
                                   ("rangeAfter", ("newTickLower", "newTickUpper"))):
                rng = r[side]
                assert (rng["tickLower"], rng["tickUpper"]) == (e[lo], e[hi])
                assert is_truncation(rng["priceLower"], tick_price(e[lo], d0, d1))
                assert is_truncation(rng["priceUpper"], tick_price(e[hi], d0, d1))
            assert is_truncation(r["price"], Fraction(int(e["sqrtPriceX96"]) ** 2, Q96 * Q96) * Fraction(10) ** (d0 - d1))
            for field, prefix in (("amountsBefore", "Before"), ("amountsAfter", "After")):
                assert amount(r[field]["token0"], e[f"amount0{prefix}"], d0)
                assert amount(r[field]["token1"], e[f"amount1{prefix}"], d1)
            assert amount(r["feesCollected"]["token0"], e["fees0"], d0)
            assert amount(r["feesCollected"]["token1"], e["fees1"], d1)
            sold, bought = (0, 1) if e["swapZeroForOne"] else (1, 0)
            assert r["swap"]["tokenIn"] == data[f"token{sold}"]["address"]
            assert amount(r["swap"]["amountIn"], e["swapAmountIn"], (d0, d1)[sold])
            assert amount(r["swap"]["amountOut"], e["swapAmountOut"], (d0, d1)[bought])
    assert seen > 0


def test_a_traversal_is_the_unpaged_answer_and_errors_have_their_codes(api, stack):
    cid, address, _ = next(v for v in vaults(stack) if v[0] == 56)
    path = f"/v1/auto-manage/vaults/{cid}/{address}/activity"
    rows, _ = api.every_row(f"{path}?limit=500")
    seen, cursor = [], None
    while len(seen) < 15:
        body = api.get(f"{path}?limit=3" + (f"&cursor={cursor}" if cursor else "")).json()
        seen += body["data"]["rows"]
        cursor = body["pageInfo"]["nextCursor"]
        assert cursor
    assert seen == rows[:len(seen)]
    rebalances_cursor = api.get(f"/v1/auto-manage/vaults/{cid}/{address}/rebalances?limit=1").json()["pageInfo"]["nextCursor"]
    cases = {
        f"/v1/auto-manage/vaults/{cid}/0x{'ab' * 20}/activity": (404, "vault_not_found"),
        f"/v1/auto-manage/vaults/{cid}/0x12/activity": (400, "invalid_vault"),
        f"/v1/auto-manage/vaults/999999/{address}/activity": (404, "chain_not_public"),
        f"{path}?limit=501": (400, "invalid_limit"),
        f"{path}?cursor={rebalances_cursor}": (400, "invalid_cursor"),
    }
    for p, (status, code) in cases.items():
        r = api.get(p)
        assert (r.status_code, r.json()["error"]["code"]) == (status, code), (p, r.text)
    r = api.get(f"{path}?limit=5")
    assert api.get(f"{path}?limit=5", headers={"If-None-Match": r.headers["etag"]}).status_code == 304
    head = api.http.head(api.url + f"{path}?limit=5")
    assert head.status_code == 200 and head.headers["etag"] == r.headers["etag"] and not head.content
