"""The escrow-share token xCORE (devnet/sim/xcore.py): the ratio's arithmetic and event chain, the
epochs truth's split by cause, RPC reads at historical blocks against the truth and the served
events, the supply counted once across the bridged representations, per-account balances, the
bridge transfers' pairing, determinism whatever is served, the book and the routes' errors.

Everything over HTTP against one devnet serving 56, 8453 and 4663 (fixed `now`, manual clock)."""
from __future__ import annotations

from collections import Counter, defaultdict

import httpx
import pytest
from eth_abi import decode, encode
from eth_utils import keccak

from devnet.addresses import label_address
from devnet.server import DevnetServer, build_state
from devnet.sim.xcore import PENALTY_BPS, WALLETS, XcoreBook
from devnet.timeutil import HOUR, WEEK, hour_start

NOW = 1_750_000_000 + 1_234  # mid-hour, a Sunday
DAYS = 10
SEED = 11
CHAINS = (56, 8453, 4663)
E18 = 10**18
FIELDS = ("id chainId kind account amount shares penalty oldRatio newRatio supply backing adapterLocked epoch guid "
          "srcChainId dstChainId timestamp blockNumber transactionHash logIndex")
INTS = ("amount", "shares", "penalty", "oldRatio", "newRatio", "supply", "backing", "adapterLocked", "epoch",
        "timestamp", "blockNumber", "logIndex")


@pytest.fixture(scope="module")
def state():
    return build_state(seed=SEED, history_days=DAYS, chains=CHAINS, now=NOW, manual_clock=True)


@pytest.fixture(scope="module")
def http(state):
    with DevnetServer(state=state) as dn, httpx.Client(base_url=dn.url, timeout=60) as client:
        yield client


def get(http, path, **params):
    r = http.get(path, params=params)
    assert r.status_code == 200, r.text
    return r.json()


def events(http, cid, where="", block=None) -> list[dict]:
    """Every XcoreEvent of a chain's subgraph matching `where`, in chain order, raw fields as ints."""
    out, last = [], ""
    at = f", block: {{number: {block}}}" if block is not None else ""
    while True:
        q = f'{{ xcoreEvents(first: 1000, orderBy: id, where: {{id_gt: "{last}" {where}}}{at}) {{ {FIELDS} }} }}'
        rows = http.post(f"/chains/{cid}/subgraph", json={"query": q}).json()["data"]["xcoreEvents"]
        out += rows
        if len(rows) < 1000:
            break
        last = rows[-1]["id"]
    for e in out:
        for k in INTS:
            e[k] = None if e[k] is None else int(e[k])
    return sorted(out, key=lambda e: (e["blockNumber"], e["logIndex"]))


def call(http, cid, to, signature, types=(), args=(), out=("uint256",), block="latest"):
    data = keccak(text=signature)[:4] + (encode(list(types), list(args)) if types else b"")
    body = {"jsonrpc": "2.0", "id": 1, "method": "eth_call", "params": [{"to": to, "data": "0x" + data.hex()}, block]}
    r = http.post(f"/chains/{cid}/rpc", json=body).json()
    if "error" in r:
        return r["error"]
    return decode(list(out), bytes.fromhex(r["result"][2:]))[0]


@pytest.fixture(scope="module")
def canonical(http):
    return events(http, 56)


# -- the ratio ----------------------------------------------------------------------------------------
def test_ratio_is_backing_over_supply_and_each_kind_moves_it_as_stated(canonical):
    assert len(canonical) > 300
    kinds = Counter(e["kind"] for e in canonical)
    assert set(kinds) == {"deposit", "exit", "compound", "distribution", "bridgeOut", "bridgeIn"}
    prev = {"newRatio": E18, "supply": 0, "backing": 0}
    for e in canonical:
        assert e["newRatio"] == e["backing"] * E18 // e["supply"]  # rounded down
        assert e["oldRatio"] == prev["newRatio"] and e["chainId"] == 56
        assert e["id"] == f'{e["transactionHash"]}-{e["logIndex"]}' and e["epoch"] == e["timestamp"] - e["timestamp"] % WEEK
        s0, b0, kind = prev["supply"], prev["backing"], e["kind"]
        if kind == "deposit":
            assert e["newRatio"] == e["oldRatio"] and e["supply"] == s0 + e["shares"] and e["backing"] == b0 + e["amount"]
            assert s0 == 0 or e["shares"] * b0 // s0 <= e["amount"] + 1  # shares at the ratio, never more
        elif kind == "exit":
            gross = e["shares"] * b0 // s0
            assert e["penalty"] == gross * PENALTY_BPS // 10_000 and e["amount"] == gross - e["penalty"]
            assert e["supply"] == s0 - e["shares"] and e["backing"] == b0 - e["amount"]
            assert e["newRatio"] > e["oldRatio"] and e["account"] in WALLETS
        elif kind in ("compound", "distribution"):
            assert e["account"] is None and e["amount"] > 0 and e["supply"] == s0 and e["backing"] == b0 + e["amount"]
            assert e["newRatio"] > e["oldRatio"]
        else:  # the adapter locks or releases shares: supply and backing stay
            assert (e["supply"], e["backing"], e["newRatio"]) == (s0, b0, e["oldRatio"]) and e["guid"]
        if kind != "exit":
            assert e["penalty"] is None
        prev = e
    # one distribution 5 minutes after every epoch flip since the start
    flips = [e for e in range(canonical[0]["epoch"] + WEEK, NOW, WEEK)]
    assert flips and [e["timestamp"] for e in canonical if e["kind"] == "distribution"] == [f + 300 for f in flips]


