"""/v1/accounts/{address}/rewards over the session's backfilled chains, against the devnet's Voter
checkpoints (truth `account-rewards`, computed from the simulation's allocations, bribes and fees,
never from the subgraph): for a handful of owners per chain (the foundation, which claims every
epoch; the owner of the most veNFTs; both sides of the newest veNFT transfer, whose earlier rewards
left with the veNFT), every claimable reward (owned veNFT, ended epoch, gauge, kind, token, exact
amount) and every claim paid to the address, as far as the chain's governance events are indexed;
no reward is both; the per-chain totals are the rows' sums; a claimable amount's USD is the amount
times the snapshot's price of its token, and null for the token without a price (an owner with
such a reward is among those picked); traversals equal
the unpaged answer; filters select what they name; an address with nothing is 200 with no rows.
Every answer is checked against /openapi.json."""
from __future__ import annotations

import calendar
import time
from fractions import Fraction

import httpx
import pytest

from session_api import v1_server
from support.contract_check import CheckedClient

NOBODY = "0x" + "5a" * 20
WEEK = 7 * 86400


def unix(text: str) -> int:
    return calendar.timegm(time.strptime(text, "%Y-%m-%dT%H:%M:%SZ"))


def iso(ts: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ts))


@pytest.fixture(scope="module")
def api(stack, tmp_path_factory):
    with v1_server(stack, tmp_path_factory.mktemp("v1-accounts-rewards")) as server, httpx.Client(timeout=60) as http:
        yield CheckedClient(server.url, http)


def every_row(api, path: str, limit: int = 500) -> tuple[list[dict], dict]:
    path += ("&" if "?" in path else "?") + f"limit={limit}"
    first = api.get(path)
    assert first.status_code == 200, (path, first.text)
    return api.every_row(path)


@pytest.fixture(scope="module")
def answers(api, stack) -> dict[tuple[int, str], tuple[list[dict], dict, dict]]:
    """Per (chain, owner): the served rows of that chain, its chain record and the devnet's truth
    at the chain's snapshot block as far as its governance events are indexed."""
    _, body = every_row(api, f"/v1/accounts/{NOBODY}/rewards")
    out = {}
    for chain in body["data"]["chains"]:
        if chain["status"] != "observed":
            continue
        cid = chain["chainId"]
        sim = stack.devnet.sim(cid)
        at = sim.block_ts(chain["blockNumber"])
        held = {o: sim.gov.tokens_of_owner(o, at) for o in sim.gov.owner_tokens}
        picked = [sim.gov.chain.foundation_wallet.lower(), max(held, key=lambda o: (len(held[o]), o))]
        moved = [m for m in sim.gov.escrow_events if m["timestamp"] <= at and m["kind"] == "transfer"]
        picked += [moved[-1]["from"], moved[-1]["to"]] if moved else []
        picked += holders_of_unpriced_rewards(sim, at)[:1]
        for address in dict.fromkeys(picked):
            rows, first = every_row(api, f"/v1/accounts/{address}/rewards?chainIds={cid}")
            record = first["data"]["chains"][0]
            until = unix(record["coverage"]["indexedUntil"])
            truth = stack.truth("account-rewards", cid, owner=address, block=record["blockNumber"], until=until)
            out[(cid, address)] = (rows, record, truth)
    assert len({cid for cid, _ in out}) >= 2
    return out


@pytest.fixture(scope="module")
def ended(stack, answers) -> bool:
    """Whether an epoch has ended within some chain's indexed events: the session's chains are six
    days old, so minutes into an epoch (a Thursday just after 00:00 UTC) none has, and no reward
    is earned or claimed anywhere yet (every answer is then empty, as the truth is)."""
    return any(stack.devnet.sim(cid).gov.first_epoch + WEEK <= unix(record["coverage"]["indexedUntil"])
               for (cid, _), (_, record, _) in answers.items())


def holders_of_unpriced_rewards(sim, at: int) -> list[str]:
    """Owners at `at` of veNFTs voting, at an ended epoch's end, for a target bribed in the token
    without a price that epoch, and not yet paid for it (the newest epochs first)."""
    unpriced, out = sim.gov.chain.unpriced.id, []
    claimed = {(int(c["veNFT"]), c["epoch"]) for c in sim.gov.claims if c["timestamp"] <= at}
    for b in reversed(sim.gov.bribes):
        if b["token"] != unpriced or b["epoch"] + WEEK > at - 2 * 3600:
            continue
        for row in sim.gov.book.rows_by_epoch.get(b["epoch"], ()):
            tid = int(row["veNFT"])
            state = sim.gov.lock_state(tid, at)
            if row["target"] == b["target"] and (tid, b["epoch"]) not in claimed and state and state[0] > 0:
                out.append(state[3])
    return list(dict.fromkeys(out))


