"""/v1/accounts/{address}/portfolio over the session's backfilled chains: for a liquidity provider
who also votes, the busiest provider, chain 56's foundation (veNFTs, rewards, xCORE), its busiest
vault user and an address with nothing, each chain's kinds are what the account routes answer, valued at the prices the
portfolio lists (liquidity, fees and emissions as /liquidity-positions sums them; locked core token
as /voting-positions; xCORE's worth as /xcore; claimable rewards as /rewards), the totals are the
chains' sums per kind and holdings sum liquidity, vaults, locked and xcore. Every answer is checked against
/openapi.json."""
from __future__ import annotations

from collections import Counter
from fractions import Fraction

import httpx
import pytest

from session_api import v1_server
from support.contract_check import CheckedClient

NOBODY = "0x" + "5a" * 20


@pytest.fixture(scope="module")
def api(stack, tmp_path_factory):
    with v1_server(stack, tmp_path_factory.mktemp("v1-accounts-portfolio")) as server, httpx.Client(timeout=60) as http:
        yield CheckedClient(server.url, http)


@pytest.fixture(scope="module")
def addresses(stack) -> list[str]:
    sim = stack.devnet.sim(56)
    at = sim.now()
    providers = {o: len(sim.liquidity.positions_of(o, at)) for o in sim.liquidity.providers}
    voting = next(o for o in sim.liquidity.providers if o in set(sim.gov.voters) and providers[o])
    vault_user = max(sim.vaults.by_user, key=lambda u: (len(sim.vaults.by_user[u]), u))
    return list(dict.fromkeys([voting, max(providers, key=lambda o: (providers[o], o)),
                               sim.gov.chain.foundation_wallet.lower(), vault_user]))


def usd(text: str | None) -> Fraction:
    return Fraction(text) if text is not None else Fraction(0)


def close(got: str | None, want: Fraction) -> bool:
    return got is not None and abs(Fraction(got) - want) <= max(abs(want), 1) * Fraction(1, 10 ** 30)


def test_each_kind_is_what_its_route_answers(api, stack, addresses):
    seen: set = set()
    checked: Counter = Counter()
    for address in addresses:
        data, _ = api.data(f"/v1/accounts/{address}/portfolio")
        prices = {(p["chainId"], p["token"]["address"]): p["price"] for p in data["prices"]}
        lp, _ = api.data(f"/v1/accounts/{address}/liquidity-positions?limit=1")
        voting, _ = api.data(f"/v1/accounts/{address}/voting-positions?limit=1")
        xcore, _ = api.data(f"/v1/accounts/{address}/xcore")
        rewards, _ = api.data(f"/v1/accounts/{address}/rewards?status=claimable&limit=1")
        for chain in data["chains"]:
            cid, kinds = chain["chainId"], {k["kind"]: k for k in chain["kinds"]}
            lpc = next(c for c in lp["chains"] if c["chainId"] == cid)
            parts = {p["part"]: p for p in lpc["totals"]}
            assert kinds["liquidity"]["status"] == lpc["status"]
            assert close(kinds["liquidity"]["usd"], usd(parts["unstaked"]["usd"]) + usd(parts["staked"]["usd"]))
            assert close(kinds["vaults"]["usd"], usd(parts["vaults"]["usd"]))
            assert close(kinds["liquidityFees"]["usd"], usd(parts["fees"]["usd"]))
            assert close(kinds["emissions"]["usd"], usd(parts["emissions"]["usd"]))
            assert kinds["liquidity"]["usdComplete"] == (parts["unstaked"]["usdComplete"] and parts["staked"]["usdComplete"])
            vc = next(c for c in voting["chains"] if c["chainId"] == cid)
            core_price = prices.get((cid, stack.settings.chains[cid].contracts["coreToken"].lower()))
            if vc["locked"]["value"] is not None and core_price is not None:
                assert close(kinds["locked"]["usd"], Fraction(vc["locked"]["value"]) * Fraction(core_price["priceUsd"]))
                checked["locked"] += Fraction(vc["locked"]["value"]) > 0
            assert kinds["locked"]["status"] == vc["status"]
            xc = next((c for c in xcore["chains"] if c["chainId"] == cid), None)
            if xc is None:
                assert kinds["xcore"]["status"] == "unsupported"
            elif xc["worth"]["value"] is not None and core_price is not None:
                assert close(kinds["xcore"]["usd"], Fraction(xc["worth"]["value"]) * Fraction(core_price["priceUsd"]))
                checked["xcore"] += Fraction(xc["worth"]["value"]) > 0
            rc = next(c for c in rewards["chains"] if c["chainId"] == cid)
            claimable = [k for k in rc["byKind"] if k["status"] == "claimable" and k["kind"] != "emission"]
            assert close(kinds["rewards"]["usd"], sum((usd(k["usd"]) for k in claimable), Fraction(0)))
            emitted = [k for k in rc["byKind"] if k["status"] == "claimable" and k["kind"] == "emission"]
            assert close(kinds["emissions"]["usd"], sum((usd(k["usd"]) for k in emitted), Fraction(0)))
            assert kinds["rewards"]["usdComplete"] == (rc["complete"] and all(k["usdComplete"] for k in claimable))
            seen |= {k for k, v in kinds.items() if v["usd"] not in (None, "0")}
        for total in data["totals"]:
            parts = [next(k for k in c["kinds"] if k["kind"] == total["kind"]) | {"chainId": c["chainId"]}
                     for c in data["chains"]]
            have = [p for p in parts if p["status"] != "unsupported"]
            assert close(total["usd"], sum((usd(p["usd"]) for p in have), Fraction(0)))
            assert total["usdComplete"] == all(p["usdComplete"] for p in have)
        held = [t for t in data["totals"] if t["kind"] in data["holdings"]["kinds"]]
        assert data["holdings"]["kinds"] == ["liquidity", "vaults", "locked", "xcore"]
        assert close(data["holdings"]["usd"], sum((usd(t["usd"]) for t in held), Fraction(0)))
    assert {"liquidity", "vaults", "liquidityFees", "emissions", "locked", "xcore"} <= seen, seen
    assert checked["locked"] and checked["xcore"], checked


def test_an_address_with_nothing_is_zero_not_missing(api):
    data, meta = api.data(f"/v1/accounts/{NOBODY}/portfolio")
    assert {c["chainId"] for c in data["chains"]} == {c["chainId"] for c in meta["chains"]}
    for chain in data["chains"]:
        for k in chain["kinds"]:
            assert k["status"] in ("observed", "unsupported"), (chain["chainId"], k)
            assert k["usd"] == ("0" if k["status"] == "observed" else None), (chain["chainId"], k)
    assert data["holdings"]["usd"] == "0" and data["prices"] == []


def test_a_malformed_address_is_400(api):
    r = api.get("/v1/accounts/0x12/portfolio")
    assert r.status_code == 400 and r.json()["error"]["code"] == "invalid_address"