def test_rate_truth_at_many_instants(http, canonical):
    times = [e["timestamp"] for e in canonical]
    for t in list(range(times[0] - 10, NOW, 7_777)) + [times[50], times[50] - 1, NOW]:
        r = get(http, "/chains/56/truth/xcore/rate", at=t)
        before = [e for e in canonical if e["timestamp"] <= t]
        want = before[-1]["newRatio"] if before else E18
        assert int(r["ratio"]) == want and r["at"] == t
        if before:
            assert int(r["ratio"]) == int(r["backing"]) * E18 // int(r["supply"]) and r["eventId"] == before[-1]["id"]
    series = get(http, "/chains/8453/truth/xcore/rate", **{"from": times[0], "to": NOW, "step": 3_600})
    assert [p["t"] for p in series["points"]] == list(range(times[0], NOW + 1, 3_600))
    for p in series["points"][::20]:
        assert p["ratio"] == get(http, "/chains/56/truth/xcore/rate", at=p["t"])["ratio"]


def test_epochs_truth_splits_the_change_exactly_by_cause(http, canonical):
    body = get(http, "/chains/56/truth/xcore/epochs", through=NOW)
    epochs = body["epochs"]
    assert len(epochs) >= 2 and epochs[-1]["partial"] and not epochs[0]["partial"]
    assert epochs[0]["rateAtStart"] == str(E18)
    for a, b in zip(epochs, epochs[1:]):
        assert b["epoch"] == a["end"] == a["epoch"] + WEEK and b["rateAtStart"] == a["rateAtEnd"]
    for ep in epochs:
        start, end = int(ep["rateAtStart"]), int(ep["rateAtEnd"])
        causes = {k: int(v) for k, v in ep["causes"].items()}
        assert sum(causes.values()) == int(ep["change"]) == end - start and all(v >= 0 for v in causes.values())
        assert causes["exitPenalty"] > 0 and (causes["distribution"] > 0) == (ep["epoch"] > canonical[0]["timestamp"])
        mine = [e for e in canonical if ep["epoch"] <= e["timestamp"] < ep["end"]]
        by_kind = defaultdict(int)
        for e in mine:
            by_kind[e["kind"]] += e["newRatio"] - e["oldRatio"]
        assert causes == {"exitPenalty": by_kind["exit"], "compound": by_kind["compound"],
                          "distribution": by_kind["distribution"]}
        assert by_kind["deposit"] == by_kind["bridgeOut"] == by_kind["bridgeIn"] == 0
        assert ep["counts"] == {k: sum(1 for e in mine if e["kind"] == k) for k in ep["counts"]}
        at_end = min(ep["end"] - 1, NOW)
        assert ep["rateAtEnd"] == get(http, "/chains/56/truth/xcore/rate", at=at_end)["ratio"]
        assert int(ep["amounts"]["penalties"]) == sum(e["penalty"] for e in mine if e["kind"] == "exit")
    assert sum(int(ep["causes"]["compound"]) for ep in epochs) > 0
    # through inside an epoch: that epoch ends at `through`
    mid = epochs[1]["epoch"] + 3 * 86_400 + 17
    cut = get(http, "/chains/56/truth/xcore/epochs", through=mid)["epochs"]
    assert cut[:1] == epochs[:1] and cut[-1]["partial"] and cut[-1]["epoch"] == epochs[1]["epoch"]
    assert cut[-1]["rateAtEnd"] == get(http, "/chains/56/truth/xcore/rate", at=mid)["ratio"]