def key(r: dict) -> tuple:
    return (int(r["tokenId"]), unix(r["epochStart"]), r["gauge"], r["token"]["address"], r["kind"])


def test_each_owners_rewards_are_the_voters_checkpoints(stack, answers, ended):
    claimable = claimed = 0
    for (cid, address), (rows, record, truth) in answers.items():
        assert record["complete"] and record["coverage"]["fromDeployment"], record
        served = {key(r): r for r in rows if r["kind"] in ("bribe", "fee")}  # the Voter's (rebases: the distributor's)
        assert len(served) == len([r for r in rows if r["kind"] in ("bribe", "fee")])
        want_open = {(t["tokenId"], t["epoch"], t["gauge"], t["token"], t["kind"]): t for t in truth["claimable"]}
        want_paid = {(t["tokenId"], t["epoch"], t["gauge"], t["token"], t["kind"]): t for t in truth["claimed"]}
        assert not want_open.keys() & want_paid.keys()
        assert {k for k, r in served.items() if r["status"] == "claimable"} == want_open.keys(), (cid, address)
        assert {k for k, r in served.items() if r["status"] == "claimed"} == want_paid.keys(), (cid, address)
        for k, r in served.items():
            t = want_open.get(k) or want_paid[k]
            assert r["amount"]["raw"] == t["amount"] and r["chainId"] == cid
            if r["status"] == "claimed":
                assert r["claim"] == {"at": iso(t["timestamp"]), "blockNumber": t["blockNumber"],
                                      "transactionHash": t["transactionHash"]}
                assert r["value"]["basis"] == "at_claim"
                assert (r["value"]["usd"] is None) == (t["amountUSD"] is None)
                if t["amountUSD"] is not None:
                    assert abs(float(r["value"]["usd"]) - t["amountUSD"]) <= 1e-9 * max(1.0, t["amountUSD"])
            else:
                assert r["claim"] is None and r["value"]["basis"] == "current_price"
            assert unix(r["epochStart"]) + 7 * 86400 <= unix(record["coverage"]["indexedUntil"])
        claimable += len(want_open)
        claimed += len(want_paid)
    assert (claimable > 20 and claimed > 20) if ended else claimable == claimed == 0  # the owners picked have both


def test_totals_are_the_sums_of_every_row(answers):
    for (cid, _), (rows, record, _) in answers.items():
        sums: dict[tuple, list] = {}
        for r in rows:
            s = sums.setdefault((r["kind"], r["status"], r["token"]["address"]), [0, 0])
            s[0] += int(r["amount"]["raw"])
            s[1] += 1
        assert {(t["kind"], t["status"], t["token"]["address"]): [int(t["amount"]["raw"]), t["rewards"]]
                for t in record["totals"]} == sums
        for k in record["byKind"]:
            parts = [t for t in record["totals"] if (t["kind"], t["status"]) == (k["kind"], k["status"])]
            assert k["tokens"] == len(parts) and k["usdComplete"] == all(t["usdComplete"] for t in parts)
            known = [Fraction(t["usd"]) for t in parts if t["usd"] is not None]
            assert (k["usd"] is None) == (not known)
            if known:
                assert abs(Fraction(k["usd"]) - sum(known)) < Fraction(len(known), 10 ** 36)


def test_a_claimable_amount_is_worth_its_amount_at_the_snapshot_price(stack, answers, ended):
    priced = unpriced = 0
    for (cid, _), (rows, record, _) in answers.items():
        sim = stack.devnet.sim(cid)
        for r in rows:
            if r["status"] != "claimable":
                continue
            value = r["value"]
            if r["token"]["address"] == sim.gov.chain.unpriced.id:
                assert value["usd"] is None and value["price"] is None and value["reason"], r
                unpriced += 1
                continue
            assert value["reason"] is None and value["price"]["sampledAt"] == record["snapshotAt"], r
            exact = Fraction(int(r["amount"]["raw"]), 10 ** r["token"]["decimals"]) * Fraction(value["price"]["priceUsd"])
            assert abs(exact - Fraction(value["usd"])) < Fraction(1, 10 ** 30)  # priceUsd is truncated at 36 places
            priced += r["kind"] != "emission"  # emissions stream in any epoch, ended or not
    assert (priced > 20 and unpriced > 0) if ended else priced == unpriced == 0


