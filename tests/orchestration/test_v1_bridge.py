"""/v1/bridge and /v1/bridge/{guid} over the session's backfilled chains, against the devnet's
cross-chain messages: every message any covered chain has shown before its boundary, with its
state, times, transactions and transfer, equals the devnet's own account of it at the same
per-chain boundaries (truth/bridge); messages to the chain the session does not serve stay on
their source side, in flight; the filters select what they name; a limit=7 traversal equals the
unpaged answer; errors answer as the contract says (every response is checked against
/openapi.json)."""
from __future__ import annotations

import calendar
import time
from fractions import Fraction

import httpx
import pytest

from orchestration_session import CHAINS
from session_api import v1_server
from support.contract_check import CheckedClient


@pytest.fixture(scope="module")
def api(stack, tmp_path_factory):
    with v1_server(stack, tmp_path_factory.mktemp("v1-bridge")) as server, httpx.Client(timeout=60) as http:
        yield CheckedClient(server.url, http)


def unix(text: str | None) -> int | None:
    return None if text is None else calendar.timegm(time.strptime(text, "%Y-%m-%dT%H:%M:%SZ"))


def truth(stack, coverage: list[dict]) -> dict[str, dict]:
    at = ",".join(f"{c['chainId']}:{unix(c['indexedUntil'])}" for c in coverage if c["indexedUntil"])
    return {m["guid"]: m for m in stack.truth("bridge", at=at)["messages"]}


@pytest.fixture(scope="module")
def whole(api, stack):
    rows, body = api.every_row("/v1/bridge?limit=500")
    return rows, body, truth(stack, body["data"]["coverage"])


def test_every_message_is_the_devnets_at_the_same_boundaries(whole):
    rows, body, expected = whole
    assert sorted(c["chainId"] for c in body["data"]["coverage"]) == sorted(CHAINS) == body["meta"]["chainIds"]
    got = {r["guid"]: r for r in rows}
    assert len(got) == len(rows) and set(got) == set(expected) and len(rows) > 50
    for guid, m in expected.items():
        r = got[guid]
        assert (r["state"], r["terminal"], r["retryable"], r["missingSide"]) == (
            m["state"], m["terminal"], m["retryable"], m["missingSide"]), guid
        assert (r["nonce"], r["source"]["chainId"], r["destination"]["chainId"]) == (m["nonce"], m["srcChainId"],
                                                                                      m["dstChainId"])
        assert (r["source"]["eid"], r["destination"]["eid"]) == (m["srcEid"], m["dstEid"])
        assert (r["source"]["application"], r["destination"]["application"]) == (m["sender"], m["receiver"])
        assert unix(r["source"]["sentAt"]) == m["sentAt"]
        if m["sentAt"] is not None:
            assert (r["source"]["blockNumber"], r["source"]["transactionHash"]) == (m["sentBlock"], m["sentTx"])
        d = r["destination"]
        assert (unix(d["verifiedAt"]), unix(d["deliveredAt"]), unix(d["payloadStoredAt"]), unix(d["failedAt"])) == (
            m["verifiedAt"], m["deliveredAt"], m["alertAt"], m["burntAt"]), guid
        if m["amountRaw"] is None:
            assert r["transfer"] is None
        else:
            t = r["transfer"]
            assert (t["amountRaw"], t["from"], t["to"]) == (m["amountRaw"], m["fromAddress"], m["toAddress"])
            assert Fraction(t["amount"]) == Fraction(int(m["amountRaw"]), 10 ** 18)
            assert (t["sourceToken"] or {}).get("address") == (m["srcToken"] if m["sentAt"] is not None else None)
    order = [(-unix(r["orderedAt"]), r["guid"]) for r in rows]
    assert order == sorted(order)


