"""Cross-chain bridge messages (devnet/sim/bridge.py): the guid formula, nonces, the lifecycle
rules, every state of the truth route, the subgraph's BridgeEvent against the truth, a message to
an unserved chain, determinism however the hours are reached, and the book's `bridge` entries.

Reproducible: fixed `now`, manual clock, two days of history (a few hundred messages)."""
from __future__ import annotations

from collections import defaultdict

import httpx
import pytest
from eth_abi.packed import encode_packed
from eth_utils import keccak

from devnet.addresses import label_address
from devnet.chains import DEPLOYMENTS
from devnet.server import DevnetServer, build_state
from devnet.sim.bridge import ORDER, SCHEDULED, WALLETS, BridgeBook, event_tx
from devnet.timeutil import HOUR, hour_start
from devnet.truth_bridge import bridge_truth

NOW = 1_750_000_000 + 1_234  # mid-hour
DAYS = 2
SEED = 9
FIELDS = ("id kind guid nonce srcEid dstEid srcChainId dstChainId sender receiver fromAddress toAddress "
          "token { id symbol decimals } amountRaw reason timestamp blockNumber transactionHash logIndex")
STATES = {"DELIVERED", "FAILED", "PAYLOAD_STORED", "BLOCKED", "INFLIGHT", "CONFIRMING"}


@pytest.fixture(scope="module")
def five():
    return build_state(seed=SEED, history_days=DAYS, chains=ORDER, now=NOW, manual_clock=True)


@pytest.fixture(scope="module")
def book(five) -> BridgeBook:
    return five.bridge


def events(sg, where: str = "", block: int | None = None) -> list[dict]:
    """Every BridgeEvent of a chain's subgraph matching `where`, paged by id."""
    out, last = [], ""
    at = f", block: {{number: {block}}}" if block is not None else ""
    while True:
        q = (f'{{ bridgeEvents(first: 1000, orderBy: id, where: {{id_gt: "{last}" {where}}}{at}) '
             f'{{ {FIELDS} }} }}')
        rows = sg.execute(q)["data"]["bridgeEvents"]
        out += rows
        if len(rows) < 1000:
            return out
        last = rows[-1]["id"]


def by_pathway(book: BridgeBook) -> dict[tuple[int, int], list]:
    out = defaultdict(list)
    for m in book.messages:
        out[(m.src, m.dst)].append(m)
    return out


# -- schedule ---------------------------------------------------------------------------------------
def test_guid_is_keccak_of_the_packed_header(book):
    assert len(book.messages) > 200
    for m in book.messages[::7]:
        s, d = DEPLOYMENTS[m.src], DEPLOYMENTS[m.dst]
        assert s.bridge.oapp == label_address(m.src, "coreOFT") and d.bridge.oapp == label_address(m.dst, "coreOFT")
        packed = encode_packed(["uint64", "uint32", "bytes32", "uint32", "bytes32"],
                               [m.nonce, s.bridge.eid, bytes.fromhex(s.bridge.oapp[2:]).rjust(32, b"\0"),
                                d.bridge.eid, bytes.fromhex(d.bridge.oapp[2:]).rjust(32, b"\0")])
        assert len(packed) == 8 + 4 + 32 + 4 + 32
        assert m.guid == "0x" + keccak(packed).hex() and m.guid == m.guid.lower() and len(m.guid) == 66
    assert len({m.guid for m in book.messages}) == len(book.messages)


def test_nonces_are_contiguous_per_pathway_in_send_order(book, five):
    paths = by_pathway(book)
    assert {p for p in paths if p[0] == p[1]} == set()
    assert len(paths) == 20  # every ordered pair of the five chains
    for msgs in paths.values():
        assert [m.nonce for m in msgs] == list(range(1, len(msgs) + 1))
        assert all(a.sent <= b.sent for a, b in zip(msgs, msgs[1:]))
    # the same seen from each source chain's subgraph
    for cid, rt in five.chains.items():
        sent = defaultdict(list)
        rows = events(rt.subgraph, 'kind: "PacketSent"')
        for e in sorted(rows, key=lambda e: (int(e["timestamp"]), int(e["logIndex"]))):
            assert int(e["srcChainId"]) == cid
            sent[int(e["dstChainId"])].append(int(e["nonce"]))
        for dst, nonces in sent.items():
            assert nonces == list(range(1, len(nonces) + 1))


