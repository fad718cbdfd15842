"""Liquidity positions over the session's backfilled chains, against the devnet's providers
(devnet/sim/liquidity.py): the rows stored at each chain's newest snapshot are every open position
of every provider there, with the amounts, fees and emissions of the devnet's truth at the block;
/v1/accounts/{address}/liquidity-positions serves them for a handful of providers per chain (legs
kept apart, ranges, values at the prices it lists, per-chain totals that are the rows' sums), pages
concatenate to the unpaged answer, and an address with nothing is 200 with no rows. Every answer is
checked against /openapi.json."""
from __future__ import annotations

import time
from fractions import Fraction

import httpx
import pytest

from devnet.sim import liquidity_truth
from orchestration_session import CHAINS
from session_api import v1_server
from support.contract_check import CheckedClient


def iso(ts: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ts))


def test_stored_positions_are_the_devnets_at_the_newest_snapshot(stack):
    newest = stack.query("SELECT chain_id, max(snapshot_at), argMax(block_number, snapshot_at), "
                         "argMax(positions, snapshot_at) FROM liquidity_position_reads FINAL GROUP BY chain_id")
    assert {r[0] for r in newest} == set(CHAINS)
    for cid, at, block, count in newest:
        sim = stack.devnet.sim(cid)
        stored = stack.query(
            "SELECT account, position_id, toString(liquidity_raw), toString(staked_raw), toString(amount0_raw), "
            "toString(amount1_raw), toString(staked0_raw), toString(staked1_raw), toString(fees0_raw), "
            "toString(fees1_raw), toString(emissions_raw), tick_lower, tick_upper FROM liquidity_position_snap15m FINAL "
            "WHERE chain_id = {c:UInt32} AND snapshot_at = {t:DateTime64(3, 'UTC')}", c=cid, t=at)
        assert len(stored) == count > 0
        want = {}
        for owner in sim.liquidity.providers:
            for p in liquidity_truth.account_liquidity(sim, owner, block)["positions"]:
                key = (owner, f"cl:{p['tokenId']}" if p["kind"] == "cl" else f"v2:{p['pool'].lower()}")
                if p["kind"] == "cl":
                    a = (p["amount0"], p["amount1"], "0", "0") if not p["staked"] else ("0", "0", p["amount0"], p["amount1"])
                    want[key] = (p["liquidity"], str(int(p["staked"])), *a, p["fees0"], p["fees1"], p["emissions"],
                                 p["tickLower"], p["tickUpper"])
                else:
                    want[key] = (p["lp"], p["stakedLp"], p["amount0"], p["amount1"], p["staked0"], p["staked1"],
                                 p["fees0"], p["fees1"], p["emissions"], None, None)
        assert {(r[0], r[1]): tuple(r[2:]) for r in stored} == want, cid


NOBODY = "0x" + "5a" * 20


@pytest.fixture(scope="module")
def api(stack, tmp_path_factory):
    with v1_server(stack, tmp_path_factory.mktemp("v1-accounts-liquidity")) as server, httpx.Client(timeout=60) as http:
        yield CheckedClient(server.url, http)


def every_row(api, path: str, limit: int = 500) -> tuple[list[dict], dict]:
    return api.every_row(path + ("&" if "?" in path else "?") + f"limit={limit}")


@pytest.fixture(scope="module")
def owners(api, stack) -> dict[int, list[str]]:
    """Per chain: the provider with the most positions at the snapshot, a voter who provides, and one
    with v2 LP both in the wallet and staked, when the devnet has them."""
    _, body = every_row(api, f"/v1/accounts/{NOBODY}/liquidity-positions")
    out = {}
    for chain in body["data"]["chains"]:
        sim = stack.devnet.sim(chain["chainId"])
        at = sim.block_ts(chain["blockNumber"])
        held = {o: sim.liquidity.positions_of(o, at) for o in sim.liquidity.providers}
        picked = [max(held, key=lambda o: (len(held[o]), o))]
        picked += [o for o in held if o in set(sim.gov.voters) and held[o]][:1]
        picked += [o for o, ps in held.items() if any(p["kind"] == "v2" and p["wallet"] and p["stakedLp"] for p in ps)][:1]
        out[chain["chainId"]] = list(dict.fromkeys(picked))
    return out


