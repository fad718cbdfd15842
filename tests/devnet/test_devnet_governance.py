"""Governance as Velodrome has it: persisting allocations with vote/poke/reset logs, Voter reads
consistent with the logs at every block, gauge kinds and timelines (a system gauge, killed and
revived gauges), the bribe token without a price, per-epoch gauge aggregates and their truth."""
from __future__ import annotations

import math
from decimal import Decimal

import httpx
import pytest
from eth_abi import decode, encode
from eth_utils import keccak

from devnet.addresses import system_gauge_target
from devnet.model import build_chain
from devnet.rpc.node import RpcNode
from devnet.subgraph.service import SubgraphService
from devnet.timeutil import WEEK, epoch_start

GENESIS = 1_750_000_000 - 1_750_000_000 % 3600  # same fixed genesis as conftest.py


def call(node, to, signature, types=(), args=(), out=("uint256",), block=None):
    data = keccak(text=signature)[:4] + (encode(list(types), list(args)) if types else b"")
    tag = hex(block) if block is not None else "latest"
    r = node.handle({"jsonrpc": "2.0", "id": 1, "method": "eth_call", "params": [{"to": to, "data": "0x" + data.hex()}, tag]})
    assert "result" in r, r
    return decode(list(out), bytes.fromhex(r["result"][2:]))[0]


def run(svc, query, variables=None):
    out = svc.execute(query, variables)
    assert "errors" not in out, out
    return out["data"]


@pytest.fixture(scope="module")
def base():
    """Chain 8453 over 40 days: vAMM-DEGEN/WETH killed at 55% and revived at 75% of the history."""
    sim = build_chain(8453, seed=8453, genesis_ts=GENESIS, history_days=40)
    return sim, RpcNode(sim), SubgraphService(sim)


def replay(events, ts):
    """Pool weights, total and per-veNFT allocations from the logs with timestamp <= ts."""
    weights, alloc, last_vote = {}, {}, {}
    for e in events:
        if e["timestamp"] > ts:
            break
        sign = 1 if e["eventName"] == "Voted" else -1
        weights[e["target"]] = weights.get(e["target"], 0) + sign * e["weight"]
        mine = alloc.setdefault(e["tokenId"], {})
        mine[e["target"]] = mine.get(e["target"], 0) + sign * e["weight"]
        if e["kind"] == "vote":
            last_vote[e["tokenId"]] = e["timestamp"]
    return weights, {t: {k: w for k, w in a.items() if w} for t, a in alloc.items()}, last_vote


