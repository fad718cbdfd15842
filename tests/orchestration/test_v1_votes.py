"""/v1/votes over the session's backfilled chains, against the devnet's Voter. view=events: the
allocations in effect before a chain's first indexed second, with every log up to its
indexedUntil replayed in order (kind, event, veNFT, target, signed weight), give the allocations
the devnet's truth holds then for every veNFT (so pokes, resets and carried allocations are all
there), and the last log's total weight is theirs; filters select what they name; the pages of a
traversal concatenate in order. view=current: every veNFT's allocation equals the devnet's at the
chain's indexed end and the events view's logs replayed; each lock's owner and voting power equal
the devnet's VotingEscrow at the snapshot block; filters and traversals as for the events."""
from __future__ import annotations

import calendar
import time

import httpx
import pytest

from devnet import truth_governance
from session_api import v1_server
from support.contract_check import CheckedClient


@pytest.fixture(scope="module")
def api(stack, tmp_path_factory):
    with v1_server(stack, tmp_path_factory.mktemp("v1-votes")) as server, httpx.Client(timeout=60) as http:
        yield CheckedClient(server.url, http)


def unix(text: str) -> int:
    return calendar.timegm(time.strptime(text, "%Y-%m-%dT%H:%M:%SZ"))


def every_log(api, query: str = "", limit: int = 500) -> tuple[list[dict], dict]:
    rows, cursor, body = [], None, None
    while True:
        body = api.get(f"/v1/votes?limit={limit}" + query + (f"&cursor={cursor}" if cursor else "")).json()
        rows += body["data"]["rows"]
        cursor = body["pageInfo"]["nextCursor"]
        if not cursor:
            return rows, body


def test_the_logs_replayed_are_the_devnets_allocations(api, stack):
    rows, body = every_log(api)
    served, logged = set(), set()
    for chain in body["data"]["coverage"]:
        sim, until = stack.devnet.sim(chain["chainId"]), unix(chain["indexedUntil"])
        served |= {(r["kind"], r["event"]) for r in rows if r["chainId"] == chain["chainId"]}
        logged |= {(e["kind"], e["eventName"]) for e in sim.gov.book.events
                   if unix(chain["indexedFrom"]) <= e["timestamp"] < until}
    # every kind of log the devnet's Voter wrote in the indexed spans (which depend on the instant the
    # session starts: a session starting minutes into an epoch has seen no poke or reset yet)
    assert served == logged and ("vote", "Voted") in served
    for chain in body["data"]["coverage"]:
        cid, until = chain["chainId"], unix(chain["indexedUntil"])
        logs = sorted((r for r in rows if r["chainId"] == cid), key=lambda r: (r["blockNumber"], r["logIndex"]))  # chain order
        assert logs and all(unix(r["at"]) < until for r in logs)
        sim = stack.devnet.sim(cid)
        # the allocations in effect before the first indexed second, then every indexed log replayed
        before = truth_governance.venft_allocations(sim, unix(chain["indexedFrom"]) - 1, None)
        allocation = {tid: {t: int(w) for t, w in v["allocation"].items()} for tid, v in before["tokens"].items()}
        for r in logs:
            held = allocation.setdefault(r["tokenId"], {})
            held[r["target"]] = held.get(r["target"], 0) + int(r["deltaRaw"])
            assert held[r["target"]] >= 0
            if not held[r["target"]]:
                del held[r["target"]]
        truth = truth_governance.venft_allocations(sim, until - 1, None)
        expected = {tid: {t: int(w) for t, w in v["allocation"].items()} for tid, v in truth["tokens"].items()}
        assert {t: a for t, a in allocation.items() if a} == expected, cid
        assert logs[-1]["totalWeightAfterRaw"] == str(sum(sum(a.values()) for a in expected.values()))