def test_schedule_boundary_messages_wallets_amounts_and_lifecycle(book):
    live_from = min(f.genesis_ts for f in book.chains.values())
    per_hour = defaultdict(list)
    for m in book.messages:
        per_hour[(m.src, m.hour)].append(m)
    for (src, h), msgs in per_hour.items():
        f = book.chains[src]
        boundary = f.floor_ts(h + HOUR - 30)
        assert h >= live_from and 1 <= len(msgs) <= 3
        assert sum(1 for m in msgs if m.sent == boundary and m.oft) >= 1
        assert all(h <= m.sent < h + HOUR and (m.sent - f.genesis_ts) % f.block_time == 0 for m in msgs)
    for m in book.messages:
        fs, fd = book.chains[m.src], book.chains[m.dst]
        if m.oft:
            assert m.from_addr in WALLETS and m.to_addr in WALLETS
            assert 10**18 <= m.amount <= 5000 * 10**18 + 10**18 and m.amount % 10**12 == 0
        else:
            assert m.from_addr is m.to_addr is m.amount is None
        assert fs.finality + 20 <= m.verified - m.sent < fs.finality + 90 + fd.block_time
        for ts in (m.verified, m.alert, m.delivered, m.burnt):
            assert ts is None or (ts - fd.genesis_ts) % fd.block_time == 0
        assert (m.delivered is None) != (m.burnt is None)
        if m.alert is None:
            assert m.delivered - m.verified >= 5
    assert len(set(WALLETS)) == 12 and {m.from_addr for m in book.messages if m.oft} == set(WALLETS)
    generic = sum(1 for m in book.messages if not m.oft)
    assert 0 < generic < 0.1 * len(book.messages)


def test_scheduled_failures_and_ordered_execution(book):
    f56, f8453 = book.chains[56], book.chains[8453]
    assert f56.finality == 60 and f8453.finality == 90 and book.chains[1].finality == 180
    assert book.chains[4663].finality == 90 and book.chains[5042].finality == 90
    paths = by_pathway(book)
    hours = {m.hour for m in book.messages}
    retried = burnt = 0
    for h in hours:
        idx = h // HOUR
        for (src, dst), (mod, residue, kind, delay) in SCHEDULED.items():
            if idx % mod != residue:
                continue
            boundary = book.chains[src].floor_ts(h + HOUR - 30)
            m = next(m for m in paths[(src, dst)] if m.hour == h and m.sent == boundary)
            if m.alert is None:  # held behind an earlier stored payload: executed at its release
                continue
            end = book.chains[dst].ceil_ts(m.alert + delay)
            if kind == "retry":
                assert m.delivered == end and m.burnt is None
                retried += 1
            else:
                assert m.burnt == end and m.delivered is None
                burnt += 1
    assert retried >= 3 and burnt >= 1
    # ordered execution: no later nonce of a pathway executes between an alert and its resolution
    for msgs in paths.values():
        for a in (m for m in msgs if m.alert is not None):
            end = a.delivered or a.burnt
            executed = [m.alert if m.alert is not None else m.delivered for m in msgs if m.nonce > a.nonce]
            assert not any(a.alert <= t < end for t in executed)
    held = [m for m in paths[(56, 8453)] if m.alert is None and m.delivered - m.verified > 40 + 2]
    assert held  # some deliveries waited behind a stored payload


