"""HTTP control surface: truth, deployment, health, faults, clock, genesis persistence, CLI."""
from __future__ import annotations

import json
import math
import os
import socket
import subprocess
import sys
import time

import httpx
import pytest

from devnet.timeutil import DAY, HOUR, WEEK
from devnet.server import DevnetServer, genesis_path, resolve_genesis
from support import instant

META = {"query": "{ _meta { block { number } } }"}
BLOCK_NUMBER = {"jsonrpc": "2.0", "id": 7, "method": "eth_blockNumber", "params": []}


@pytest.fixture()
def client(devnet_server):
    with httpx.Client(base_url=devnet_server.url, timeout=30) as c:
        yield c
        c.post("/control/faults", json={"mode": "ok"})


def test_health_and_deployment(client, sim):
    h = client.get("/health").json()
    assert h["ok"] is True and h["chains"]["56"]["head"] == sim.head() and h["manualClock"] is True
    d = client.get("/chains/56/deployment").json()
    assert d["chainId"] == 56 and d["head"]["number"] == sim.head()
    assert d["genesis"] == {"timestamp": sim.genesis_ts, "block": sim.genesis_block}
    assert d["contracts"]["voter"] == sim.contracts["voter"]
    assert {t["symbol"] for t in d["tokens"]} >= {"CORE", "WBNB", "USDT", "USDC", "BTCB", "ETH"}
    assert len(d["pools"]) == len(sim.pools) and d["foundation"]["veNftIds"] == [1, 2, 3]
    assert client.get("/chains/999/deployment").status_code == 404


def test_truth_routes(client, sim):
    head = sim.head()
    ts = sim.block_ts(head)
    start, end = ts - 2 * DAY, ts - DAY
    flows = client.get("/chains/56/truth/flows", params={"from": start, "to": end}).json()
    swaps = [s for s in sim.swaps if start <= s.ts < end]
    assert flows["swapCount"] == len(swaps)
    assert flows["volumeUsd"] == math.fsum(s.amount_usd for s in swaps)
    pool = sim.pools[3]
    one = client.get("/chains/56/truth/flows", params={"from": start, "to": end, "pool": pool.address}).json()
    assert one["swapCount"] == len([s for s in swaps if s.pool is pool])
    state = client.get("/chains/56/truth/state").json()
    assert state["block"] == head and state["timestamp"] == ts
    for key in ("tvlUsd", "tvlV2Usd", "tvlClUsd", "activeGaugeCount", "weeklyEmissions", "veSupply",
                "veVotingPower", "corePriceUsd", "pools", "tokens"):
        assert key in state
    assert isinstance(state["weeklyEmissions"], str) and int(state["veSupply"]) > 0
    old = client.get("/chains/56/truth/state", params={"block": head - 5000}).json()
    assert old["block"] == head - 5000 and old["tvlUsd"] != state["tvlUsd"]
    assert client.get("/chains/56/truth/state", params={"block": head + 5}).status_code == 400
    epoch = sim.gov.bribes[0]["epoch"]
    bribes = client.get("/chains/56/truth/bribes", params={"epoch": epoch}).json()
    rows = [b for b in sim.gov.bribes if b["epoch"] == epoch]
    assert bribes["count"] == len(rows) and bribes["epoch"] == epoch
    priced = [b["amountUSD"] for b in rows if b["amountUSD"] is not None]
    assert bribes["pricedUsd"] == pytest.approx(sum(priced), rel=1e-12)
    assert bribes["unpricedCount"] == len(rows) - len(priced)
    # a deposit in the token without a price leaves the epoch's USD total unavailable
    assert bribes["totalUsd"] == (bribes["pricedUsd"] if len(priced) == len(rows) else None)
    assert 0 < bribes["foundationUsd"] < bribes["pricedUsd"]
    all_epochs = client.get("/chains/56/truth/bribes").json()["epochs"]
    assert all(e["epoch"] % WEEK == 0 for e in all_epochs)
    assert client.get("/chains/56/truth/flows").status_code == 400


