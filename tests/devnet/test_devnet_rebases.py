"""veNFT rebases (devnet/sim/rebases.py, Velodrome v2's RewardsDistributor) against a recount from
the locks' own balances: each week's rebase follows Minter.calculateGrowth and is shared by the
veNFTs' powers at the week's start (floors losing less than one wei each); each claim pays exactly
its weeks' shares from the veNFT's cursor, into a live lock (the lock grows by it, a `depositFor`
escrow event) or to the wallet of an expired one (the lock unchanged); a claimed week is never
claimable again; the RPC views, the subgraph entities and the truth routes agree with the model;
generation as the clock moves equals generation up front."""
from __future__ import annotations

import httpx
import pytest
from eth_abi import decode, encode
from eth_utils import keccak, to_checksum_address

from devnet.clock import ManualClock
from devnet.model import ChainSim, build_chain
from devnet.server import DevnetServer
from devnet.sim.governance import MAXTIME
from devnet.timeutil import DAY, HOUR, WEEK

GENESIS = 1_750_000_000 - 1_750_000_000 % 3600  # as conftest.py (a Sunday)
ZERO = "0x" + "00" * 20


@pytest.fixture(scope="module")
def dn():
    with DevnetServer(seed=56, history_days=30, chains=(56,), genesis_ts=GENESIS, manual_clock=True) as server:
        yield server


@pytest.fixture(scope="module")
def http(dn):
    with httpx.Client(base_url=dn.url, timeout=30) as client:
        yield client


@pytest.fixture(scope="module")
def tessera():
    """60 days of chain 5042: a claim there finds its lock expired (paid to the wallet)."""
    return build_chain(5042, 56, genesis_ts=GENESIS, history_days=60)


@pytest.fixture(scope="module")
def sims(dn, tessera):
    return [dn.sim(56), tessera]


def power_at(lock, t: int) -> int:
    """balanceOfNFTAt(t) recounted from the lock's state then."""
    st = lock.state_at(t)
    if st is None:
        return 0
    amount, end, perm, _owner = st
    if perm:
        return amount
    return amount * (end - t) // MAXTIME if end > t else 0


def share(lock, week: int, book) -> int:
    supply = book.ve_supply[week]
    return power_at(lock, week) * book.tokens_per_week[week] // supply if supply else 0


def call(http, to, signature, types=(), args=(), out=("uint256",), block="latest"):
    data = keccak(text=signature)[:4] + (encode(list(types), list(args)) if types else b"")
    r = http.post("/chains/56/rpc", json={"jsonrpc": "2.0", "id": 1, "method": "eth_call",
                                          "params": [{"to": to, "data": "0x" + data.hex()}, block]}).json()
    assert "result" in r, r
    return decode(list(out), bytes.fromhex(r["result"][2:]))


def gql(http, query, variables=None):
    body = http.post("/chains/56/subgraph", json={"query": query, "variables": variables or {}}).json()
    assert "errors" not in body, body
    return body["data"]


