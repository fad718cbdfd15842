"""/v1/votes?view=events over the session's backfilled chains, against the devnet's Voter: the
allocations in effect before a chain's first indexed second, with every log up to its
indexedUntil replayed in order (kind, event, veNFT, target, signed weight), give the allocations
the devnet's truth holds then for every veNFT (so pokes, resets and carried allocations are all
there), and the last log's total weight is theirs; filters select what they name; the pages of a
traversal concatenate in order."""
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


def every_log(api, query: str = "") -> tuple[list[dict], dict]:
    rows, cursor, body = [], None, None
    while True:
        body = api.get("/v1/votes?limit=500" + query + (f"&cursor={cursor}" if cursor else "")).json()
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
    assert api.get("/v1/votes?view=current").json()["error"]["code"] == "invalid_view"
    assert api.get("/v1/votes?kind=abstain").json()["error"]["code"] == "invalid_kind"