def test_subgraph_hour_data_over_http_matches_truth_flows(client, sim):
    """The check the pipeline tests make: sum the hourly buckets of a window, compare with truth."""
    head_ts = sim.block_ts(sim.head())
    end = head_ts - head_ts % HOUR - 2 * HOUR
    start = end - 3 * DAY
    pool = sim.pools[7]
    for pool_filter in (None, pool.address):
        rows, last = [], ""
        while True:
            where = {"periodStartUnix_gte": start, "periodStartUnix_lt": end, "id_gt": last}
            if pool_filter:
                where["pool"] = pool_filter
            body = {"query": "query($w: PoolHourData_filter) { poolHourDatas(first: 1000, where: $w) { id volumeUSD feesUSD } }",
                    "variables": {"w": where}}
            page = client.post("/chains/56/subgraph", json=body).json()["data"]["poolHourDatas"]
            rows += page
            if len(page) < 1000:
                break
            last = page[-1]["id"]
        params = {"from": start, "to": end}
        if pool_filter:
            params["pool"] = pool_filter
        truth = client.get("/chains/56/truth/flows", params=params).json()
        assert truth["swapCount"] > 0
        assert abs(math.fsum(float(r["volumeUSD"]) for r in rows) / truth["volumeUsd"] - 1) < 1e-9
        assert abs(math.fsum(float(r["feesUSD"]) for r in rows) / truth["feesUsd"] - 1) < 1e-9


def test_faults(client, sim):
    head = sim.head()
    r = client.post("/control/faults", json={"chainId": 56, "target": "subgraph", "mode": "error"})
    assert r.status_code == 200 and r.json()["faults"][0]["mode"] == "error"
    assert client.post("/chains/56/subgraph", json=META).status_code == 500
    assert client.post("/chains/56/rpc", json=BLOCK_NUMBER).status_code == 200  # other target unaffected
    client.post("/control/faults", json={"chainId": 56, "target": "rpc", "mode": "error", "status": 200})
    body = client.post("/chains/56/rpc", json=BLOCK_NUMBER).json()
    assert body["error"]["code"] == -32603 and body["id"] == 7
    client.post("/control/faults", json={"chainId": 56, "target": "subgraph", "mode": "lag", "lagBlocks": 40})
    assert client.post("/chains/56/subgraph", json=META).json()["data"]["_meta"]["block"]["number"] == head - 40
    client.post("/control/faults", json={"chainId": 56, "target": "rpc", "mode": "lag", "lagBlocks": 7})
    assert int(client.post("/chains/56/rpc", json=BLOCK_NUMBER).json()["result"], 16) == head - 7
    client.post("/control/faults", json={"chainId": 56, "target": "subgraph", "mode": "slow", "delayMs": 300})
    t0 = time.perf_counter()
    assert client.post("/chains/56/subgraph", json=META).status_code == 200
    assert time.perf_counter() - t0 >= 0.3
    assert len(client.get("/control/faults").json()["faults"]) == 2
    client.post("/control/faults", json={"mode": "ok"})
    assert client.get("/control/faults").json()["faults"] == []
    assert client.post("/chains/56/subgraph", json=META).json()["data"]["_meta"]["block"]["number"] == head
    assert client.post("/control/faults", json={"target": "nope", "mode": "error"}).status_code == 400


def held(client, target: str) -> int | None:
    return next((f["held"] for f in client.get("/control/faults").json()["faults"] if f["target"] == target), None)


def test_a_hung_target_holds_requests_unanswered_until_its_fault_changes(client, devnet_server, sim):
    import threading

    client.post("/control/faults", json={"chainId": 56, "target": "rpc", "mode": "hung"})
    assert held(client, "rpc") == 0
    with pytest.raises(httpx.ReadTimeout):  # accepted, never answered
        httpx.post(f"{devnet_server.url}/chains/56/rpc", json=BLOCK_NUMBER, timeout=0.5)
    assert client.post("/chains/56/subgraph", json=META).status_code == 200  # the other target answers
    answers: list = []
    waiting = threading.Thread(target=lambda: answers.append(
        httpx.post(f"{devnet_server.url}/chains/56/rpc", json=BLOCK_NUMBER, timeout=30).json()))
    waiting.start()
    deadline = time.monotonic() + 10
    while held(client, "rpc") != 1 and time.monotonic() < deadline:  # the timed-out one was dropped
        time.sleep(0.02)
    assert held(client, "rpc") == 1 and not answers
    client.post("/control/faults", json={"chainId": 56, "target": "rpc", "mode": "ok"})  # releases it
    waiting.join(10)
    assert answers == [{"jsonrpc": "2.0", "id": 7, "result": hex(sim.head())}]
    assert client.get("/control/faults").json()["faults"] == []


