"""/v1/accounts/{address}/voting-positions and /votes over the session's backfilled chains, against
the devnet's VotingEscrow and Voter. For a handful of owners on every chain (the foundation, the
owner of the most veNFTs, both sides of a transfer, a merger, owners of an expired and of a
withdrawn lock): the veNFTs listed are the ones the devnet's truth (`account-venfts`) says the
address owns at the chain's snapshot block, each with its lock and voting power at that block and
the Voter's allocation and last vote where the chain's governance events end; the per-chain sums
are theirs; pages concatenate to the unpaged answer. An address with nothing is 200 with no rows.
/votes is /v1/votes with the address as voter, and its logs are the devnet's logs of veNFTs the
address owned then. Every answer is checked against /openapi.json."""
from __future__ import annotations

import calendar
import time
from fractions import Fraction

import httpx
import pytest

from session_api import v1_server
from support.contract_check import CheckedClient

NOBODY = "0x" + "5a" * 20
E18 = 10 ** 18
WEEK = 7 * 86400


def unix(text: str) -> int:
    return calendar.timegm(time.strptime(text, "%Y-%m-%dT%H:%M:%SZ"))


def iso(ts: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ts))


def exact(q: dict, raw: int) -> bool:
    return q["raw"] == str(raw) and 0 <= Fraction(raw, E18) - Fraction(q["value"]) < Fraction(1, 10 ** 36)


@pytest.fixture(scope="module")
def api(stack, tmp_path_factory):
    with v1_server(stack, tmp_path_factory.mktemp("v1-accounts-voting")) as server, httpx.Client(timeout=60) as http:
        yield CheckedClient(server.url, http)


def every_row(api, path: str, limit: int = 500) -> tuple[list[dict], dict]:
    """Every row of the traversal in pages of `limit`, and its first page's body."""
    return api.every_row(path + ("&" if "?" in path else "?") + f"limit={limit}")


@pytest.fixture(scope="module")
def owners(api, stack) -> dict[int, list[str]]:
    """Per chain of the answer: its foundation, the owner of the most veNFTs at the snapshot, both
    sides of the newest transfer and the owner of the newest merge before it, and the owners of an
    expired and of a withdrawn lock there when the devnet has them, and the owner of the newest split."""
    _, body = every_row(api, f"/v1/accounts/{NOBODY}/voting-positions")
    out = {}
    for chain in body["data"]["chains"]:
        sim = stack.devnet.sim(chain["chainId"])
        at = sim.block_ts(chain["blockNumber"])
        held = {o: sim.gov.tokens_of_owner(o, at) for o in sim.gov.owner_tokens}
        picked = [sim.gov.chain.foundation_wallet.lower(), max(held, key=lambda o: (len(held[o]), o))]
        moves = [m for m in sim.gov.escrow_events if m["timestamp"] <= at]
        for kind in ("transfer", "merge"):
            picked += next(([m["from"], m["to"]] for m in reversed(moves) if m["kind"] == kind), [])
        picked += next(([m["to"]] for m in reversed(moves) if m["kind"] == "split" and m["splitFrom"]), [])
        for wanted in ("expired", "withdrawn"):
            for o, tids in sorted(held.items()):
                states = [sim.gov.lock_state(t, at) for t in sim.gov.owner_tokens[o]]
                if wanted == "expired" and any(s and not s[2] and 0 < s[1] <= at and s[0] > 0 for s in states):
                    picked.append(o)
                    break
                if wanted == "withdrawn" and not tids and states:
                    picked.append(o)
                    break
        out[chain["chainId"]] = list(dict.fromkeys(picked))
    return out


def test_each_owners_veNFTs_are_the_escrows_at_the_snapshot_block(api, stack, owners):
    kinds, moved = set(), 0
    for cid, addresses in owners.items():
        sim = stack.devnet.sim(cid)
        for address in addresses:
            rows, body = every_row(api, f"/v1/accounts/{address.upper().replace('0X', '0x')}/voting-positions")
            data = body["data"]
            assert data["address"] == address
            chain = next(c for c in data["chains"] if c["chainId"] == cid)
            assert chain["status"] == "observed" and chain["coverage"]["fromDeployment"], chain
            truth = stack.truth("account-venfts", cid, owner=address, block=chain["blockNumber"])
            at, until = truth["timestamp"], unix(chain["coverage"]["indexedUntil"])
            assert at <= unix(chain["snapshotAt"])
            served = [r for r in rows if r["chainId"] == cid]
            assert [r["tokenId"] for r in served] == list(truth["tokens"]), (cid, address)
            for r in served:
                lock = truth["tokens"][r["tokenId"]]
                assert r["observation"] == {"blockNumber": chain["blockNumber"], "at": iso(at)}
                status = "permanent" if lock["permanent"] else "decaying" if lock["unlockTime"] > at else "expired"
                assert (r["status"], r["unlockAt"]) == (status, lock["unlockTime"] and iso(lock["unlockTime"]))
                assert exact(r["locked"], int(lock["locked"])) and exact(r["votingPower"], int(lock["votingPower"]))
                # the allocation and last vote where the chain's governance events end
                allocation = dict(sorted(sim.gov.book.allocation(int(r["tokenId"]), until - 1).items()))
                voted = sim.gov.last_voted(int(r["tokenId"]), until - 1)
                assert [(a["target"], int(a["weight"]["raw"])) for a in r["allocation"]] == list(allocation.items())
                assert exact(r["usedWeight"], sum(allocation.values()))
                assert (r["lastVotedAt"], r["lastVotedEpoch"]) == (
                    (iso(voted), iso(voted - voted % WEEK)) if voted else (None, None))  # 1970-01-01: a Thursday
                assert (r["lastAction"] is None) == (not any(
                    e["tokenId"] == int(r["tokenId"]) and e["timestamp"] < until for e in sim.gov.book.events))
                kinds.add(r["status"])
            assert chain["positions"] == len(truth["tokens"])
            assert exact(chain["locked"], sum(int(t["locked"]) for t in truth["tokens"].values()))
            assert exact(chain["votingPower"], sum(int(t["votingPower"]) for t in truth["tokens"].values()))
            moved += sum(e["kind"] == "transfer" for e in truth["events"])
            # the devnet's owners are per chain: on the others the address owns nothing
            assert all(c["positions"] == 0 for c in data["chains"] if c["chainId"] != cid and c["status"] == "observed")
    assert {"permanent", "decaying"} <= kinds and moved  # owners whose veNFTs changed hands are among them