def test_voter_reads_equal_the_vote_logs_at_any_block(base):
    sim, node, _svc = base
    voter = sim.contracts["voter"]
    events = sim.gov.book.events
    head = sim.head()
    for block in (head, head - 3 * 43_200 + 17, head - 9 * 43_200 + 5):
        ts = sim.block_ts(block)
        weights, alloc, last_vote = replay(events, ts)
        assert call(node, voter, "totalWeight()", block=block) == sum(weights.values()) > 0
        for target, w in weights.items():
            assert call(node, voter, "weights(address)", ("address",), (target,), block=block) == w
        holders = sorted(alloc)[:: max(1, len(alloc) // 12)]
        for tid in holders:
            mine = alloc[tid]
            assert call(node, voter, "usedWeights(uint256)", ("uint256",), (tid,), block=block) == sum(mine.values())
            for target, w in mine.items():
                assert call(node, voter, "votes(uint256,address)", ("uint256", "address"), (tid, target),
                            block=block) == w
            assert call(node, voter, "lastVoted(uint256)", ("uint256",), (tid,), block=block) == last_vote.get(tid, 0)
            assert call(node, sim.contracts["votingEscrow"], "voted(uint256)", ("uint256",), (tid,),
                        out=("bool",), block=block) is bool(mine)


def test_vote_transactions_are_shaped_like_the_voters(base):
    sim, _node, _svc = base
    txs: dict[str, list[dict]] = {}
    for e in sim.gov.book.events:
        txs.setdefault(e["transactionHash"], []).append(e)
    kinds = {"vote": 0, "poke": 0, "reset": 0}
    before: dict[int, dict[str, int]] = {}
    for txh, logs in txs.items():
        kind, tid = logs[0]["kind"], logs[0]["tokenId"]
        kinds[kind] += 1
        first = logs[0]["logIndex"]  # a block numbers its logs: a transaction's are consecutive
        assert [e["logIndex"] for e in logs] == list(range(first, first + len(logs)))
        assert all(e["id"] == f"{txh}-{e['logIndex']}" and e["kind"] == kind and e["tokenId"] == tid for e in logs)
        names = [e["eventName"] for e in logs]
        assert names == sorted(names)  # every Abstained before every Voted
        old = {e["target"]: e["weight"] for e in logs if e["eventName"] == "Abstained"}
        new = {e["target"]: e["weight"] for e in logs if e["eventName"] == "Voted"}
        assert old == before.get(tid, {})  # abstains from exactly the previous allocation
        if kind == "reset":
            assert not new
        if kind == "poke":
            assert set(new) == set(old)
        assert all(e["epoch"] == epoch_start(e["timestamp"]) for e in logs)
        before[tid] = new
    assert kinds["vote"] > 100 and kinds["poke"] > 5 and kinds["reset"] > 0


def test_vote_rows_are_the_allocation_in_effect_at_the_epochs_end(base):
    sim, node, svc = base
    book = sim.gov.book
    head_epoch = epoch_start(sim.block_ts(sim.head()))
    closed = [e for e in sorted(book.epoch_alloc) if e + WEEK <= head_epoch][-3:]
    assert closed
    for e in closed:
        end_block = sim.block_at(e + WEEK - 1)
        rows = run(svc, "query($e: BigInt!) { votes(first: 1000, where: {epoch: $e}) { target weight kind } }",
                   {"e": e})["votes"]
        assert len(rows) < 1000
        per_target: dict[str, int] = {}
        for r in rows:
            per_target[r["target"]] = per_target.get(r["target"], 0) + int(Decimal(r["weight"]) * 10**18)
        for target, w in per_target.items():
            assert call(node, sim.contracts["voter"], "weights(address)", ("address",), (target,), block=end_block) == w
        assert sum(per_target.values()) == call(node, sim.contracts["voter"], "totalWeight()", block=end_block)
        assert {r["kind"] for r in rows} == {"vote", "poke", "carried"}
    # the emissions of an epoch follow the weights in effect at its start, over the gauges alive then
    e = closed[-1]
    split = sim.gov.gauge_emissions[e]
    alive = [g for g in sim.gov.gauges if g.alive_at(e)]
    weights = {g.target: book.weight(g.target, e - 1) for g in alive}
    assert set(split) == set(weights)
    assert all(split[t] == sim.gov.weekly[e] * w // sum(weights.values()) for t, w in weights.items())


def test_each_veNFTs_vote_rows_are_its_votes_at_the_epochs_last_second_and_its_claims_a_share_of_them(base):
    """The rewards' checkpoints (Velodrome's Reward.earned reads a veNFT's balance and the supply at
    the epoch's last second): for ended epochs, every veNFT's Vote rows are the Voter's
    votes(tokenId, pool) then, and every claim is its share of the epoch's bribes and fees by them."""
    sim, node, svc = base
    book = sim.gov.book
    head_epoch = epoch_start(sim.block_ts(sim.head()))
    closed = [e for e in sorted(book.epoch_alloc) if e + WEEK <= head_epoch][-2:]
    checked = 0
    for e in closed:
        end_block = sim.block_at(e + WEEK - 1)
        rows = run(svc, "query($e: BigInt!) { votes(first: 1000, where: {epoch: $e}) { veNFT { id } target weight } }",
                   {"e": e})["votes"]
        assert 0 < len(rows) < 1000
        for r in rows[::7]:
            w = call(node, sim.contracts["voter"], "votes(uint256,address)", ("uint256", "address"),
                     (int(r["veNFT"]["id"]), r["target"]), block=end_block)
            assert int(Decimal(r["weight"]) * 10**18) == w
            checked += 1
        rows_of: dict[int, dict[str, int]] = {}
        for r in rows:
            rows_of.setdefault(int(r["veNFT"]["id"]), {})[r["target"]] = int(Decimal(r["weight"]) * 10**18)
        for c in (c for c in sim.gov.claims if c["epoch"] == e):
            target, token = c["target"], sim.token_by_id[c["token"]]
            share = rows_of[int(c["veNFT"])][target]
            total = sum(a.get(target, 0) for a in rows_of.values())
            if c["kind"] == "bribe":
                pot = sim.gov.bribe_totals[e][target][token.idx]
            else:
                pool = sim.gov.gauge_by_target[target].pool
                pot = pool.epoch_fees[e][0 if token is pool.token0 else 1]
            assert c["amount"] == pot * share // total
            checked += 1
    assert checked > 50


def test_killed_gauge_emits_nothing_and_takes_no_votes_while_killed(sim, subgraph):
    node = RpcNode(sim)
    g = next(g for g in sim.gov.gauges if g.pool is not None and g.pool.spec.label == "vAMM-DOGE/WBNB")
    assert g.killed_ts is not None and g.revived_ts is None
    assert g.killed_ts % WEEK not in (0,) and epoch_start(g.killed_ts) < g.killed_ts  # mid-epoch
    before, after = sim.block_at(g.killed_ts) - 1, sim.block_at(g.killed_ts)
    assert call(node, g.address, "rewardRate()", block=before) > 0
    assert call(node, g.address, "rewardRate()", block=after) == 0
    assert call(node, sim.contracts["voter"], "isAlive(address)", ("address",), (g.address,), out=("bool",),
                block=after) is False
    assert not [e for e in sim.gov.book.events if e["target"] == g.target and e["eventName"] == "Voted"
                and e["timestamp"] >= g.killed_ts]
    for e, split in sim.gov.gauge_emissions.items():
        if e > g.killed_ts:
            assert g.target not in split
    rows = run(subgraph, "query($id: String!) { gaugeEpochs(where: {gauge: $id}, orderBy: epoch) "
                         "{ epoch isAlive emissions rewardRate emitted } }", {"id": g.id})["gaugeEpochs"]
    kill_epoch = epoch_start(g.killed_ts)
    row = next(r for r in rows if int(r["epoch"]) == kill_epoch)
    assert row["isAlive"] is False
    assert Decimal(row["emitted"]) * 10**18 == int(row["rewardRate"]) * (g.killed_ts - kill_epoch)
    assert all(Decimal(r["emitted"]) == 0 for r in rows if int(r["epoch"]) > kill_epoch)
    events = run(subgraph, "query($id: String!) { gaugeEvents(where: {gauge: $id}, orderBy: timestamp) "
                           "{ kind timestamp blockNumber transactionHash } }", {"id": g.id})["gaugeEvents"]
    assert [(e["kind"], int(e["timestamp"])) for e in events] == [("created", g.created_ts), ("killed", g.killed_ts)]
    assert int(events[1]["blockNumber"]) == sim.block_at(g.killed_ts) and events[1]["transactionHash"].startswith("0x")


def test_revived_gauge_takes_votes_and_emits_again(base):
    sim, node, svc = base
    g = next(g for g in sim.gov.gauges if g.revived_ts is not None)
    assert g.killed_ts < g.revived_ts and [e["kind"] for e in g.timeline] == ["created", "killed", "revived"]
    dead, back = sim.block_at(g.revived_ts) - 1, sim.block_at(g.revived_ts)
    is_alive = lambda b: call(node, sim.contracts["voter"], "isAlive(address)", ("address",), (g.address,),  # noqa: E731
                              out=("bool",), block=b)
    assert is_alive(sim.block_at(g.killed_ts) - 1) and not is_alive(dead) and is_alive(back)
    assert call(node, g.address, "rewardRate()", block=back) == 0  # nothing before the next split
    votes = [e for e in sim.gov.book.events if e["target"] == g.target and e["eventName"] == "Voted"]
    assert not [e for e in votes if g.killed_ts <= e["timestamp"] < g.revived_ts]
    assert [e for e in votes if e["timestamp"] >= g.revived_ts]
    paid = [e for e in sorted(sim.gov.gauge_emissions) if e > g.revived_ts and sim.gov.gauge_emissions[e].get(g.target)]
    assert paid
    e = paid[0]
    assert call(node, g.address, "rewardRate()", block=sim.block_at(e + 3600)) == sim.gov.gauge_emissions[e][g.target] // WEEK
    gauge = run(svc, "query($id: ID!) { gauge(id: $id) { isAlive killedAtTimestamp revivedAtTimestamp } }",
                {"id": g.id})["gauge"]
    assert gauge == {"isAlive": True, "killedAtTimestamp": None, "revivedAtTimestamp": str(g.revived_ts)}


def test_system_gauge_is_a_gauge_without_a_pool(base):
    sim, node, svc = base
    g = next(g for g in sim.gov.gauges if g.kind == "system")
    target = system_gauge_target(sim.chain_id)
    assert g.target_address == target and g.pool is None and target.lower() not in sim.pool_by_id
    voter = sim.contracts["voter"]
    assert call(node, voter, "pools(uint256)", ("uint256",), (g.index,), out=("address",)) == target.lower()
    assert call(node, voter, "gauges(address)", ("address",), (target,), out=("address",)) == g.id
    assert call(node, g.address, "stakingToken()", out=("address",)) == target.lower()
    rows = run(svc, '{ gauges(where: {kind: "system"}) { id pool { id } target isAlive createdAtBlockNumber } }')["gauges"]
    assert rows == [{"id": g.id, "pool": None, "target": g.target, "isAlive": True,
                     "createdAtBlockNumber": str(sim.genesis_block)}]
    assert [e for e in sim.gov.book.events if e["target"] == g.target and e["eventName"] == "Voted"]
    assert any(split.get(g.target) for split in sim.gov.gauge_emissions.values())
    assert [b for b in sim.gov.bribes if b["gauge"] == g.id] and not [b for b in sim.gov.bribes if b["gauge"] == g.id and b["pool"]]
    epochs = run(svc, "query($id: String!) { gaugeEpochs(where: {gauge: $id}) { kind fees0 feesUSD token0 { id } } }",
                 {"id": g.id})["gaugeEpochs"]
    assert epochs and all(r["kind"] == "system" and r["token0"] is None and float(r["feesUSD"]) == 0 for r in epochs)


def test_bribe_token_without_a_price(sim, subgraph):
    u = sim.unpriced
    bribes = run(subgraph, "query($t: String!) { bribes(first: 1000, where: {token: $t}) { amount amountUSD from "
                           "isFoundation token { symbol decimals priceUSD derivedETH } } }", {"t": u.id})["bribes"]
    assert len(bribes) >= 2
    assert all(b["amountUSD"] is None and not b["isFoundation"] and float(b["amount"]) > 0 for b in bribes)
    assert bribes[0]["token"] == {"symbol": u.symbol, "decimals": u.decimals, "priceUSD": "0", "derivedETH": "0"}
    hours = run(subgraph, "query($t: String!) { tokenHourDatas(where: {token: $t}) { id } }", {"t": u.id})
    assert hours["tokenHourDatas"] == []
    assert not [p for p in sim.pools if u in (p.token0, p.token1)]
    assert sim.token_price(u, sim.block_ts(sim.head())) is None
    node = RpcNode(sim)
    assert call(node, u.address, "symbol()", out=("string",)) == u.symbol
    # an epoch's aggregate with such a bribe has no USD total
    e = next(b["epoch"] for b in sim.gov.bribes if b["token"] == u.id)
    rows = run(subgraph, "query($e: BigInt!) { gaugeEpochs(where: {epoch: $e}) { bribesUSD unpricedBribeCount } }",
               {"e": e})["gaugeEpochs"]
    assert any(r["unpricedBribeCount"] > 0 and r["bribesUSD"] is None for r in rows)
    assert all(r["bribesUSD"] is not None for r in rows if r["unpricedBribeCount"] == 0)


def test_gauge_epochs_entity_equals_the_truth(devnet_server, sim, subgraph):
    http = httpx.Client(base_url=devnet_server.url, timeout=30)
    head_ts = sim.block_ts(sim.head())
    for epoch in (epoch_start(head_ts) - WEEK, epoch_start(head_ts)):
        truth = http.get("/chains/56/truth/gauge-epochs", params={"epoch": epoch}).json()
        assert truth["partial"] is (epoch == epoch_start(head_ts))
        rows = run(subgraph, "query($e: BigInt!) { gaugeEpochs(where: {epoch: $e}) { gauge { id } kind target votes "
                             "votesAtStart emissions rewardRate emitted fees0 fees1 feesUSD bribesUSD bribeCount "
                             "token0 { id decimals } token1 { id decimals } } }", {"e": epoch})["gaugeEpochs"]
        assert {r["gauge"]["id"] for r in rows} == set(truth["gauges"])
        for r in rows:
            t = truth["gauges"][r["gauge"]["id"]]
            raw = lambda v, d=18: int(Decimal(v) * 10**d)  # noqa: E731
            assert (r["kind"], r["target"]) == (t["kind"], t["target"])
            assert raw(r["votes"]) == int(t["epochVoteRows"])
            if not truth["partial"]:
                assert raw(r["votes"]) == int(t["votes"])
            assert raw(r["votesAtStart"]) == int(t["votesAtStart"])
            assert raw(r["emissions"]) == int(t["emissionsRaw"]) and r["rewardRate"] == t["rewardRate"]
            assert raw(r["emitted"]) == int(t["emittedRaw"])
            assert r["bribeCount"] == t["bribeCount"]
            assert (r["bribesUSD"] is None) == (t["bribesUsd"] is None)
            if t["bribesUsd"] is not None:
                assert math.isclose(float(r["bribesUSD"]), t["bribesUsd"], rel_tol=1e-9, abs_tol=1e-9)
            assert math.isclose(float(r["feesUSD"]), t["feesUsd"], rel_tol=1e-9, abs_tol=1e-9)
            if r["token0"] is not None:
                assert raw(r["fees0"], r["token0"]["decimals"]) == int(t["fees"][r["token0"]["id"]])
                assert raw(r["fees1"], r["token1"]["decimals"]) == int(t["fees"][r["token1"]["id"]])
    assert http.get("/chains/56/truth/gauge-epochs").status_code == 400


def test_truth_routes_for_allocations_timelines_and_vote_counts(devnet_server, sim, subgraph):
    http = httpx.Client(base_url=devnet_server.url, timeout=30)
    node = RpcNode(sim)
    head = sim.head()
    at = sim.block_ts(head) - 2 * 86400
    truth = http.get("/chains/56/truth/venft-allocations", params={"timestamp": at}).json()
    assert truth["tokens"] and sum(int(w) for t in truth["tokens"].values() for w in t["allocation"].values()) == \
        int(truth["totalWeight"]) == call(node, sim.contracts["voter"], "totalWeight()", block=sim.block_at(at))
    tid, one = next(iter(truth["tokens"].items()))
    single = http.get("/chains/56/truth/venft-allocations", params={"tokenId": tid, "timestamp": at}).json()
    assert single["tokens"] == {tid: one}
    assert int(one["votingPower"]) == call(node, sim.contracts["votingEscrow"], "balanceOfNFT(uint256)", ("uint256",),
                                           (int(tid),), block=sim.block_at(at))
    assert http.get("/chains/56/truth/venft-allocations", params={"tokenId": 10**9}).status_code == 404
    timeline = http.get("/chains/56/truth/gauge-timeline").json()["gauges"]
    assert {g["kind"] for g in timeline.values()} == {"pool", "system"}
    assert sum(1 for g in timeline.values() if not g["alive"]) == 2  # vAMM-DOGE/WBNB and vAMM-CAKE/WBNB
    epoch = epoch_start(sim.block_ts(head)) - WEEK
    counts = http.get("/chains/56/truth/vote-events", params={"epoch": epoch}).json()
    events = run(subgraph, "query($e: BigInt!) { voteEvents(first: 1000, where: {epoch: $e}) { id kind eventName "
                           "transactionHash } }", {"e": epoch})["voteEvents"]
    assert len(events) < 1000 and len(events) == sum(counts["logs"].values())
    assert {k: len({e["transactionHash"] for e in events if e["kind"] == k}) for k in counts["transactions"]} == \
        counts["transactions"]
    rows = run(subgraph, "query($e: BigInt!) { votes(first: 1000, where: {epoch: $e}) { kind } }", {"e": epoch})["votes"]
    assert {k: sum(1 for r in rows if r["kind"] == k) for k in counts["voteRows"]} == counts["voteRows"]


def test_vote_events_page_by_time_and_id_like_the_other_entities(sim, subgraph):
    head_ts = sim.block_ts(sim.head())
    lo, hi = epoch_start(head_ts) - WEEK, epoch_start(head_ts)
    everything = [e["id"] for e in sim.gov.book.events if lo <= e["timestamp"] < hi]
    assert len(everything) > 50
    paged, last = [], ""
    while True:
        page = run(subgraph, "query($lo: BigInt!, $hi: BigInt!, $id: String!) { voteEvents(first: 37, orderBy: id, "
                             "where: {timestamp_gte: $lo, timestamp_lt: $hi, id_gt: $id}) { id } }",
                   {"lo": lo, "hi": hi, "id": last})["voteEvents"]
        if not page:
            break
        paged += [r["id"] for r in page]
        last = page[-1]["id"]
    assert paged == sorted(everything)