def test_manual_clock_advances_the_head():
    genesis = 1_760_000_000 - 1_760_000_000 % HOUR
    with DevnetServer(seed=3, history_days=2, genesis_ts=genesis, manual_clock=True) as dn:
        with httpx.Client(base_url=dn.url, timeout=30) as c:
            head0 = c.get("/health").json()["chains"]["56"]["head"]
            ts0 = genesis + 2 * DAY
            assert dn.sim().block_ts(head0) == ts0
            r = c.post("/control/clock", json={"advanceSeconds": 2 * HOUR}).json()
            assert r["now"] == ts0 + 2 * HOUR and r["heads"]["56"] == head0 + 2 * HOUR // 3
            meta = c.post("/chains/56/subgraph", json=META).json()["data"]["_meta"]
            assert meta["block"]["number"] == head0 + 2 * HOUR // 3
            flows = c.get("/chains/56/truth/flows", params={"from": ts0, "to": ts0 + 2 * HOUR}).json()
            assert flows["swapCount"] > 0
            swaps = c.post("/chains/56/subgraph", json={"query": "query($t: BigInt!) { swaps(first: 1000, where: {timestamp_gte: $t}) { amountUSD } }",
                                                      "variables": {"t": ts0}}).json()["data"]["swaps"]
            assert len(swaps) == flows["swapCount"]
            assert c.post("/control/clock", json={"advanceSeconds": -5}).status_code == 400


def test_wall_clock_server_refuses_clock_control():
    with DevnetServer(seed=3, history_days=1, manual_clock=False) as dn:
        with httpx.Client(base_url=dn.url, timeout=30) as c:
            assert c.post("/control/clock", json={"advanceSeconds": 60}).status_code == 409
            head = c.get("/health").json()["chains"]["56"]["head"]
            # the running clock: the wall clock, shifted to the session's instant (DEVNET_CLOCK_OFFSET)
            assert abs(dn.sim().block_ts(head) - instant.now()) < 10


def test_genesis_is_persisted_and_reused(tmp_path):
    now = 1_760_000_123
    g1 = resolve_genesis(tmp_path, 56, seed=5, history_days=30, block_time=3, now=now)
    assert g1 == now - now % HOUR - 30 * DAY
    saved = json.loads(genesis_path(tmp_path, 56).read_text())
    assert saved["genesisTimestamp"] == g1 and saved["seed"] == 5 and saved["blockTime"] == 3
    assert resolve_genesis(tmp_path, 56, seed=5, history_days=30, block_time=3, now=now + 5 * DAY) == g1
    g2 = resolve_genesis(tmp_path, 56, seed=6, history_days=30, block_time=3, now=now + 5 * DAY)
    assert g2 != g1 and json.loads(genesis_path(tmp_path, 56).read_text())["seed"] == 6


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_cli_serves_until_stopped_on_a_clock_shifted_from_the_wall_clock(tmp_path):
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("DEVNET_")}  # the defaults, whatever ran before
    env.update(DEVNET_DATA_DIR=str(tmp_path), DEVNET_PORT=str(port), DEVNET_HISTORY_DAYS="2", DEVNET_HOST="127.0.0.1")
    shift = -(DAY + 2 * HOUR)
    started = time.time()
    proc = subprocess.Popen([sys.executable, "-m", "devnet", "--seed", "4", "--clock-offset", str(shift)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.time() + 60
        ok = False
        while time.time() < deadline and proc.poll() is None:
            try:
                r = httpx.get(f"http://127.0.0.1:{port}/health", timeout=1)
                ok = r.status_code == 200 and r.json()["ok"]
                if ok:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        assert ok, "devnet CLI did not come up"
        book = httpx.get(f"http://127.0.0.1:{port}/book", timeout=5).json()["chains"]
        assert [c["chainId"] for c in book] == [56, 4663, 8453, 1, 5042]  # every chain by default
        assert all(genesis_path(tmp_path, c["chainId"]).exists() for c in book)
        assert book[0]["rpcUrl"] == f"http://127.0.0.1:{port}/chains/56/rpc" and len(book[0]["vaults"]) == 4
        assert [c["chainId"] for c in book if c.get("vaults")] == [56, 4663, 5042]
        # the clock runs `shift` from the wall clock, and the history ends there
        now = httpx.get(f"http://127.0.0.1:{port}/control/clock", timeout=5).json()
        assert now["manual"] is False and int(started) + shift <= now["now"] <= time.time() + shift
        genesis = json.loads(genesis_path(tmp_path, 56).read_text())["genesisTimestamp"]
        assert int(started) + shift - 2 * DAY - HOUR <= genesis <= time.time() + shift - 2 * DAY
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=20)
    assert "history ready" in out and "devnet listening on" in out