# -- RPC, truth and events agree ------------------------------------------------------------------------
def test_rpc_at_historical_blocks_equals_truth_and_the_events(http, state, canonical):
    sim = state.chains[56].sim
    token, adapter = label_address(56, "xcore"), label_address(56, "xcoreAdapter")
    assert call(http, 56, token, "totalSupply()", block=hex(sim.genesis_block))["message"] == "execution reverted"
    assert call(http, 56, token, "exitPenaltyBps()") == PENALTY_BPS
    assert call(http, 56, token, "symbol()", out=("string",)) == "xCORE"
    assert call(http, 56, token, "asset()", out=("address",)).lower() == sim.core.id
    assert call(http, 56, adapter, "token()", out=("address",)).lower() == token.lower()
    head = sim.head()
    for block in range(sim.block_at(canonical[0]["timestamp"]), head, (head - sim.genesis_block) // 9):
        ts = sim.block_ts(block)
        truth = get(http, "/chains/56/truth/xcore", at=ts)
        seen = events(http, 56, f"timestamp_gte: {ts - 6 * HOUR}", block=block)
        last = seen[-1] if seen else [e for e in canonical if e["timestamp"] <= ts][-1]
        b = hex(block)
        supply, backing = call(http, 56, token, "totalSupply()", block=b), call(http, 56, token, "totalAssets()", block=b)
        assert (supply, backing) == (int(truth["supply"]), int(truth["backing"])) == (last["supply"], last["backing"])
        ratio = call(http, 56, token, "convertToAssets(uint256)", ("uint256",), (E18,), block=b)
        assert ratio == int(truth["ratio"]) == last["newRatio"] == backing * E18 // supply
        locked = call(http, 56, adapter, "lockedAmount()", block=b)
        assert locked == call(http, 56, token, "balanceOf(address)", ("address",), (adapter,), block=b)
        assert locked == int(truth["adapterLocked"]) == last["adapterLocked"]
        accounts = get(http, "/chains/56/truth/xcore/accounts", at=ts)["accounts"]
        for w in WALLETS[:4]:
            got = call(http, 56, token, "balanceOf(address)", ("address",), (w,), block=b)
            assert got == int(accounts.get(w, "0"))
        for d in (8453, 4663):
            dsim = state.chains[d].sim
            db = dsim.block_at(ts)
            remote = call(http, d, label_address(d, "xcore"), "totalSupply()", block=hex(db))
            if ts < state.xcore.created_at(d):
                assert remote["message"] == "execution reverted"
            else:
                assert remote == int(truth["chains"][str(d)]["supply"])


def test_supply_is_counted_once_and_the_bridged_shares_reconcile(http, canonical):
    in_flight = reconciled = 0
    for t in range(canonical[0]["timestamp"], NOW, 2_311):
        tr = get(http, "/chains/56/truth/xcore", at=t)
        accounts = get(http, "/chains/56/truth/xcore/accounts", at=t)
        assert sum(map(int, accounts["accounts"].values())) == int(tr["supply"]) == int(accounts["supply"])
        assert int(accounts["accounts"].get(tr["adapter"], "0")) == int(tr["adapterLocked"])
        remote = sum(int(tr["chains"][str(d)]["supply"]) for d in (8453, 4663))
        flight = int(tr["inFlight"]["out"]) + int(tr["inFlight"]["back"])
        assert tr["observerSkew"] == {"out": "0", "back": "0"}  # one instant everywhere
        assert int(tr["adapterLocked"]) == remote + flight and int(tr["unreconciled"]) == flight
        assert tr["reconciled"] == (flight == 0) and tr["canonicalSupply"] == tr["supply"]
        in_flight += flight > 0
        reconciled += flight == 0
    assert in_flight >= 3 and reconciled >= 20
    # observers at different instants: what one chain saw of a transfer the other did not is skew
    t = NOW - 20 * HOUR
    tr = get(http, "/chains/56/truth/xcore", at=f"56:{t},8453:{t + 3 * HOUR},4663:{t - 3 * HOUR}")
    remote = sum(int(tr["chains"][str(d)]["supply"]) for d in (8453, 4663))
    flight = int(tr["inFlight"]["out"]) + int(tr["inFlight"]["back"])
    skew = sum(int(v) for v in tr["observerSkew"].values())
    assert int(tr["adapterLocked"]) == remote + flight - skew and skew > 0
    # the per-chain break-down adds up to the totals, so a client covering some chains can check its part
    by_chain = tr["inFlight"]["byChain"]
    assert set(by_chain) == {"8453", "4663"}
    for key in ("out", "back", "outCount", "backCount"):
        assert sum(int(c[key]) for c in by_chain.values()) == int(tr["inFlight"][key])
    for key in ("out", "back"):
        skew_key = "skew" + key.capitalize()
        assert sum(int(c[skew_key]) for c in by_chain.values()) == int(tr["observerSkew"][key])


def test_account_balances_equal_the_sum_of_their_events(http, state):
    adapter = state.xcore.adapter
    for cid in CHAINS:
        rows = events(http, cid)
        assert rows and all(e["chainId"] == cid for e in rows)
        if cid != 56:
            assert {e["kind"] for e in rows} == {"bridgeIn", "bridgeOut"}
            assert all(e["oldRatio"] is e["backing"] is None for e in rows)
        bal: dict[str, int] = defaultdict(int)
        supply = 0
        for e in rows:
            sign = 1 if e["kind"] in ("deposit", "bridgeIn") else -1 if e["kind"] in ("exit", "bridgeOut") else 0
            if sign:
                bal[e["account"]] += sign * e["shares"]
            if cid == 56 and e["kind"].startswith("bridge"):
                bal[adapter] -= sign * e["shares"]
            if cid != 56:
                supply += sign * e["shares"]
                assert e["supply"] == supply
        truth = get(http, f"/chains/{cid}/truth/xcore/accounts", at=NOW)
        assert {a: str(b) for a, b in bal.items()} == truth["accounts"]
        w = next(a for a in bal if a in WALLETS)
        mine = events(http, cid, f'account: "{w.upper().replace("0X", "0x")}"')
        assert [e["id"] for e in mine] == [e["id"] for e in rows if e["account"] == w]


def test_bridge_transfers_pair_by_guid_after_a_delay(http):
    sides = {cid: events(http, cid, 'kind_in: ["bridgeOut", "bridgeIn"]') for cid in CHAINS}
    by_guid: dict[str, dict] = defaultdict(dict)
    for cid, rows in sides.items():
        for e in rows:
            by_guid[e["guid"]][e["kind"]] = e
    delays = []
    for guid, pair in by_guid.items():
        out = pair["bridgeOut"]
        assert 56 in (out["srcChainId"], out["dstChainId"]) and out["srcChainId"] != out["dstChainId"]
        if "bridgeIn" in pair:
            inn = pair["bridgeIn"]
            assert (inn["chainId"], out["chainId"]) == (out["dstChainId"], out["srcChainId"])
            assert inn["shares"] == out["shares"] and inn["account"] == out["account"]
            delays.append(inn["timestamp"] - out["timestamp"])
        else:
            assert out["timestamp"] > NOW - 2 * HOUR  # still in flight at the head
    assert min(delays) >= 20 and max(delays) >= 600 and len(delays) > 50
    assert sum(1 for d in delays if d <= 183) > 0.8 * len(delays)


# -- determinism, served chains, the book -----------------------------------------------------------------
def test_same_seed_same_xcore_whatever_is_served_and_however_the_hours_are_reached(state):
    ledgers = state.xcore.ledgers
    for served in ((56,), (8453,)):
        other = build_state(seed=SEED, history_days=DAYS, chains=served, now=NOW, manual_clock=True)
        for cid in CHAINS:
            assert other.xcore.ledgers[cid].events == ledgers[cid].events
        assert [m.guid for m in other.xcore.messages] == [m.guid for m in state.xcore.messages]
    facts = {cid: led.facts for cid, led in ledgers.items()}
    stepwise = XcoreBook(SEED, facts)
    t = stepwise.generated_until
    while t < hour_start(NOW) + HOUR:
        t += HOUR
        stepwise.sync(t)
    assert stepwise.canonical.events == ledgers[56].events and stepwise.ledgers[8453].events == ledgers[8453].events
    changed = XcoreBook(SEED + 1, facts)
    changed.sync(hour_start(NOW) + HOUR)
    assert [e["timestamp"] for e in changed.canonical.events] != [e["timestamp"] for e in ledgers[56].events]


def test_book_contracts_feature_and_route_errors(http, state):
    book = {c["chainId"]: c for c in http.get("/book").json()["chains"]}
    assert all(book[cid]["features"]["xcore"] is True for cid in CHAINS)
    for cid in CHAINS:
        assert book[cid]["contracts"]["xcore"] == label_address(cid, "xcore")
        assert ("xcoreAdapter" in book[cid]["contracts"]) == (cid == 56)
    assert book[56]["contracts"]["xcoreAdapter"] == label_address(56, "xcoreAdapter")
    for path, status in (("/chains/56/truth/xcore?at=56-1", 400), (f"/chains/56/truth/xcore?at={NOW + 5}", 400),
                         ("/chains/56/truth/xcore?at=1:5", 400), ("/chains/1/truth/xcore", 404),
                         ("/chains/56/truth/xcore/epochs?through=x", 400),
                         (f"/chains/56/truth/xcore/rate?from={NOW - 10}&to={NOW}", 400),
                         (f"/chains/56/truth/xcore/rate?from={NOW - 10**7}&to={NOW}&step=1", 400),
                         (f"/chains/4663/truth/xcore/accounts?at={NOW + 1}", 400)):
        assert http.get(path).status_code == status, path