def test_a_traversal_equals_the_unpaged_answer_and_filters_select_what_they_name(api, answers, ended):
    (cid, address), (rows, _, _) = max(answers.items(), key=lambda item: len(item[1][0]))
    if not ended:  # a veNFT's rewards wait for an epoch's end (emissions do not)
        assert [r for r in rows if r["kind"] != "emission"] == []
        return
    assert len(rows) > 40
    paged, first = every_row(api, f"/v1/accounts/{address}/rewards?chainIds={cid}", limit=7)
    assert paged == rows and first["pageInfo"]["hasNextPage"]
    epochs = [(r["chainId"], -unix(r["epochStart"])) for r in rows]
    assert epochs == sorted(epochs)  # newest epoch first on each chain
    for status in ("claimable", "claimed"):
        only, _ = every_row(api, f"/v1/accounts/{address}/rewards?chainIds={cid}&status={status}")
        assert only == [r for r in rows if r["status"] == status]
    only, body = every_row(api, f"/v1/accounts/{address}/rewards?chainIds={cid}&kind=fee")
    assert only == [r for r in rows if r["kind"] == "fee"] and only
    assert {t["kind"] for t in body["data"]["chains"][0]["totals"]} == {"fee"}


def test_every_kind_is_listed_with_its_note(api):
    body = api.get(f"/v1/accounts/{NOBODY}/rewards?kind=emission").json()
    assert body["data"]["rows"] == []
    assert [(k["kind"], k["indexed"]) for k in body["data"]["kinds"]] == [
        ("bribe", True), ("fee", True), ("rebase", True), ("emission", True)]
    assert all(k["note"] for k in body["data"]["kinds"])


def test_emissions_are_the_positions_unclaimed_ones_and_their_claims(stack, api):
    """Per chain, for the three providers with the most emission claims: the claimable emission rows
    are the devnet's unclaimed emissions of their open positions at the snapshot block (truth
    account-liquidity), the claimed ones its claims (a claim, or an unstake that claims) before the
    liquidity events' indexedUntil; none is both."""
    from devnet.sim import liquidity_truth

    _, body = every_row(api, f"/v1/accounts/{NOBODY}/rewards?kind=emission")
    open_rows = paid_rows = 0
    for chain in body["data"]["chains"]:
        if chain["emissions"]["status"] != "observed":
            continue
        cid, block = chain["chainId"], chain["blockNumber"]
        sim = stack.devnet.sim(cid)
        until = unix(chain["emissions"]["coverage"]["indexedUntil"])
        claims: dict[str, list[dict]] = {}
        for e in sim.liquidity.events:
            if e.get("emissions") and e["timestamp"] < until:
                claims.setdefault(e["owner"], []).append(e)
        for owner in sorted(claims, key=lambda o: (-len(claims[o]), o))[:3]:
            rows, first = every_row(api, f"/v1/accounts/{owner}/rewards?chainIds={cid}&kind=emission")
            assert first["data"]["chains"][0]["emissions"]["coverage"]["fromDeployment"]
            truth = liquidity_truth.account_liquidity(sim, owner, block)["positions"]
            want_open = {(f"cl:{p['tokenId']}" if p["kind"] == "cl" else f"v2:{p['pool'].lower()}"):
                         (p["emissions"], p["gauge"].lower() if p["gauge"] else None)
                         for p in truth if int(p["emissions"]) > 0}
            got_open = {r["positionId"]: (r["amount"]["raw"], r["gauge"]) for r in rows if r["status"] == "claimable"}
            assert got_open == want_open, (cid, owner)
            want_paid = {(e["position"].replace(f"v2:{owner}:", "v2:"), e["transactionHash"]): str(e["emissions"])
                         for e in claims[owner]}
            got_paid = {(r["positionId"], r["claim"]["transactionHash"]): r["amount"]["raw"]
                        for r in rows if r["status"] == "claimed"}
            assert got_paid == want_paid, (cid, owner)
            for r in rows:
                assert r["kind"] == "emission" and r["tokenId"] is None and r["token"]["address"] == sim.core.id
                if r["status"] == "claimed":
                    assert r["value"]["basis"] == "at_claim" and r["value"]["usd"] is not None
                    assert unix(r["epochStart"]) == unix(r["claim"]["at"]) // WEEK * WEEK
                else:
                    assert unix(r["epochStart"]) == unix(chain["snapshotAt"]) // WEEK * WEEK
            open_rows += len(got_open)
            paid_rows += len(got_paid)
    assert open_rows > 0 and paid_rows > 0


def test_an_address_with_nothing_and_bad_input(api):
    body = api.get(f"/v1/accounts/{NOBODY}/rewards").json()
    assert body["data"]["rows"] == [] and body["data"]["address"] == NOBODY
    assert all(c["totals"] == [] and c["byKind"] == [] for c in body["data"]["chains"])
    for path, code in (("/v1/accounts/0x12/rewards", "invalid_address"),
                       (f"/v1/accounts/{NOBODY}/rewards?status=paid", "invalid_status"),
                       (f"/v1/accounts/{NOBODY}/rewards?kind=all", "invalid_kind"),
                       (f"/v1/accounts/{NOBODY}/rewards?limit=0", "invalid_limit")):
        r = api.get(path)
        assert (r.status_code, r.json()["error"]["code"]) == (400, code), path