def close(usd: str | None, want: Fraction) -> bool:
    return usd is not None and abs(Fraction(usd) - want) <= max(abs(want), 1) * Fraction(1, 10 ** 30)


def test_each_position_is_the_chains_at_the_snapshot_block(api, stack, owners):
    seen = set()
    for cid, addresses in owners.items():
        for address in addresses:
            rows, body = every_row(api, f"/v1/accounts/{address}/liquidity-positions")
            data = body["data"]
            chain = next(c for c in data["chains"] if c["chainId"] == cid)
            assert chain["status"] == "observed" and chain["complete"], chain
            truth = stack.truth("account-liquidity", cid, owner=address, block=chain["blockNumber"])
            served = [r for r in rows if r["chainId"] == cid]
            assert [r["positionId"] for r in served] == sorted(
                f"cl:{p['tokenId']}" if p["kind"] == "cl" else f"v2:{p['pool'].lower()}" for p in truth["positions"])
            prices = {(p["chainId"], p["token"]["address"]): p for p in data["prices"]}
            by_id = {(f"cl:{p['tokenId']}" if p["kind"] == "cl" else f"v2:{p['pool'].lower()}"): p for p in truth["positions"]}
            for r in served:
                t = by_id[r["positionId"]]
                assert r["observation"] == {"blockNumber": chain["blockNumber"], "at": iso(truth["timestamp"])}
                assert r["pool"]["address"] == t["pool"].lower()
                assert (r["pool"]["token0"]["address"], r["pool"]["token1"]["address"]) == (
                    t["token0"]["address"].lower(), t["token1"]["address"].lower())
                amounts = [(int(leg["amount0"]["raw"]), int(leg["amount1"]["raw"])) for leg in r["legs"]]
                if r["kind"] == "cl":
                    assert r["tokenId"] == str(t["tokenId"]) and r["staked"] is t["staked"]
                    assert [leg["where"] for leg in r["legs"]] == ["gauge" if t["staked"] else "wallet"]
                    assert r["legs"][0]["liquidity"]["raw"] == t["liquidity"]
                    assert amounts == [(int(t["amount0"]), int(t["amount1"]))]
                    assert (r["range"]["tickLower"], r["range"]["tickUpper"], r["range"]["inRange"]) == (
                        t["tickLower"], t["tickUpper"], t["inRange"])
                else:
                    legs = [("wallet", t["lp"], (int(t["amount0"]), int(t["amount1"]))),
                            ("gauge", t["stakedLp"], (int(t["staked0"]), int(t["staked1"])))]
                    want = [(w, lp, a) for w, lp, a in legs if int(lp)]
                    assert [(leg["where"], leg["liquidity"]["raw"], a) for leg, a in zip(r["legs"], amounts)] == want
                    assert r["range"] is None and r["tokenId"] is None
                    seen.add(("v2", tuple(w for w, _, _ in want)))
                fees = r["uncollectedFees"]
                assert (fees["amount0"]["raw"], fees["amount1"]["raw"], r["emissions"]["amount"]["raw"]) == (
                    t["fees0"], t["fees1"], t["emissions"])
                assert r["emissions"]["token"]["address"] == t["emissionsToken"]["address"].lower()
                # every value is the amounts at the prices the answer lists
                for leg, (a0, a1) in zip(r["legs"], amounts):
                    parts = [(r["pool"]["token0"], a0), (r["pool"]["token1"], a1)]
                    quotes = [prices.get((cid, tok["address"])) for tok, raw in parts if raw]
                    if all(q and q["price"] for q in quotes):
                        want = sum((Fraction(raw, 10 ** tok["decimals"]) * Fraction(prices[(cid, tok["address"])]["price"]["priceUsd"])
                                    for tok, raw in parts if raw), Fraction(0))
                        assert close(leg["usd"], want), (leg, want)
                    else:
                        assert leg["usd"] is None and not leg["usdComplete"]
                seen.add((r["kind"], r["staked"]))
            assert chain["positions"] == len(truth["positions"])
            # the totals are the rows' sums, per part and token
            sums: dict = {}
            for r in served:
                for leg in r["legs"]:
                    part = {"gauge": "staked", "wallet": "unstaked", "vault": "vaults"}[leg["where"]]
                    for tok, q in ((r["pool"]["token0"], leg["amount0"]), (r["pool"]["token1"], leg["amount1"])):
                        sums[(part, tok["address"])] = sums.get((part, tok["address"]), 0) + int(q["raw"])
                f = r["uncollectedFees"]
                for tok, q in ((r["pool"]["token0"], f["amount0"]), (r["pool"]["token1"], f["amount1"])):
                    sums[("fees", tok["address"])] = sums.get(("fees", tok["address"]), 0) + int(q["raw"])
                e = r["emissions"]
                sums[("emissions", e["token"]["address"])] = sums.get(("emissions", e["token"]["address"]), 0) + int(e["amount"]["raw"])
            assert {(p["part"], t["token"]["address"]): int(t["amount"]["raw"]) for p in chain["totals"]
                    for t in p["tokens"]} == {k: v for k, v in sums.items() if v}
            assert all(c["positions"] == 0 for c in data["chains"] if c["chainId"] != cid and c["status"] == "observed")
    assert {("cl", True), ("cl", False), ("v2", True), ("v2", False), ("v2", ("wallet", "gauge"))} <= seen, seen