def test_a_traversal_equals_the_unpaged_answer(api, owners):
    address = max((a for addresses in owners.values() for a in addresses),
                  key=lambda a: len(every_row(api, f"/v1/accounts/{a}/voting-positions")[0]))
    rows, body = every_row(api, f"/v1/accounts/{address}/voting-positions")
    assert len(rows) > 2
    paged, last = every_row(api, f"/v1/accounts/{address}/voting-positions", limit=2)
    assert paged == rows and last["data"]["chains"] == body["data"]["chains"]
    keys = [(r["chainId"], int(r["tokenId"])) for r in rows]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)


def test_an_address_with_nothing_is_empty_not_missing(api):
    data, meta = api.data(f"/v1/accounts/{NOBODY}/voting-positions")
    assert data["rows"] == []
    for c in data["chains"]:
        assert (c["status"], c["positions"], c["locked"]["raw"], c["votingPower"]["raw"]) == ("observed", 0, "0", "0")
        # complete unless the chain's governance events are behind its snapshot (the lagging chain's are)
        assert c["complete"] is not c["coverage"]["behind"], c
    fresh = all(c["state"] == "fresh" for c in meta["chains"])  # the lagging chain's snapshot is stale
    assert meta["complete"] is (fresh and all(c["complete"] for c in data["chains"])), meta
    assert any(c["complete"] for c in data["chains"]) and len(data["chains"]) == len(meta["chains"])
    events, _ = api.data(f"/v1/accounts/{NOBODY}/votes")
    current, _ = api.data(f"/v1/accounts/{NOBODY}/votes?view=current")
    assert events["rows"] == [] and current["rows"] == []


def test_votes_are_v1_votes_of_the_voter_and_the_devnets_logs(api, stack, owners):
    for cid, addresses in owners.items():
        sim = stack.devnet.sim(cid)
        for address in addresses:
            for view in ("events", "current"):
                mine, body = every_row(api, f"/v1/accounts/{address}/votes?view={view}&chainIds={cid}", limit=3)
                theirs, _ = every_row(api, f"/v1/votes?view={view}&voter={address}&chainIds={cid}")
                assert mine == theirs and body["data"]["filters"]["voter"] == address
            events, body = every_row(api, f"/v1/accounts/{address}/votes?chainIds={cid}")
            cover = body["data"]["coverage"][0]
            since, until = unix(cover["indexedFrom"]), unix(cover["indexedUntil"])
            logged = [e for e in sim.gov.book.events if e["owner"].lower() == address and since <= e["timestamp"] < until]
            assert sorted((r["id"], r["event"], r["target"], int(r["weightRaw"])) for r in events) == sorted(
                (e["id"], e["eventName"], e["target"], e["weight"]) for e in logged), (cid, address)
            current, _ = every_row(api, f"/v1/accounts/{address}/votes?view=current&chainIds={cid}")
            positions, _ = every_row(api, f"/v1/accounts/{address}/voting-positions?chainIds={cid}")
            assert sorted((r["tokenId"], r["target"], r["weightRaw"]) for r in current) == sorted(
                (p["tokenId"], a["target"], a["weight"]["raw"]) for p in positions for a in p["allocation"])


def test_errors_answer_their_codes(api):
    cases = {
        "/v1/accounts/0x1234/voting-positions": (400, "invalid_address"),
        "/v1/accounts/0x1234/votes": (400, "invalid_address"),
        f"/v1/accounts/{NOBODY}/voting-positions?chainIds=999": (404, "chain_not_public"),
        f"/v1/accounts/{NOBODY}/voting-positions?limit=0": (400, "invalid_limit"),
        f"/v1/accounts/{NOBODY}/voting-positions?cursor=abc": (400, "invalid_cursor"),
        f"/v1/accounts/{NOBODY}/votes?view=current&kind=vote": (400, "filter_not_in_view"),
        f"/v1/accounts/{NOBODY}/votes?voter={NOBODY}": (400, "unknown_parameter"),
    }
    for path, (status, code) in cases.items():
        r = api.get(path)
        assert (r.status_code, r.json()["error"]["code"]) == (status, code), path


def test_etag_304_and_head(api, owners):
    address = next(iter(owners.values()))[0]
    for route in ("voting-positions", "votes"):
        path = f"/v1/accounts/{address}/{route}"
        r = api.get(path)
        assert r.status_code == 200 and r.headers["etag"] and "max-age" in r.headers["cache-control"]
        assert api.get(path, headers={"If-None-Match": r.headers["etag"]}).status_code == 304
        head = api.http.head(api.url + path)
        assert head.status_code == 200 and head.content == b""