def test_filters_and_order(api):
    rows, _ = every_log(api)
    keys = [(-unix(r["at"]), r["chainId"], -r["blockNumber"], -r["logIndex"]) for r in rows]
    assert keys == sorted(keys)
    sample = rows[len(rows) // 2]
    cid = sample["chainId"]
    for query, wanted in {
        f"&tokenId={sample['tokenId']}&chainIds={cid}": lambda r: r["tokenId"] == sample["tokenId"] and r["chainId"] == cid,
        f"&kind={sample['kind']}": lambda r: r["kind"] == sample["kind"],
        f"&pool={cid}:{sample['target']}": lambda r: (r["chainId"], r["target"]) == (cid, sample["target"]),
        f"&gauge={sample['gauge']}": lambda r: r["gauge"] == sample["gauge"],
        f"&voter={sample['voter']}": lambda r: r["voter"] == sample["voter"],
        f"&epoch={sample['epochStart']}": lambda r: r["epochStart"] == sample["epochStart"],
    }.items():
        got, _ = every_log(api, query)
        assert got == [r for r in rows if wanted(r)] and got, query
    assert api.get("/v1/votes?view=all").json()["error"]["code"] == "invalid_view"
    assert api.get("/v1/votes?kind=abstain").json()["error"]["code"] == "invalid_kind"


def allocations_of(rows: list[dict], cid: int) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for r in rows:
        if r["chainId"] == cid:
            out.setdefault(r["tokenId"], {})[r["target"]] = int(r["weightRaw"])
    return out


def test_the_current_view_is_the_devnets_allocations_and_voting_power(api, stack):
    rows, body = every_log(api, "&view=current")
    assert body["data"]["view"] == "current" and rows
    events, _ = every_log(api)
    for chain in body["data"]["coverage"]:
        cid, until = chain["chainId"], unix(chain["indexedUntil"])
        # the session's history starts at every chain's genesis: nothing cast before it is missing
        assert chain["fromDeployment"], chain
        sim = stack.devnet.sim(cid)
        truth = truth_governance.venft_allocations(sim, until - 1, None)["tokens"]
        served = allocations_of(rows, cid)
        assert served == {tid: {t: int(w) for t, w in v["allocation"].items()} for tid, v in truth.items()}, cid
        # the events view's logs replayed from nothing give the same allocations
        replayed: dict[str, dict[str, int]] = {}
        for r in sorted((r for r in events if r["chainId"] == cid), key=lambda r: (r["blockNumber"], r["logIndex"])):
            held = replayed.setdefault(r["tokenId"], {})
            held[r["target"]] = held.get(r["target"], 0) + int(r["deltaRaw"])
        assert {t: {k: w for k, w in a.items() if w} for t, a in replayed.items() if any(a.values())} == served
        for r in (r for r in rows if r["chainId"] == cid):
            tid, lock = r["tokenId"], r["lock"]
            assert r["usedWeightRaw"] == truth[tid]["usedWeight"]
            assert unix(r["lastVotedAt"]) == truth[tid]["lastVoted"]
            assert r["lastAction"]["kind"] in ("vote", "poke") and unix(r["lastAction"]["at"]) < until
            # the lock at the snapshot block, as the devnet's VotingEscrow holds it at that block's time
            at = unix(lock["at"])
            assert lock["blockNumber"] == sim.block_at(at) and at <= unix(chain["snapshotAt"])
            amount, end, permanent, owner = sim.gov.lock_state(int(tid), at)
            assert (lock["lockedRaw"], lock["permanent"], r["owner"]) == (str(amount), permanent, owner.lower())
            assert lock["unlockAt"] is None if permanent else unix(lock["unlockAt"]) == end
            assert lock["votingPowerRaw"] == str(sim.gov.balance_of_nft(int(tid), at))
    # a decaying lock's power at the snapshot is below the weight it cast earlier, and some is
    assert any(not r["lock"]["permanent"] and int(r["lock"]["votingPowerRaw"]) < int(r["usedWeightRaw"]) for r in rows)


def test_the_current_views_filters_and_traversal(api):
    rows, body = every_log(api, "&view=current")
    keys = [(r["chainId"], int(r["tokenId"]), r["target"]) for r in rows]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    paged, _ = every_log(api, "&view=current", limit=7)
    assert paged == rows
    sample = rows[len(rows) // 2]
    cid = sample["chainId"]
    for query, wanted in {
        f"&tokenId={sample['tokenId']}&chainIds={cid}": lambda r: r["tokenId"] == sample["tokenId"] and r["chainId"] == cid,
        f"&pool={cid}:{sample['target']}": lambda r: (r["chainId"], r["target"]) == (cid, sample["target"]),
        f"&gauge={sample['gauge']}": lambda r: r["gauge"] == sample["gauge"],
        f"&voter={sample['owner']}": lambda r: r["owner"] == sample["owner"],
    }.items():
        got, page = every_log(api, "&view=current" + query)
        assert got == [r for r in rows if wanted(r)] and got, query
        # a veNFT's whole allocation stays its usedWeight when a filter shows part of it
        assert all(int(r["usedWeightRaw"]) >= int(r["weightRaw"]) for r in got)
    for param in ("epoch=" + body["data"]["coverage"][0]["snapshotAt"][:10] + "T00:00:00Z", "kind=vote"):
        error = api.get(f"/v1/votes?view=current&{param}").json()["error"]
        assert (error["code"], error["details"]["param"]) == ("filter_not_in_view", param.split("=")[0])