def test_states_and_sides_the_session_shows(whole):
    rows, _, _ = whole
    states = {r["state"] for r in rows}
    assert {"DELIVERED", "INFLIGHT", "FAILED"} <= states, states
    served = set(CHAINS)
    # a message to the chain the session does not serve is in flight, its destination missing
    away = [r for r in rows if r["destination"]["chainId"] not in served]
    assert away and all(r["state"] in ("INFLIGHT", "CONFIRMING") and r["missingSide"] == "destination" for r in away)
    # one from it is seen on its destination only
    inbound = [r for r in rows if r["source"]["chainId"] not in served]
    assert inbound and all(r["missingSide"] == "source" and r["source"]["sentAt"] is None for r in inbound)


def test_filters_select_what_they_name(api, whole):
    rows, _, _ = whole
    sample = next(r for r in rows if r["transfer"] and r["state"] == "DELIVERED")
    cases = {
        f"&srcChainId={sample['source']['chainId']}": lambda r: r["source"]["chainId"] == sample["source"]["chainId"],
        f"&dstChainId={sample['destination']['chainId']}":
            lambda r: r["destination"]["chainId"] == sample["destination"]["chainId"],
        "&state=FAILED,INFLIGHT": lambda r: r["state"] in ("FAILED", "INFLIGHT"),
        f"&address={sample['transfer']['from'].upper().replace('0X', '0x')}":
            lambda r: sample["transfer"]["from"] in ((r["transfer"] or {}).get("from"), (r["transfer"] or {}).get("to"),
                                                     r["source"]["application"], r["destination"]["application"]),
    }
    for query, wanted in cases.items():
        got, _ = api.every_row(f"/v1/bridge?limit=500{query}")
        assert got == [r for r in rows if wanted(r)] and got, query


def test_a_traversal_is_the_unpaged_answer(api, whole):
    rows, _, _ = whole
    seen, cursor = [], None
    while True:
        body = api.get("/v1/bridge?limit=7" + (f"&cursor={cursor}" if cursor else "")).json()
        seen += body["data"]["rows"]
        cursor = body["pageInfo"]["nextCursor"]
        assert body["pageInfo"]["hasNextPage"] is (cursor is not None)
        if not cursor or len(seen) >= 70:
            break
    assert seen == rows[:len(seen)] and len(seen) >= 70


def test_the_detail_is_the_listed_message(api, whole):
    rows, body, _ = whole
    for state in {r["state"] for r in rows}:
        r = next(row for row in rows if row["state"] == state)
        detail = api.get(f"/v1/bridge/{r['guid'].upper().replace('0X', '0x')}").json()["data"]
        assert {k: v for k, v in detail.items() if k != "coverage"} == r
        assert detail["coverage"] == body["data"]["coverage"]


def test_errors_have_their_own_codes(api):
    cursor = api.get("/v1/bridge?limit=1").json()["pageInfo"]["nextCursor"]
    cases = {
        "/v1/bridge/0x" + "ab" * 32: (404, "bridge_message_not_found"),
        "/v1/bridge/0x" + "ab" * 31: (400, "invalid_guid"),
        "/v1/bridge?state=LOST": (400, "invalid_state"),
        "/v1/bridge?srcChainId=0": (400, "invalid_src_chain_id"),
        "/v1/bridge?address=0x12": (400, "invalid_address"),
        "/v1/bridge?limit=501": (400, "invalid_limit"),
        f"/v1/bridge?limit=1&state=DELIVERED&cursor={cursor}": (400, "invalid_cursor"),
    }
    for path, (status, code) in cases.items():
        r = api.get(path)
        assert (r.status_code, r.json()["error"]["code"]) == (status, code), (path, r.text)


def test_etag_and_head(api):
    r = api.get("/v1/bridge?limit=5")
    again = api.get("/v1/bridge?limit=5", headers={"If-None-Match": r.headers["etag"]})
    assert again.status_code == 304
    head = api.http.head(api.url + "/v1/bridge?limit=5")
    assert head.status_code == 200 and head.headers["etag"] == r.headers["etag"] and not head.content
    assert r.headers["cache-control"].startswith("public") and "s-maxage=60" in r.headers["cache-control"]