# -- the model ----------------------------------------------------------------------------------
def test_each_week_follows_the_growth_formula_and_its_shares_add_up(sims):
    for sim in sims:
        gov, book = sim.gov, sim.gov.rebases
        initial = int(sim.core.spec.supply) * sim.core.unit
        assert [c["epoch"] for c in book.checkpoints] == list(range(gov.first_epoch, book.epochs[-1] + WEEK, WEEK))
        paid_weeks = 0
        for i, cp in enumerate(book.checkpoints):
            week, flip = cp["epoch"], cp["timestamp"]
            assert flip == week + WEEK and cp["blockNumber"] == sim.block_at(flip)
            powers = [p for p in (power_at(lk, week) for lk in gov.locks if lk.created_ts <= week) if p > 0]
            supply = sum(powers)
            assert cp["veSupply"] == supply == gov.ve_totals(week)[1]
            core = initial + sum(w for e, w in gov.weekly.items() if e < flip) + sum(
                c["amount"] for c in book.checkpoints[:i])
            assert core == sim.core_total_supply(flip - 1)
            assert cp["amount"] == gov.weekly[week] * supply // core * supply // core // 2
            shares = sum(p * cp["amount"] // supply for p in powers) if supply else 0
            assert shares <= cp["amount"] and cp["amount"] - shares <= max(len(powers) - 1, 0)
            paid_weeks += cp["amount"] > 0
        assert paid_weeks >= 3


def test_each_claim_pays_its_weeks_from_the_cursor(sims):
    for sim in sims:
        gov, book = sim.gov, sim.gov.rebases
        cursor: dict[int, int] = {}
        assert book.claims
        for c in book.claims:
            tid, ts = c["tokenId"], c["timestamp"]
            lock = gov.lock(tid)
            first = -(-lock.created_ts // WEEK) * WEEK  # the first epoch start at or after its mint
            assert c["fromEpoch"] == cursor.get(tid, first)
            last = max(cp["epoch"] for cp in book.checkpoints if cp["timestamp"] <= ts)
            assert c["toEpoch"] == last + WEEK and c["fromEpoch"] < c["toEpoch"]
            assert c["amount"] == sum(share(lock, w, book) for w in range(c["fromEpoch"], c["toEpoch"], WEEK)) > 0
            assert c["owner"] == lock.state_at(ts)[3] != ZERO
            assert c["blockNumber"] == sim.block_at(ts) and c["id"] == f"{c['transactionHash']}-{c['logIndex']}"
            cursor[tid] = c["toEpoch"]
        keys = [(c["blockNumber"], c["logIndex"]) for c in book.claims]
        assert keys == sorted(keys) and len(set(keys)) == len(keys)
        foundation = set(gov.foundation_ids)
        assert foundation & {c["tokenId"] for c in book.claims}


def test_a_live_lock_grows_by_exactly_what_is_deposited_into_it(sims):
    wallet_paid = 0
    for sim in sims:
        gov, book = sim.gov, sim.gov.rebases
        deposits = {e["transactionHash"]: e for e in gov.escrow_events if e["kind"] == "depositFor"}
        assert len(deposits) == sum(c["toLock"] for c in book.claims)
        others = {(e["tokenId"], e["timestamp"]) for e in gov.escrow_events if e["kind"] != "depositFor"}
        for c in book.claims:
            tid, ts = c["tokenId"], c["timestamp"]
            lock = gov.lock(tid)
            before, after = lock.state_at(ts - 1), lock.state_at(ts)
            live = before[2] or before[1] > ts
            assert c["toLock"] == live
            if live:
                e = deposits[c["transactionHash"]]
                assert (e["tokenId"], e["amount"], e["from"], e["to"]) == (tid, c["amount"], c["owner"], c["owner"])
                assert (e["unlockTime"], e["permanent"]) == (None if before[2] else before[1], before[2])
            else:
                wallet_paid += 1
                assert c["transactionHash"] not in deposits
            if (tid, ts) not in others:  # nothing else moved the lock at that second
                grown = c["amount"] if live else 0
                assert after == (before[0] + grown, *before[1:])
        # per lock: what the escrow log deposited is what its claims into the lock paid
        for lock in gov.locks:
            claimed = sum(c["amount"] for c in book.claims if c["tokenId"] == lock.token_id and c["toLock"])
            assert claimed == sum(e["amount"] for e in deposits.values() if e["tokenId"] == lock.token_id)
    assert wallet_paid >= 1


def test_burnt_venfts_claim_nothing_and_a_claimed_week_never_comes_back(sims):
    for sim in sims:
        gov, book = sim.gov, sim.gov.rebases
        head = sim.block_ts(sim.head())
        times = sorted({cp["timestamp"] for cp in book.checkpoints} | {head})
        for c in book.claims:
            tid = c["tokenId"]
            assert book.claimable(tid, c["timestamp"]) == 0  # nothing new until the next flip
            for t in (x for x in times if x >= c["timestamp"]):
                assert all(w >= c["toEpoch"] for w, _r in book.unclaimed(tid, t))
        burnt = [lk for lk in gov.locks if lk.current[3] == ZERO]
        assert burnt
        for lk in burnt:
            gone = next(t for t, st in zip(lk.hist_ts, lk.hist) if st[3] == ZERO)
            assert book.unclaimed(lk.token_id, head) == [] and book.claimable(lk.token_id, head) == 0
            assert all(c["timestamp"] < gone for c in book.claims if c["tokenId"] == lk.token_id)


def test_generation_as_the_clock_moves_equals_up_front():
    up_front = build_chain(56, seed=5, genesis_ts=GENESIS, history_days=24)
    clock = ManualClock(GENESIS + 5 * DAY + 1234)
    lazy = ChainSim(56, 5, GENESIS, 24, clock=clock)
    lazy.generate_history()
    for step in (HOUR, 3 * DAY + 17, 7 * HOUR, 2 * DAY, WEEK, 5 * DAY):
        clock.advance(step)
        lazy.head()
    clock.set(GENESIS + 24 * DAY)
    lazy.head()
    a, b = up_front.gov, lazy.gov
    assert a.rebases.checkpoints == b.rebases.checkpoints and a.rebases.claims == b.rebases.claims
    assert a.escrow_events == b.escrow_events
    assert [(lk.hist_ts, lk.hist) for lk in a.locks] == [(lk.hist_ts, lk.hist) for lk in b.locks]
    assert up_front.fingerprint() == lazy.fingerprint() and len(a.rebases.claims) > 50


# -- RPC, subgraph and truth ---------------------------------------------------------------------
def test_rpc_claimable_equals_the_truth_at_several_blocks(dn, http):
    sim = dn.sim(56)
    book, gov = sim.gov.rebases, sim.gov
    distributor = sim.contracts["rewardsDistributor"]
    head_ts = sim.block_ts(sim.head())
    instants = [book.checkpoints[2]["timestamp"], book.checkpoints[2]["timestamp"] + 3 * DAY + 7,
                book.checkpoints[3]["timestamp"] + 2 * HOUR, head_ts]
    owners = [sim.foundation_wallet.lower()] + list(dict.fromkeys(c["owner"] for c in book.claims))[:5]
    compared = nonzero = 0
    for t in instants:
        block = sim.block_at(t)
        for owner in owners:
            truth = http.get("/chains/56/truth/account-rebases", params={"owner": owner, "block": block}).json()
            sums: dict[int, int] = {}
            for row in truth["claimable"]:
                sums[row["tokenId"]] = sums.get(row["tokenId"], 0) + int(row["amount"])
            assert sum(sums.values()) == int(truth["claimableTotal"])
            for tid in gov.tokens_of_owner(owner, sim.block_ts(block)):
                (got,) = call(http, distributor, "claimable(uint256)", ("uint256",), (tid,), block=hex(block))
                assert got == sums.get(tid, 0) == book.claimable(tid, sim.block_ts(block))
                lock = gov.lock(tid)
                recount = sum(share(lock, w, book) for w in book.epochs[:book.checkpointed(sim.block_ts(block))]
                              if w >= book.cursor_at(tid, sim.block_ts(block)))
                assert got == (recount if lock.state_at(sim.block_ts(block))[3] != ZERO else 0)
                compared += 1
                nonzero += got > 0
    assert compared >= 20 and nonzero >= 5
    # the same through Multicall3, for a few veNFTs at one block
    block = sim.block_at(instants[1])
    ids = [1, 2, 3, 10, 40]
    calls = [(distributor, False, keccak(text="claimable(uint256)")[:4] + encode(["uint256"], [i])) for i in ids]
    (results,) = call(http, sim.contracts["multicall3"], "aggregate3((address,bool,bytes)[])",
                      ("(address,bool,bytes)[]",), (calls,), out=("(bool,bytes)[]",), block=hex(block))
    assert [decode(["uint256"], r[1])[0] for r in results] == [book.claimable(i, sim.block_ts(block)) for i in ids]


def test_rpc_views_follow_the_checkpoints_and_cursors(dn, http):
    sim = dn.sim(56)
    book = sim.gov.rebases
    d = sim.contracts["rewardsDistributor"]
    cp = book.checkpoints[2]
    week, flip = cp["epoch"], cp["timestamp"]
    before, at = hex(sim.block_at(flip) - 1), hex(sim.block_at(flip))
    assert call(http, d, "tokensPerWeek(uint256)", ("uint256",), (week,), block=before) == (0,)
    assert call(http, d, "tokensPerWeek(uint256)", ("uint256",), (week,), block=at) == (cp["amount"],)
    assert call(http, d, "veSupply(uint256)", ("uint256",), (week,), block=before) == (0,)
    assert call(http, d, "veSupply(uint256)", ("uint256",), (week,), block=at) == (cp["veSupply"],)
    (total_at,) = call(http, sim.contracts["votingEscrow"], "totalSupplyAt(uint256)", ("uint256",), (week,), block=at)
    assert total_at == cp["veSupply"]
    assert call(http, d, "lastTokenTime()", block=at) == (flip,)
    assert call(http, d, "lastTokenTime()", block=before) == (flip - WEEK,)
    assert call(http, d, "startTime()") == (sim.gov.first_epoch,)
    assert call(http, d, "token()", out=("address",))[0].lower() == sim.core.id
    assert call(http, d, "ve()", out=("address",))[0].lower() == sim.contracts["votingEscrow"].lower()
    assert call(http, d, "timeCursorOf(uint256)", ("uint256",), (10**9,)) == (0,)
    for c in book.claims[:: max(1, len(book.claims) // 12)]:
        b = c["blockNumber"]
        cursor = ("timeCursorOf(uint256)", ("uint256",), (c["tokenId"],))
        assert call(http, d, *cursor, block=hex(b - 1)) == (c["fromEpoch"],)
        assert call(http, d, *cursor, block=hex(b)) == (c["toEpoch"],)
        assert call(http, d, "claimable(uint256)", ("uint256",), (c["tokenId"],), block=hex(b)) == (0,)
    # the core token: the rebases are minted, the distributor holds what is not claimed yet
    head = sim.head()
    ts = sim.block_ts(head)
    minted = sum(x["amount"] for x in book.checkpoints if x["timestamp"] <= ts)
    paid = sum(x["amount"] for x in book.claims if x["timestamp"] <= ts)
    core = sim.core.address
    assert call(http, core, "balanceOf(address)", ("address",), (to_checksum_address(d),)) == (minted - paid,)
    (supply,) = call(http, core, "totalSupply()")
    assert supply == int(sim.core.spec.supply) * sim.core.unit + sim.gov.emitted_until(ts) + minted


def test_subgraph_entities_page_and_filter_like_the_other_events(dn, http):
    sim = dn.sim(56)
    book = sim.gov.rebases
    block = sim.block_at(book.checkpoints[3]["timestamp"] + 2 * DAY)
    bts = sim.block_ts(block)
    cps = gql(http, "query($b: Int!) { rebaseCheckpoints(first: 1000, orderBy: epoch, block: {number: $b}) "
                    "{ id epoch amount veSupply timestamp blockNumber transactionHash } }", {"b": block})
    expected = [c for c in book.checkpoints if c["timestamp"] <= bts]
    assert [(int(r["epoch"]), r["id"], r["transactionHash"], int(r["blockNumber"])) for r in cps["rebaseCheckpoints"]] \
        == [(c["epoch"], str(c["epoch"]), c["transactionHash"], c["blockNumber"]) for c in expected]
    for r, c in zip(cps["rebaseCheckpoints"], expected):
        assert _raw(r["amount"]) == c["amount"] and _raw(r["veSupply"]) == c["veSupply"]
    # every claim up to the block, paged by id_gt
    seen, last = [], ""
    while True:
        page = gql(http, "query($b: Int!, $last: String!) { rebaseClaims(first: 7, block: {number: $b}, "
                         "where: {id_gt: $last}) { id tokenId owner fromEpoch toEpoch amount toLock timestamp "
                         "blockNumber transactionHash logIndex } }", {"b": block, "last": last})["rebaseClaims"]
        seen += page
        if len(page) < 7:
            break
        last = page[-1]["id"]
    model = sorted((c for c in book.claims if c["timestamp"] <= bts), key=lambda c: c["id"])
    assert len(seen) == len(model) > 20
    for r, c in zip(seen, model):
        assert (r["id"], int(r["tokenId"]), r["owner"], int(r["fromEpoch"]), int(r["toEpoch"]), _raw(r["amount"]),
                r["toLock"], int(r["timestamp"]), int(r["blockNumber"]), r["transactionHash"], int(r["logIndex"])) == \
            (c["id"], c["tokenId"], c["owner"], c["fromEpoch"], c["toEpoch"], c["amount"], c["toLock"], c["timestamp"],
             c["blockNumber"], c["transactionHash"], c["logIndex"])
    # owner (any case), tokenId and a time range
    owner = model[0]["owner"]
    lo, hi = book.checkpoints[2]["timestamp"], book.checkpoints[3]["timestamp"]
    rows = gql(http, "query($o: String!, $lo: BigInt!, $hi: BigInt!) { rebaseClaims(first: 1000, where: {owner: $o, "
                     "timestamp_gte: $lo, timestamp_lt: $hi}, orderBy: timestamp) { id } }",
               {"o": to_checksum_address(owner), "lo": lo, "hi": hi})["rebaseClaims"]
    assert [r["id"] for r in rows] == [c["id"] for c in book.claims
                                       if c["owner"] == owner and lo <= c["timestamp"] < hi]
    tid = model[0]["tokenId"]
    rows = gql(http, "query($t: BigInt!) { rebaseClaims(first: 1000, where: {tokenId: $t}) { id } }", {"t": tid})
    assert sorted(r["id"] for r in rows["rebaseClaims"]) == sorted(c["id"] for c in book.claims if c["tokenId"] == tid)
    one = gql(http, "query($id: ID!) { rebaseClaim(id: $id) { amount } }", {"id": model[0]["id"]})["rebaseClaim"]
    assert _raw(one["amount"]) == model[0]["amount"]
    # the deposits are VotingEscrow events too
    deposits = gql(http, "{ escrowEvents(first: 1000, where: {kind: \"depositFor\"}) { transactionHash amount } }")
    head_ts = sim.block_ts(sim.head())
    assert sorted((e["transactionHash"], _raw(e["amount"])) for e in deposits["escrowEvents"]) == sorted(
        (c["transactionHash"], c["amount"]) for c in book.claims if c["toLock"] and c["timestamp"] <= head_ts)


def test_truth_routes(dn, http):
    sim = dn.sim(56)
    book = sim.gov.rebases
    block = sim.block_at(book.checkpoints[2]["timestamp"] + HOUR)
    body = http.get("/chains/56/truth/rebases", params={"block": block}).json()
    assert body["block"] == block and body["distributor"] == sim.contracts["rewardsDistributor"].lower()
    assert [(e["epoch"], e["amount"], e["veSupply"]) for e in body["epochs"]] == [
        (c["epoch"], str(c["amount"]), str(c["veSupply"])) for c in book.checkpoints[:3]]
    assert int(body["balance"]) == int(body["minted"]) - int(body["claimed"])
    head = http.get("/chains/56/truth/rebases").json()
    assert len(head["epochs"]) == len(book.checkpoints)
    owner = sim.foundation_wallet.lower()
    acct = http.get("/chains/56/truth/account-rebases", params={"owner": owner.upper().replace("0X", "0x")}).json()
    claims = [c for c in book.claims if c["owner"] == owner]
    assert [c["id"] for c in acct["claimed"]] == [c["id"] for c in claims] and claims
    assert all(c["amount"] == str(m["amount"]) and c["toLock"] == m["toLock"] for c, m in zip(acct["claimed"], claims))
    claimed_weeks = {(c["tokenId"], w) for c in book.claims for w in range(c["fromEpoch"], c["toEpoch"], WEEK)}
    assert not {(r["tokenId"], r["epoch"]) for r in acct["claimable"]} & claimed_weeks
    assert http.get("/chains/56/truth/account-rebases", params={"owner": "0x12"}).status_code == 400
    assert http.get("/chains/56/truth/rebases", params={"block": sim.head() + 10}).status_code == 400
    assert http.get("/chains/999/truth/rebases").status_code == 404


def test_book_lists_the_feature(dn, http):
    entry = http.get("/book").json()["chains"][0]
    assert entry["features"]["rebases"] is True
    assert entry["contracts"]["rewardsDistributor"] == dn.sim(56).contracts["rewardsDistributor"]


def _raw(decimal_text: str) -> int:
    """An 18-decimal BigDecimal string back to its raw integer (exact)."""
    whole, _, frac = decimal_text.partition(".")
    return int(whole) * 10**18 + int((frac + "0" * 18)[:18] or 0)
