"""The five chains: per-chain parameters and states, the history rule, the book, the persistent
subgraph lag of 5042, vaults only where configured, truth and faults on every chain, determinism.

Reproducible: every multi-chain build passes a fixed `now` with a manual clock (each chain's
genesis = hour_start(now) - its history), never the wall clock."""
from __future__ import annotations

import hashlib

import math

import httpx
import pytest
from eth_abi import decode, encode
from eth_utils import keccak

from devnet.addresses import label_address
from devnet.config import DevnetConfig
from devnet.model import build_chain
from devnet.params import CHAIN_PARAMS, history_days_for
from devnet.server import DevnetServer, build_state
from devnet.timeutil import DAY, HOUR, hour_start, iso

NOW = 1_750_000_000 + 1_234  # mid-hour on purpose
CHAINS = (56, 4663, 8453, 1, 5042)
VAULT_CHAINS = (56, 4663, 5042)
HISTORY = 3  # override for the shared multi-chain build (4663 keeps min(3, 5) = 3)
LAG_5042 = 36 * HOUR


@pytest.fixture(scope="module")
def five():
    with DevnetServer(seed=9, history_days=HISTORY, chains=CHAINS, now=NOW, manual_clock=True) as dn:
        yield dn


@pytest.fixture()
def http(five):
    with httpx.Client(base_url=five.url, timeout=30) as c:
        yield c
        c.post("/control/faults", json={"mode": "ok"})


