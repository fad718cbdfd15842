"""/v1/accounts/{address}/xcore over the session's chains with xCORE (56, canonical, and 4663, a
bridged representation): every xCORE wallet's balance on each chain equals the devnet's ledger at
that chain's snapshot block, its worth is the balance at the truth's canonical rate, its moves and
last move are the ledger's; an address with nothing holds zero; a representation selected alone is
still valued at the canonical rate. Every answer is checked against /openapi.json."""
from __future__ import annotations

import calendar
import time
from fractions import Fraction

import httpx
import pytest

from devnet.sim.xcore import WALLETS
from session_api import v1_server
from support.contract_check import CheckedClient

CANONICAL, REPRESENTATION = 56, 4663
MOVES = ("deposit", "exit", "bridgeOut", "bridgeIn")
E18 = 10 ** 18
NOBODY = "0x" + "5a" * 20


def unix(text: str) -> int:
    return calendar.timegm(time.strptime(text, "%Y-%m-%dT%H:%M:%SZ"))


def exact(q: dict, raw: int) -> bool:
    """The quantity is `raw` and its decimal is raw / 1e18 truncated at 36 places."""
    return q["raw"] == str(raw) and 0 <= Fraction(raw, E18) - Fraction(q["value"]) < Fraction(1, 10 ** 36)


@pytest.fixture(scope="module")
def api(stack, tmp_path_factory):
    with v1_server(stack, tmp_path_factory.mktemp("v1-accounts-xcore")) as server, \
            httpx.Client(timeout=60) as http:
        yield CheckedClient(server.url, http)


def ledger_moves(stack, chain_id: int, address: str, at: int) -> list[dict]:
    """The devnet ledger's moves of `address` on the chain up to `at` (its truth has generated them)."""
    events = stack.devnet.state.xcore.ledgers[chain_id].events
    return [e for e in events if e.get("account") == address and e["kind"] in MOVES and e["timestamp"] <= at]


def test_every_wallet_equals_the_ledger_at_each_chains_snapshot(api, stack):
    foundation = stack.devnet.state.xcore.foundation
    held_on_both = 0
    for wallet in (*WALLETS, foundation):
        data, meta = api.data(f"/v1/accounts/{wallet.upper().replace('0X', '0x')}/xcore")
        assert meta["chainIds"] == [CANONICAL, REPRESENTATION] and meta["complete"] is True
        assert data["address"] == wallet and data["canonicalChainId"] == CANONICAL
        chains = {c["chainId"]: c for c in data["chains"]}
        assert list(chains) == [CANONICAL, REPRESENTATION]
        at = {cid: unix(c["observation"]["at"]) for cid, c in chains.items()}
        ratio = int(stack.truth("xcore", at=f"{CANONICAL}:{at[CANONICAL]}")["ratio"])
        assert exact(data["rate"], ratio) and data["rate"]["observation"] == chains[CANONICAL]["observation"]
        total = 0
        for cid, c in chains.items():
            balance = int(stack.truth("xcore/accounts", cid, at=at[cid])["accounts"].get(wallet, "0"))
            assert (c["status"], c["role"], c["complete"]) == (
                "observed", "canonical" if cid == CANONICAL else "representation", True)
            assert c["coverage"]["fromDeployment"] is True and c["coverage"]["behind"] is False
            assert exact(c["balance"], balance), (wallet, cid)
            assert exact(c["worth"], balance * ratio // E18)
            moves = ledger_moves(stack, cid, wallet, at[cid])
            assert c["moves"] == len(moves)
            last = moves[-1] if moves else None
            assert c["lastMove"] == (None if last is None else {
                "kind": last["kind"], "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(last["timestamp"])),
                "blockNumber": last["blockNumber"], "transactionHash": last["transactionHash"]})
            total += balance
        held_on_both += all(int(c["balance"]["raw"]) > 0 for c in chains.values())
        totals = data["totals"]
        assert exact(totals["balance"], total) and exact(totals["worth"], total * ratio // E18)
        assert totals["chainIds"] == [CANONICAL, REPRESENTATION] and totals["complete"] is True
    assert held_on_both > 0  # the data exercises a wallet holding on both chains


def test_an_address_with_nothing_holds_zero(api):
    data, meta = api.data(f"/v1/accounts/{NOBODY}/xcore")
    assert meta["complete"] is True
    for c in data["chains"]:
        assert (c["balance"]["raw"], c["worth"]["raw"], c["moves"], c["lastMove"], c["complete"]) == (
            "0", "0", 0, None, True)
    assert data["totals"]["balance"] == {"raw": "0", "value": "0"}


def test_a_representation_alone_is_valued_at_the_canonical_rate(api):
    wallet = next(w for w in WALLETS if int(api.data(f"/v1/accounts/{w}/xcore?chainIds={REPRESENTATION}")[0]
                                             ["chains"][0]["balance"]["raw"]) > 0)
    data, meta = api.data(f"/v1/accounts/{wallet}/xcore?chainIds={REPRESENTATION}")
    full, _ = api.data(f"/v1/accounts/{wallet}/xcore")
    assert [c["chainId"] for c in data["chains"]] == [REPRESENTATION]
    assert [c["chainId"] for c in meta["chains"]] == [CANONICAL, REPRESENTATION]  # the rate's chain rests beneath
    assert data["rate"] == full["rate"] and data["chains"][0] == full["chains"][1]
    assert data["totals"]["balance"] == full["chains"][1]["balance"]


def test_errors_answer_their_codes(api):
    cases = {
        "/v1/accounts/0x1234/xcore": (400, "invalid_address"),
        f"/v1/accounts/{NOBODY}/xcore?chainIds=1": (404, "feature_unsupported"),
        f"/v1/accounts/{NOBODY}/xcore?chainIds=999": (404, "chain_not_public"),
        f"/v1/accounts/{NOBODY}/xcore?limit=3": (400, "unknown_parameter"),
    }
    for path, (status, code) in cases.items():
        r = api.get(path)
        assert (r.status_code, r.json()["error"]["code"]) == (status, code), path


def test_etag_304_and_head(api):
    path = f"/v1/accounts/{WALLETS[0]}/xcore"
    r = api.get(path)
    assert r.status_code == 200 and r.headers["etag"] and "max-age" in r.headers["cache-control"]
    assert api.get(path, headers={"If-None-Match": r.headers["etag"]}).status_code == 304
    head = api.http.head(api.url + path)
    assert head.status_code == 200 and head.content == b""