def test_vault_shares_are_the_devnets(api, stack):
    """The busiest vault user of each chain with vaults: its open shares at the snapshot (the sum of
    its moves) and their part of the vault's totals, as the devnet's vault truth has them."""
    checked = 0
    _, body = every_row(api, f"/v1/accounts/{NOBODY}/liquidity-positions")
    for chain in body["data"]["chains"]:
        sim = stack.devnet.sim(chain["chainId"])
        if chain["vaults"] is None:
            assert not sim.vaults.vaults
            continue
        user = max(sim.vaults.by_user, key=lambda u: (len(sim.vaults.by_user[u]), u))
        rows, first = every_row(api, f"/v1/accounts/{user}/liquidity-positions?kind=vault&chainIds={chain['chainId']}")
        entry = first["data"]["chains"][0]
        truth = stack.truth("vault-positions", chain["chainId"], user=user, block=entry["blockNumber"])
        held = [p for p in truth["positions"] if p["shares"] != "0"]
        assert [r["vault"] for r in rows] == sorted(p["vault"].lower() for p in held)
        by_vault = {p["vault"].lower(): p for p in held}
        for r in rows:
            (leg,) = r["legs"]
            t = by_vault[r["vault"]]
            assert r["kind"] == "vault" and r["positionId"] == f"vault:{r['vault']}" and leg["where"] == "vault"
            if entry["vaults"]["fromDeployment"]:
                assert (leg["liquidity"]["raw"], leg["amount0"]["raw"], leg["amount1"]["raw"]) == (
                    t["shares"], t["amount0"], t["amount1"])
                checked += 1
            else:
                assert leg["liquidity"]["raw"] is None and leg["usd"] is None and not entry["complete"]
        vault_part = next(p for p in entry["totals"] if p["part"] == "vaults")
        assert {t["token"]["address"] for t in vault_part["tokens"]} <= {
            a for r in rows for a in (r["pool"]["token0"]["address"], r["pool"]["token1"]["address"])}
    assert checked


def test_a_traversal_equals_the_unpaged_answer_and_kind_filters(api, owners):
    address = max((a for addresses in owners.values() for a in addresses),
                  key=lambda a: len(every_row(api, f"/v1/accounts/{a}/liquidity-positions")[0]))
    rows, body = every_row(api, f"/v1/accounts/{address}/liquidity-positions")
    assert len(rows) > 2
    paged, last = every_row(api, f"/v1/accounts/{address}/liquidity-positions", limit=2)
    assert paged == rows and last["data"]["chains"] == body["data"]["chains"]
    keys = [(r["chainId"], r["positionId"]) for r in rows]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    for kind in ("v2", "cl"):
        only, first = every_row(api, f"/v1/accounts/{address}/liquidity-positions?kind={kind}")
        assert only == [r for r in rows if r["kind"] == kind]
        assert sum(c["positions"] or 0 for c in first["data"]["chains"]) == len(only)


def test_an_address_with_nothing_is_empty_not_missing(api):
    data, meta = api.data(f"/v1/accounts/{NOBODY}/liquidity-positions")
    assert data["rows"] == [] and data["prices"] == []
    for c in data["chains"]:
        assert (c["status"], c["positions"], c["complete"]) == ("observed", 0, True), c
        assert all(p["tokens"] == [] and p["usd"] == "0" and p["usdComplete"] for p in c["totals"])
    assert len(data["chains"]) == len(meta["chains"])