def rpc(http, cid, method, params):
    r = http.post(f"/chains/{cid}/rpc", json={"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
    return r.json()


def call(http, cid, to, signature, types=(), args=(), out=(), block="latest"):
    data = keccak(text=signature)[:4] + (encode(list(types), list(args)) if types else b"")
    r = rpc(http, cid, "eth_call", [{"to": to, "data": "0x" + data.hex()}, block])
    if "error" in r:
        return r["error"]
    return decode(list(out), bytes.fromhex(r["result"][2:])) if out else r["result"]


def gql(http, cid, query, variables=None):
    return http.post(f"/chains/{cid}/subgraph", json={"query": query, "variables": variables or {}}).json()


# -- parameters and the history rule -------------------------------------------------------------
def test_default_parameters_per_chain():
    p = CHAIN_PARAMS
    assert list(p) == list(CHAINS)
    assert p[56].history_days >= 420 and p[56].history_days == max(x.history_days for x in p.values())
    assert (p[8453].history_days, p[1].history_days, p[4663].history_days, p[5042].history_days) == (150, 200, 5, 60)
    assert {"v2-volatile", "v2-stable", "cl"} == {q.kind for q in p[8453].pools} == {q.kind for q in p[56].pools}
    assert "cl" not in {q.kind for q in p[1].pools} and {q.kind for q in p[1].pools} == {"v2-volatile", "v2-stable"}
    assert [c for c in CHAINS if p[c].vaults] == list(VAULT_CHAINS)
    assert p[5042].subgraph_lag_seconds == LAG_5042 and all(p[c].subgraph_lag_seconds == 0 for c in CHAINS if c != 5042)
    rate = {c: sum(q.swaps_per_hour for q in p[c].pools) for c in CHAINS}
    assert rate[8453] > rate[56] > rate[5042] > rate[1]  # Base busiest, Ethereum quietest
    for c in CHAINS:
        assert p[c].tokens[0].contract_key == "coreToken" and p[c].core_symbol == p[c].tokens[0].symbol
        assert p[c].wrapped_native in {t.symbol for t in p[c].tokens}


def test_history_override_rule(monkeypatch):
    p = CHAIN_PARAMS
    assert {c: history_days_for(p[c]) for c in CHAINS} == {56: 420, 4663: 5, 8453: 150, 1: 200, 5042: 60}
    assert {c: history_days_for(p[c], 10) for c in CHAINS} == {56: 10, 4663: 5, 8453: 10, 1: 10, 5042: 10}
    assert {c: history_days_for(p[c], 2) for c in CHAINS} == {c: 2 for c in CHAINS}
    for name in ("DEVNET_HISTORY_DAYS", "DEVNET_POOLS", "DEVNET_TOKENS", "DEVNET_CHAINS"):
        monkeypatch.delenv(name, raising=False)
    cfg = DevnetConfig.from_env()
    assert cfg.history_days is None and cfg.pools is None and cfg.tokens is None and cfg.chains == CHAINS
    monkeypatch.setenv("DEVNET_HISTORY_DAYS", "12")
    monkeypatch.setenv("DEVNET_POOLS", "50")
    monkeypatch.setenv("DEVNET_TOKENS", "30")
    cfg = DevnetConfig.from_env()
    assert (cfg.history_days, cfg.pools, cfg.tokens) == (12.0, 50, 30)


def test_fixed_now_gives_each_chain_its_own_genesis(five):
    for cid in CHAINS:
        sim = five.sim(cid)
        assert sim.history_days == HISTORY
        assert sim.genesis_ts == hour_start(NOW) - HISTORY * DAY and sim.now() == NOW
    young = build_state(chains=(4663, 5042), now=NOW, manual_clock=True)  # per-chain defaults
    assert young.chains[4663].sim.genesis_ts == hour_start(NOW) - 5 * DAY
    assert young.chains[5042].sim.genesis_ts == hour_start(NOW) - 60 * DAY


def test_young_chain_has_nothing_before_its_short_history():
    sim = build_chain(4663, seed=3, now=NOW)
    assert sim.history_days == 5 and sim.genesis_ts == hour_start(NOW) - 5 * DAY
    assert min(p.created_ts for p in sim.pools) == sim.genesis_ts
    assert sim.swaps and sim.swaps[0].ts >= sim.genesis_ts and sim.swaps[-1].ts <= NOW + HOUR
    assert sim.flows(sim.genesis_ts - 30 * DAY, sim.genesis_ts)["swapCount"] == 0
    assert sim.flows(sim.genesis_ts, NOW)["swapCount"] == len(sim.swaps_between(sim.genesis_ts, NOW)) > 0
    assert sim.state_at_block(sim.genesis_block - 1)["pools"] == {}
    assert build_chain(4663, seed=3, now=NOW, history_days=30, generate=False).history_days == 5


# -- the book ---------------------------------------------------------------------------------------
def test_book_has_features_deployment_time_and_vaults_only_where_configured(http, five):
    book = {c["chainId"]: c for c in http.get("/book").json()["chains"]}
    assert list(book) == list(CHAINS)
    for cid, entry in book.items():
        sim = five.sim(cid)
        assert entry["deployedAt"] == iso(sim.genesis_ts) and entry["startBlock"] == sim.genesis_block
        assert sim.block_ts(entry["startBlock"]) == sim.genesis_ts
        f = entry["features"]
        assert set(f) == {"pools", "v2Pools", "stablePools", "clPools", "clTicks", "gauges", "gaugePools",
                          "votingEscrow", "bribes", "vaults", "bridge", "xcore", "liquidityPositions", "rebases"} \
            and all(isinstance(v, bool) for v in f.values())
        assert f["liquidityPositions"] and entry["contracts"]["lpSugar"] == label_address(cid, "lpSugar")
        assert f["xcore"] == (cid in (56, 8453, 4663)) == ("xcore" in entry["contracts"])
        assert ("xcoreAdapter" in entry["contracts"]) == (cid == 56)
        assert f["bridge"] and entry["bridge"]["oapp"] == label_address(cid, "coreOFT")
        assert f["pools"] and f["v2Pools"] and f["stablePools"] and f["gauges"] and f["gaugePools"] and f["votingEscrow"]
        assert f["clPools"] == f["clTicks"] == (cid != 1)
        assert f["vaults"] == (cid in VAULT_CHAINS) == ("vaults" in entry) == ("vaultContracts" in entry)
        for key in ("voter", "minter", "votingEscrow", "coreToken", "rewardsDistributor", "v2Factory", "router",
                    "multicall3"):
            assert entry["contracts"][key]
        assert ("clFactory" in entry["contracts"]) == ("dynamicFeeModule" in entry["contracts"]) == (cid != 1)
        assert entry["foundationWallet"] and entry["subgraphUrl"].endswith(f"/chains/{cid}/subgraph")
        if cid != 56:
            assert entry["contracts"]["voter"] == label_address(cid, "voter")
            assert entry["foundationWallet"] == label_address(cid, "foundation")
    assert len(book[56]["vaults"]) == 4 and 1 <= len(book[4663]["vaults"]) <= 2 and 1 <= len(book[5042]["vaults"]) <= 2


def test_vault_contracts_answer_only_on_vault_chains(http, five):
    for cid in CHAINS:
        factory = label_address(cid, "vaultFactory")
        got = call(http, cid, factory, "allVaults()", out=("address[]",))
        if cid in VAULT_CHAINS:
            assert [a.lower() for a in got[0]] == [v.id for v in five.sim(cid).vaults.vaults]
        else:
            assert got["message"] == "execution reverted"
            assert http.get(f"/chains/{cid}/truth/vaults").json()["vaults"] == []


def test_chain_without_cl_has_no_cl_pool_anywhere(http, five):
    sim = five.sim(1)
    assert not any(p.is_cl for p in sim.pools) and "clFactory" not in sim.contracts
    data = gql(http, 1, "{ pools(first: 1000) { type } factories { type } }")["data"]
    assert {p["type"] for p in data["pools"]} == {"v2-volatile", "v2-stable"}
    assert [f["type"] for f in data["factories"]] == ["v2"]


# -- 5042: deployed, subgraph lagging ---------------------------------------------------------------
def test_lagging_subgraph_is_36_hours_behind_while_rpc_answers_at_the_head(http, five):
    sim = five.sim(5042)
    head = int(rpc(http, 5042, "eth_blockNumber", [])["result"], 16)
    assert head == sim.head() == sim.block_at(NOW)
    meta = gql(http, 5042, "{ _meta { block { number timestamp } } }")["data"]["_meta"]["block"]
    assert head - meta["number"] == LAG_5042 // sim.block_time
    assert sim.block_ts(head) - meta["timestamp"] == LAG_5042
    (length,) = call(http, 5042, sim.contracts["voter"], "length()", out=("uint256",), block=hex(head))
    assert length == len(sim.gov.gauges_at(sim.block_ts(head)))
    err = gql(http, 5042, "query($b: Int!) { pools(block: {number: $b}) { id } }", {"b": head})["errors"][0]
    assert f"indexed up to block number {meta['number']}" in err["message"]
    ok = gql(http, 5042, "query($b: Int!) { pools(block: {number: $b}) { id } }", {"b": meta["number"]})
    assert ok["data"]["pools"]
    # a lag fault adds to the persistent lag; other chains index to their head
    http.post("/control/faults", json={"chainId": 5042, "target": "subgraph", "mode": "lag", "lagBlocks": 100})
    lagged = gql(http, 5042, "{ _meta { block { number } } }")["data"]["_meta"]["block"]["number"]
    assert lagged == meta["number"] - 100
    for cid in (56, 4663, 8453, 1):
        m = gql(http, cid, "{ _meta { block { number } } }")["data"]["_meta"]["block"]["number"]
        assert m == five.sim(cid).head()


# -- truth and faults on every chain ------------------------------------------------------------------
def test_every_truth_route_answers_on_every_chain(http, five):
    for cid in CHAINS:
        sim = five.sim(cid)
        head_ts = sim.block_ts(sim.head())
        epoch = head_ts - head_ts % (7 * DAY)
        flows = http.get(f"/chains/{cid}/truth/flows", params={"from": sim.genesis_ts, "to": head_ts}).json()
        assert flows["swapCount"] > 0 and flows["volumeUsd"] > 0
        state = http.get(f"/chains/{cid}/truth/state").json()
        assert state["chainId"] == cid and len(state["pools"]) == len(sim.pools_at(head_ts)) and state["tvlUsd"] > 0
        assert http.get(f"/chains/{cid}/truth/bribes").json()["epochs"]
        assert http.get(f"/chains/{cid}/truth/votes", params={"epoch": epoch}).json()["epoch"] == epoch
        vaults = http.get(f"/chains/{cid}/truth/vaults").json()["vaults"]
        assert len(vaults) == len(CHAIN_PARAMS[cid].vaults)
        users = http.get(f"/chains/{cid}/truth/vault-users").json()["users"]
        if users:
            pos = http.get(f"/chains/{cid}/truth/vault-positions", params={"user": users[0]["user"]}).json()
            assert pos["positions"]
        dep = http.get(f"/chains/{cid}/deployment").json()
        assert dep["chainId"] == cid and len(dep["pools"]) == len(sim.pools)


@pytest.mark.parametrize("cid", CHAINS)
def test_faults_target_one_chain(http, five, cid):
    others = [c for c in CHAINS if c != cid]
    http.post("/control/faults", json={"chainId": cid, "target": "all", "mode": "error", "status": 503})
    assert http.post(f"/chains/{cid}/subgraph", json={"query": "{ _meta { block { number } } }"}).status_code == 503
    assert http.post(f"/chains/{cid}/rpc", json={"jsonrpc": "2.0", "id": 1, "method": "eth_blockNumber"}).status_code == 503
    for o in others:
        assert "result" in rpc(http, o, "eth_blockNumber", [])
    http.post("/control/faults", json={"chainId": cid, "target": "rpc", "mode": "lag", "lagBlocks": 10})
    assert int(rpc(http, cid, "eth_blockNumber", [])["result"], 16) == five.sim(cid).head() - 10
    http.post("/control/faults", json={"chainId": cid, "target": "rpc", "mode": "slow", "delayMs": 50})
    assert "result" in rpc(http, cid, "eth_blockNumber", [])
    http.post("/control/faults", json={"chainId": cid, "mode": "ok"})
    vaults = five.sim(cid).vaults.vaults
    if vaults:
        http.post("/control/faults", json={"chainId": cid, "target": "vaults", "vault": vaults[0].address,
                                           "mode": "error"})
        assert "devnet fault" in call(http, cid, vaults[0].address, "totalSupply()", out=())["message"]
        if len(vaults) > 1:
            assert call(http, cid, vaults[1].address, "totalSupply()", out=("uint256",))[0] > 0


# -- scale: synthesized tokens and pools ------------------------------------------------------------
def test_synthesized_pools_answer_subgraph_rpc_and_truth():
    with DevnetServer(seed=5, history_days=2, chains=(1, 4663), now=NOW, manual_clock=True, pools=50) as dn, \
            httpx.Client(base_url=dn.url, timeout=30) as http:
        for cid in (1, 4663):
            sim = dn.sim(cid)
            base = CHAIN_PARAMS[cid]
            assert len(sim.pools) == 50 and len(sim.tokens) > len(base.tokens)
            assert sum(p.spec.swaps_per_hour for p in sim.pools[len(base.pools):]) <= 1.5 * sum(
                q.swaps_per_hour for q in base.pools)
            assert (cid == 1) == (not any(p.is_cl for p in sim.pools))
            assert len({p.spec.label for p in sim.pools}) == 50
            pools = gql(http, cid, "{ pools(first: 1000) { id } }")["data"]["pools"]
            assert len(pools) == len(sim.pools_at(sim.block_ts(sim.head())))
            head_ts = sim.block_ts(sim.head())
            end = hour_start(head_ts)
            synth = [p for p in sim.pools[len(base.pools):] if p.created_ts < end - DAY]
            busy = max(synth, key=lambda p: len(sim.swaps_between(end - DAY, end, p.id)))
            truth = http.get(f"/chains/{cid}/truth/flows", params={"from": end - DAY, "to": end, "pool": busy.id}).json()
            rows = gql(http, cid, "query($w: PoolHourData_filter) { poolHourDatas(first: 1000, where: $w) { volumeUSD } }",
                       {"w": {"pool": busy.id, "periodStartUnix_gte": end - DAY, "periodStartUnix_lt": end}})
            vol = math.fsum(float(r["volumeUSD"]) for r in rows["data"]["poolHourDatas"])
            assert truth["swapCount"] > 0 and abs(vol / truth["volumeUsd"] - 1) < 1e-9
            state = http.get(f"/chains/{cid}/truth/state").json()["pools"][busy.id]
            if not busy.is_cl:
                r0, r1, _ = call(http, cid, busy.address, "getReserves()", out=("uint256", "uint256", "uint256"))
                assert (str(r0), str(r1)) == (state["reserve0"], state["reserve1"])
            else:
                (liq,) = call(http, cid, busy.address, "liquidity()", out=("uint128",))
                assert liq == busy.state_at(head_ts).liquidity
            token = sim.token_by_symbol["T0001"]
            (dec,) = call(http, cid, token.address, "decimals()", out=("uint8",))
            assert dec == token.decimals
            assert gql(http, cid, "query($id: ID!) { token(id: $id) { symbol } }", {"id": token.id})["data"]["token"]["symbol"] == "T0001"


# -- determinism ------------------------------------------------------------------------------------
@pytest.mark.parametrize("cid", CHAINS)
def test_each_chain_is_deterministic_per_seed(cid):
    g = hour_start(NOW) - 2 * DAY
    a = build_chain(cid, seed=17, genesis_ts=g, history_days=2, pools=20)
    b = build_chain(cid, seed=17, genesis_ts=g, history_days=2, pools=20)
    c = build_chain(cid, seed=18, genesis_ts=g, history_days=2, pools=20)
    assert a.fingerprint() == b.fingerprint() != c.fingerprint()
    assert a.vault_fingerprint() == b.vault_fingerprint()
    assert [p.spec for p in a.pools] == [p.spec for p in c.pools]  # the pool set is configuration, not seed


def test_chain_56_events_are_unchanged_by_the_five_chains():
    """Regression pin: the fingerprints produced before the five chains existed (same seed, genesis
    and history length). The vault one was re-pinned when CL pools got side positions (minted and
    burnt every other hour, no new draws): the events are the same, but the side positions'
    amounts are in the pools' TVL, which shares out the gauge rewards a vault earns (and so its
    harvests, amounts and shares, in the last digits).

    Both were re-pinned again when votes became persisting allocations (sim/votebook.py, with the
    system gauge and the token without a price): the swaps are unchanged (pinned below on their
    own), while the Vote rows, claims, Voter logs and the emission split (hence the vaults' gauge
    rewards) changed; the fingerprint once more when the Voter's logs took block-wide log indexes.

    The vault one again when the strategies took a reward fee (only the rest of a harvest is
    compounded, so amounts, shares and the reward split move) and harvest/rebalance rows gained
    their fee, totals, price and swap fields; the market fingerprint is unchanged.

    The market one again when veNFTs began to change hands (sim/escrow_moves.py, a stream of its
    own): the locks' owners and the Voter logs' owners moved; swaps and vaults are unchanged.

    All three, swaps included, when the governance took a random stream of its own
    (model.GOVERNANCE_STREAM: locks and epoch plans no longer draw from the market's hourly stream,
    so from the first epoch's plan on the market's draws differ once) and veNFTs began to split (a
    split burns a locked veNFT and mints two, which the governance then draws over). From here on
    nothing the voters and lockers do moves a swap: the swaps pin is the market's alone. The market
    one alone again when merges took locked sources too (VotingEscrow.merge's conditions).

    The market one again when the RewardsDistributor's rebases came (sim/rebases.py, claims from a
    stream of their own), only because it now digests the rebase checkpoints and claims: these 9
    days hold one flip, which checkpoints the genesis week, with no voting power at its start, so a
    rebase of 0 and no claim; without those rows the digest is the old one, and the vault one is
    unchanged. Over longer histories the claims deposited into locks raise voting power, so the
    Voter's weights, the emission split (hence the vaults' rewards) and merge targets move too."""
    sim = build_chain(56, 56, genesis_ts=1750000000 - 1750000000 % 3600, history_days=9)
    swaps = hashlib.sha256()
    for sw in sim.swaps:
        swaps.update(f"{sw.id}|{sw.ts}|{sw.pool.id}|{sw.amount0}|{sw.amount1}|{sw.amount_usd!r}\n".encode())
    assert swaps.hexdigest() == "409bd19eeb0f7c823eee55479184da7e876e96da349e12a39ca2b012c8edf60a"
    assert sim.fingerprint() == "19a54345185e13308437e5b6756736a091b61903ddd75ef6d77c2284d72f25c7"
    assert sim.vault_fingerprint() == "aaa1ee81feeef9eca39eb475064db7d196dd4ac515c8a19749a3eaff9311276d"