# -- truth ------------------------------------------------------------------------------------------
def test_every_state_appears_and_blocked_sits_behind_a_stored_payload(book, five):
    start = min(f.genesis_ts for f in book.chains.values())
    seen: dict[str, set] = defaultdict(set)
    blocked_behind = False
    for t in range(start + HOUR, hour_start(NOW) + 1, 600):
        msgs = bridge_truth(book, {c: t for c in ORDER})["messages"]
        for r in msgs:
            seen[r["state"]].add((r["srcChainId"], r["dstChainId"]))
            assert r["terminal"] == (r["state"] in ("DELIVERED", "FAILED"))
            assert r["retryable"] == (r["state"] in ("PAYLOAD_STORED", "BLOCKED"))
            if r["state"] == "BLOCKED" and (r["srcChainId"], r["dstChainId"]) == (56, 8453):
                stored = [x for x in msgs if (x["srcChainId"], x["dstChainId"]) == (56, 8453)
                          and x["state"] == "PAYLOAD_STORED" and x["nonce"] < r["nonce"]]
                blocked_behind |= bool(stored)
        assert [(-(r["sentAt"] or r["verifiedAt"]), r["guid"]) for r in msgs] == sorted(
            (-(r["sentAt"] or r["verifiedAt"]), r["guid"]) for r in msgs)
    assert set(seen) == STATES
    assert (56, 8453) in seen["BLOCKED"] and blocked_behind and (56, 8453) in seen["PAYLOAD_STORED"]
    assert (8453, 1) in seen["FAILED"]
    # at an hour boundary every source's boundary message of the hour before is still confirming
    t = hour_start(NOW)
    msgs = {r["guid"]: r for r in bridge_truth(book, {c: t for c in ORDER})["messages"]}
    for src in ORDER:
        f = book.chains[src]
        m = next(m for m in book.messages if m.src == src and m.hour == t - HOUR and m.sent == f.floor_ts(t - 30))
        r = msgs[m.guid]
        assert r["state"] == "CONFIRMING" and r["missingSide"] == "destination" and r["verifiedAt"] is None
        assert r["sentAt"] == m.sent and r["sentBlock"] == f.block_of(m.sent) and t - m.sent < f.finality


def test_truth_boundaries_are_per_chain_and_exclusive(book):
    m = next(m for m in book.messages if m.alert is not None and m.delivered is not None)
    src, dst = m.src, m.dst

    def one(at):
        return next((r for r in bridge_truth(book, at)["messages"] if r["guid"] == m.guid), None)

    assert one({src: m.sent}) is None and one({}) is None
    r = one({src: m.sent + 1})
    assert r["sentAt"] == m.sent and r["missingSide"] == "destination" and r["state"] == "CONFIRMING"
    finality = book.chains[src].finality
    assert one({src: m.sent + finality - 1})["state"] == "CONFIRMING"
    assert one({src: m.sent + finality})["state"] == "INFLIGHT"  # past the finality, the destination unseen
    r = one({dst: m.verified + 1})
    assert r["missingSide"] == "source" and r["sentAt"] is None and r["state"] == "INFLIGHT"
    r = one({src: m.sent + 1, dst: m.alert + 1})
    assert r["state"] == "PAYLOAD_STORED" and r["alertAt"] == m.alert and r["deliveredAt"] is None
    assert r["missingSide"] is None and r["sentTx"] == event_tx(src, m.guid, "PacketSent", 0)
    r = one({src: m.sent + 1, dst: m.delivered + 1})
    assert r["state"] == "DELIVERED" and r["deliveredAt"] == m.delivered and r["alertAt"] == m.alert
    assert r["amountRaw"] == (str(m.amount) if m.oft else None)


# -- subgraph ----------------------------------------------------------------------------------------
def test_subgraph_events_equal_the_truths_seen_events(book, five):
    at, heads = {}, {}
    for cid, rt in five.chains.items():
        heads[cid] = rt.subgraph.indexed_head()
        at[cid] = rt.sim.block_ts(heads[cid]) + 1
    sim = five.chains[5042].sim
    assert sim.block_ts(sim.head()) - at[5042] >= 36 * HOUR - 2  # the lagging subgraph
    truth = bridge_truth(book, at)["messages"]
    for cid, rt in five.chains.items():
        want = set()
        for r in truth:
            if r["srcChainId"] == cid and r["sentAt"] is not None:
                want.add((r["guid"], "PacketSent", r["sentAt"]))
            if r["dstChainId"] == cid:
                for kind, key in (("PacketVerified", "verifiedAt"), ("LzReceiveAlert", "alertAt"),
                                  ("PacketDelivered", "deliveredAt"), ("PacketBurnt", "burntAt")):
                    if r[key] is not None:
                        want.add((r["guid"], kind, r[key]))
        got = events(rt.subgraph)
        assert {(e["guid"], e["kind"], int(e["timestamp"])) for e in got} == want and len(got) == len(want)
        core = rt.sim.core.id
        by_guid = {r["guid"]: r for r in truth}
        for e in got:
            r = by_guid[e["guid"]]
            assert e["id"] == f'{e["transactionHash"]}-{e["logIndex"]}'
            assert rt.sim.block_ts(int(e["blockNumber"])) == int(e["timestamp"]) and int(e["blockNumber"]) <= heads[cid]
            assert (int(e["srcChainId"]), int(e["dstChainId"])) == (r["srcChainId"], r["dstChainId"])
            assert int(e["nonce"]) == r["nonce"]
            assert (int(e["srcEid"]), int(e["dstEid"])) == (r["srcEid"], r["dstEid"])
            assert (e["sender"], e["receiver"]) == (r["sender"], r["receiver"])
            assert (e["fromAddress"], e["toAddress"]) == (r["fromAddress"], r["toAddress"])
            assert e["amountRaw"] == r["amountRaw"]
            if r["amountRaw"] is None:
                assert e["token"] is None
            else:
                assert e["token"] == {"id": core, "symbol": "CORE", "decimals": 18}
                assert core == (r["srcToken"] if e["kind"] == "PacketSent" else r["dstToken"])
            assert (e["reason"] is not None) == (e["kind"] == "LzReceiveAlert")
            if e["kind"] == "PacketSent":
                assert (int(e["blockNumber"]), e["transactionHash"]) == (r["sentBlock"], r["sentTx"])


def test_subgraph_filters_time_travel_and_single_lookups(five):
    sg = five.chains[8453].subgraph
    every = events(sg)
    ts = sorted(int(e["timestamp"]) for e in every)
    lo, hi = ts[len(ts) // 3], ts[2 * len(ts) // 3]
    window = events(sg, f"timestamp_gte: {lo}, timestamp_lt: {hi}")
    assert {e["id"] for e in window} == {e["id"] for e in every if lo <= int(e["timestamp"]) < hi}
    alerts = events(sg, 'kind: "LzReceiveAlert"')
    assert alerts and {e["id"] for e in alerts} == {e["id"] for e in every if e["kind"] == "LzReceiveAlert"}
    guid = alerts[0]["guid"]
    one = events(sg, f'guid: "{guid}"')
    assert {e["kind"] for e in one} >= {"PacketVerified", "LzReceiveAlert"} and all(e["guid"] == guid for e in one)
    block = sorted(int(e["blockNumber"]) for e in every)[len(every) // 2]
    past = events(sg, block=block)
    assert {e["id"] for e in past} == {e["id"] for e in every if int(e["blockNumber"]) <= block}
    q = f'{{ bridgeEvent(id: "{alerts[0]["id"]}") {{ id kind reason token {{ symbol }} }} }}'
    assert sg.execute(q)["data"]["bridgeEvent"]["kind"] == "LzReceiveAlert"
    page = sg.execute('{ bridgeEvents(first: 5, orderBy: timestamp, orderDirection: desc) { timestamp } }')
    assert [int(e["timestamp"]) for e in page["data"]["bridgeEvents"]] == sorted(ts, reverse=True)[:5]


# -- served chains, determinism, lazy generation -----------------------------------------------------------
def test_a_message_to_an_unserved_chain_stays_on_the_source_side(five):
    single = build_state(seed=SEED, history_days=DAYS, chains=(56,), now=NOW, manual_clock=True)
    # the schedule does not depend on what is served: chain 56's side is the same event for event
    assert single.bridge.views.keys() == {56}
    assert single.bridge.views[56].events == five.bridge.views[56].events
    assert [m.guid for m in single.bridge.messages] == [m.guid for m in five.bridge.messages]
    t = NOW + 1
    truth = bridge_truth(single.bridge, {c: t for c in ORDER})["messages"]
    out = [r for r in truth if r["srcChainId"] == 56]
    into = [r for r in truth if r["dstChainId"] == 56]
    assert out and into and len(out) + len(into) == len(truth)
    assert all(r["missingSide"] == "destination" and r["verifiedAt"] is None for r in out)
    assert all(r["state"] in ("INFLIGHT", "CONFIRMING") for r in out)
    assert all(r["missingSide"] == "source" and r["sentAt"] is None for r in into)
    sent = {e["guid"] for e in events(single.chains[56].subgraph, 'kind: "PacketSent"')}
    sim = single.chains[56].sim
    assert sent == {r["guid"] for r in out if r["sentAt"] <= sim.block_ts(sim.head())}


def test_same_seed_same_schedule_however_the_hours_are_reached(book):
    def fresh(seed):
        b = BridgeBook(seed, dict(book.chains))
        for cid in book.chains:
            b.view(cid)
        return b

    end = hour_start(NOW) + HOUR
    stepwise = fresh(SEED)
    t = min(f.genesis_ts for f in book.chains.values())
    while t < end:  # hour by hour, as a running clock reaches them
        t += HOUR
        stepwise.sync(t)
    once = fresh(SEED)
    once.sync(end)
    assert [m.guid for m in once.messages] == [m.guid for m in stepwise.messages] == [m.guid for m in book.messages]
    for cid in book.chains:
        assert once.views[cid].events == stepwise.views[cid].events == book.views[cid].events
        times = [e["timestamp"] for e in once.views[cid].events]
        assert times == sorted(times) and max(times) < end
    other = fresh(SEED + 1)
    other.sync(end)
    assert [(m.src, m.dst, m.sent) for m in other.messages] != [(m.src, m.dst, m.sent) for m in once.messages]


def test_clock_advance_releases_later_events_append_only():
    state = build_state(seed=3, history_days=1, chains=(56, 8453), now=NOW, manual_clock=True)
    view = state.bridge.views[8453]
    before = list(view.events)
    state.clock.advance(3 * HOUR)
    state.chains[8453].sim.head()
    assert view.events[: len(before)] == before and len(view.events) > len(before)
    assert max(e["timestamp"] for e in view.events) < hour_start(NOW + 3 * HOUR) + HOUR


# -- the book and the HTTP route ------------------------------------------------------------------------
def test_book_and_truth_route(five):
    with DevnetServer(state=five) as dn, httpx.Client(base_url=dn.url, timeout=30) as http:
        book = {c["chainId"]: c for c in http.get("/book").json()["chains"]}
        expected = {56: (30102, 20), 4663: (30663, 90), 8453: (30184, 45), 1: (30101, 15), 5042: (30542, 45)}
        for cid, (eid, conf) in expected.items():
            assert book[cid]["features"]["bridge"] is True
            assert book[cid]["bridge"] == {"eid": eid, "confirmations": conf, "oapp": label_address(cid, "coreOFT")}
        at = ",".join(f"{c}:{NOW}" for c in ORDER)
        r = http.get(f"/chains/8453/truth/bridge?at={at}")
        assert r.status_code == 200
        assert r.json() == bridge_truth(five.bridge, {c: NOW for c in ORDER})
        assert http.get("/chains/8453/truth/bridge").status_code == 400
        assert http.get("/chains/8453/truth/bridge?at=56-1").status_code == 400
        assert http.get("/chains/8453/truth/bridge?at=999:1").status_code == 400
        assert http.get(f"/chains/8453/truth/bridge?at=56:{NOW + 3600}").status_code == 400
        assert http.get("/chains/77/truth/bridge?at=56:1").status_code == 404
