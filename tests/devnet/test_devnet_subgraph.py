"""The subgraph endpoint: schema, paging, time travel, filters, errors, and agreement with truth."""
from __future__ import annotations

import math
from decimal import Decimal

import httpx
import pytest

from devnet.timeutil import DAY, HOUR
from devnet.subgraph.schema import SCHEMA


def run(subgraph, query, variables=None):
    result = subgraph.execute(query, variables)
    assert "errors" not in result, result
    return result["data"]


def error(subgraph, query, variables=None) -> str:
    result = subgraph.execute(query, variables)
    assert "errors" in result and "data" not in result or result.get("data") is None, result
    return result["errors"][0]["message"]


def test_schema_has_the_agreed_types_and_fields():
    # Gauge.pool, Vote.pool and Bribe.amountUSD became nullable with the system gauge (no pool) and
    # the bribe token without a price (devnet/README.md, Governance)
    expected = {
        "Pool": {"id": "ID!", "type": "String!", "token0": "Token!", "feeTier": "Int!", "tickSpacing": "Int",
                 "isDynamicFee": "Boolean!", "liquidity": "BigInt!", "sqrtPrice": "BigInt!", "tick": "Int",
                 "reserve0": "BigDecimal!", "token0Price": "BigDecimal!", "totalValueLockedUSD": "BigDecimal!",
                 "volumeUSD": "BigDecimal!", "feesUSD": "BigDecimal!", "txCount": "BigInt!",
                 "createdAtTimestamp": "BigInt!", "createdAtBlockNumber": "BigInt!", "gauge": "Gauge"},
        "PoolHourData": {"periodStartUnix": "Int!", "pool": "Pool!", "tvlUSD": "BigDecimal!", "close": "BigDecimal!"},
        "PoolDayData": {"date": "Int!", "txCount": "BigInt!"},
        "TokenHourData": {"periodStartUnix": "Int!", "token": "Token!", "priceUSD": "BigDecimal!"},
        "Swap": {"timestamp": "BigInt!", "blockNumber": "BigInt!", "sender": "String!", "amount0": "BigDecimal!"},
        "Gauge": {"pool": "Pool", "isAlive": "Boolean!", "createdAtTimestamp": "BigInt!", "kind": "String!",
                  "target": "String!", "createdAtBlockNumber": "BigInt!"},
        "VeNFT": {"tokenId": "BigInt!", "owner": "String!", "lockedAmount": "BigDecimal!", "unlockTime": "BigInt!",
                  "isPermanent": "Boolean!"},
        "Vote": {"epoch": "BigInt!", "veNFT": "VeNFT!", "pool": "Pool", "weight": "BigDecimal!", "target": "String!"},
        "Bribe": {"gauge": "Gauge!", "token": "Token!", "amountUSD": "BigDecimal", "from": "String!",
                  "isFoundation": "Boolean!", "blockNumber": "BigInt!"},
        "Claim": {"veNFT": "VeNFT!", "kind": "String!", "amount": "BigDecimal!"},
        "Token": {"derivedETH": "BigDecimal!", "decimals": "Int!", "poolCount": "Int!", "txCount": "BigInt!"},
        "Factory": {"poolCount": "Int!", "totalValueLockedUSD": "BigDecimal!"},
        "Bundle": {"ethPriceUSD": "BigDecimal!"},
        "_Meta_": {"block": "_Block_!", "deployment": "String!", "hasIndexingErrors": "Boolean!"},
        "_Block_": {"number": "Int!", "timestamp": "Int!", "hash": "String"},
    }
    for type_name, fields in expected.items():
        gtype = SCHEMA.type_map[type_name]
        for name, type_str in fields.items():
            assert str(gtype.fields[name].type) == type_str, (type_name, name)
    q = SCHEMA.query_type.fields
    for name in ("factories", "bundles", "tokens", "pools", "poolHourDatas", "poolDayDatas", "tokenHourDatas",
                 "swaps", "gauges", "veNFTs", "votes", "bribes", "claims"):
        assert {"first", "skip", "orderBy", "orderDirection", "where", "block"} <= set(q[name].args)
    for name in ("factory", "bundle", "token", "pool", "_meta"):
        assert "block" in q[name].args
    where = SCHEMA.type_map["Bribe_filter"].fields
    for arg in ("id", "id_in", "id_gt", "id_lt", "pool", "pool_in", "token", "gauge", "timestamp_gte",
                "timestamp_lt", "epoch", "epoch_gte", "epoch_lt", "isFoundation"):
        assert arg in where


def test_meta_is_the_head(subgraph, sim):
    meta = run(subgraph, "{ _meta { block { number timestamp hash } deployment hasIndexingErrors } }")["_meta"]
    head = sim.head()
    assert meta["block"] == {"number": head, "timestamp": sim.block_ts(head), "hash": sim.block_hash(head)}
    assert meta["deployment"].startswith("Qm") and meta["hasIndexingErrors"] is False
    old = run(subgraph, "query($b: Int) { _meta(block: {number: $b}) { block { number timestamp } } }",
              {"b": head - 1000})["_meta"]
    assert old["block"]["number"] == head - 1000


def test_paging_all_pool_hour_datas_with_id_gt(subgraph, sim):
    ids, last = [], ""
    while True:
        page = run(subgraph, """query($last: String!) {
            poolHourDatas(first: 1000, where: {id_gt: $last}) { id periodStartUnix pool { id } volumeUSD }
        }""", {"last": last})["poolHourDatas"]
        ids.extend(r["id"] for r in page)
        if len(page) < 1000:
            break
        last = page[-1]["id"]
    head_ts = sim.block_ts(sim.head())
    expected = sum(1 for r in sim.hour_rows if r["periodStartUnix"] <= head_ts)
    assert len(ids) == len(set(ids)) == expected > 2000
    assert ids == sorted(ids)


def test_hour_data_volume_matches_truth(subgraph, sim):
    head = sim.head()
    head_ts = sim.block_ts(head)
    start = sim.genesis_ts + 2 * DAY
    end = head_ts - head_ts % HOUR - 5 * HOUR  # closed hours only
    rows, last = [], ""
    while True:
        page = run(subgraph, """query($a: Int!, $b: Int!, $last: ID!) {
            poolHourDatas(first: 1000, where: {periodStartUnix_gte: $a, periodStartUnix_lt: $b, id_gt: $last}) {
              id volumeUSD feesUSD txCount }
        }""", {"a": start, "b": end, "last": last})["poolHourDatas"]
        rows.extend(page)
        if len(page) < 1000:
            break
        last = page[-1]["id"]
    truth = sim.flows(start, end)
    vol = math.fsum(float(r["volumeUSD"]) for r in rows)
    fees = math.fsum(float(r["feesUSD"]) for r in rows)
    assert abs(vol / truth["volumeUsd"] - 1) < 1e-9
    assert abs(fees / truth["feesUsd"] - 1) < 1e-9
    assert sum(int(r["txCount"]) for r in rows) == truth["txCount"]
    # including the in-progress hour: its row is partial, up to the head
    cur = head_ts - head_ts % HOUR
    partial = run(subgraph, "query($h: Int!) { poolHourDatas(first: 1000, where: {periodStartUnix: $h}) { volumeUSD } }",
                  {"h": cur})["poolHourDatas"]
    part_truth = sim.flows(cur, head_ts + 1)
    assert math.fsum(float(r["volumeUSD"]) for r in partial) == pytest.approx(part_truth["volumeUsd"], rel=1e-9)


def test_day_data_and_token_hour_data(subgraph, sim):
    pool = sim.pools[0]
    days = run(subgraph, "query($p: String!) { poolDayDatas(first: 1000, where: {pool: $p}, orderBy: date) { date volumeUSD tvlUSD } }",
               {"p": pool.id})["poolDayDatas"]
    assert len(days) >= 9
    d = days[2]
    truth = sim.flows(d["date"], d["date"] + DAY, pool.id)
    assert float(d["volumeUSD"]) == pytest.approx(truth["volumeUsd"], rel=1e-9)
    core = sim.core
    hours = run(subgraph, """query($t: String!) { tokenHourDatas(first: 5, where: {token: $t}, orderBy: periodStartUnix,
               orderDirection: desc) { periodStartUnix priceUSD volumeUSD token { symbol } } }""",
                {"t": core.id})["tokenHourDatas"]
    assert hours[0]["token"]["symbol"] == "CORE"
    assert [h["periodStartUnix"] for h in hours] == sorted((h["periodStartUnix"] for h in hours), reverse=True)
    closed = hours[1]
    assert float(closed["priceUSD"]) == sim.price(core, closed["periodStartUnix"] + HOUR - sim.block_time)


def test_time_travel(subgraph, sim):
    head = sim.head()
    old = head - 3 * DAY // sim.block_time
    q = "query($id: ID!, $b: Int!) { pool(id: $id, block: {number: $b}) { volumeUSD txCount totalValueLockedUSD } }"
    pool = sim.pools[0]
    now_row = run(subgraph, q, {"id": pool.id, "b": head})["pool"]
    old_row = run(subgraph, q, {"id": pool.id, "b": old})["pool"]
    assert float(old_row["volumeUSD"]) < float(now_row["volumeUSD"])
    assert int(old_row["txCount"]) < int(now_row["txCount"])
    st = pool.state_at(sim.block_ts(old))
    assert float(old_row["volumeUSD"]) == st.volume_usd
    assert float(old_row["totalValueLockedUSD"]) == pool.tvl_usd(st, sim.block_ts(old))
    # a pool created later does not exist before its creation
    late = next(p for p in sim.pools if p.created_ts > sim.genesis_ts)
    before = late.created_block - 1
    assert run(subgraph, q, {"id": late.id, "b": before})["pool"] is None
    ids_before = {p["id"] for p in run(subgraph, "query($b: Int!) { pools(first: 100, block: {number: $b}) { id } }",
                                       {"b": before})["pools"]}
    assert late.id not in ids_before and len(ids_before) == len(sim.pools_at(sim.block_ts(before)))
    # events after the block are invisible, hour data stops at the block's hour
    swaps = run(subgraph, """query($b: Int!) { swaps(first: 5, orderBy: timestamp, orderDirection: desc,
               block: {number: $b}) { timestamp } }""", {"b": old})["swaps"]
    assert swaps and all(int(s["timestamp"]) <= sim.block_ts(old) for s in swaps)
    # a pool created in the middle of an hour has no hour row before its creation block
    assert late.created_ts % HOUR > 0
    rows = run(subgraph, """query($b: Int!, $p: String!) { poolHourDatas(where: {pool: $p}, block: {number: $b}) {
               id } }""", {"b": before, "p": late.id})["poolHourDatas"]
    assert rows == []
    rows = run(subgraph, """query($b: Int!, $p: String!) { poolHourDatas(where: {pool: $p}, block: {number: $b}) {
               txCount } }""", {"b": late.created_block, "p": late.id})["poolHourDatas"]
    assert rows == [{"txCount": "1"}]
    hours = run(subgraph, """query($b: Int!, $p: String!) { poolHourDatas(first: 2, orderBy: periodStartUnix,
               orderDirection: desc, where: {pool: $p}, block: {number: $b}) { periodStartUnix volumeUSD } }""",
                {"b": old, "p": pool.id})["poolHourDatas"]
    assert hours[0]["periodStartUnix"] == sim.block_ts(old) - sim.block_ts(old) % HOUR


def test_filters_ordering_and_refs(subgraph, sim):
    pool = sim.pools[7]
    head_ts = sim.block_ts(sim.head())
    data = run(subgraph, """query($p: String!, $t: BigInt!) {
        swaps(first: 50, where: {pool: $p, timestamp_gte: $t}, orderBy: timestamp, orderDirection: desc) {
          id timestamp amountUSD pool { id token0 { symbol } } }
    }""", {"p": pool.id, "t": str(head_ts - DAY)})["swaps"]
    assert data and all(s["pool"]["id"] == pool.id and int(s["timestamp"]) >= head_ts - DAY for s in data)
    ts = [int(s["timestamp"]) for s in data]
    assert ts == sorted(ts, reverse=True)
    expected = [s for s in sim.swaps if s.pool is pool and head_ts - DAY <= s.ts <= head_ts][::-1][:50]
    assert [float(s["amountUSD"]) for s in data] == [s.amount_usd for s in expected]
    fb = run(subgraph, "{ bribes(first: 1000, where: {isFoundation: true}) { from isFoundation amountUSD } }")["bribes"]
    assert fb and all(b["isFoundation"] and b["from"] == sim.foundation_wallet.lower() for b in fb)
    by_from = run(subgraph, "query($f: String!) { bribes(first: 1000, where: {from: $f}) { id } }",
                  {"f": sim.foundation_wallet})["bribes"]  # checksummed input, lower-case storage
    assert len(by_from) == len(fb)
    epoch = sim.gov.votes[-1]["epoch"]
    votes = run(subgraph, "query($e: BigInt!) { votes(first: 1000, where: {epoch: $e}) { epoch veNFT { id isPermanent } } }",
                {"e": epoch})["votes"]
    assert votes and all(int(v["epoch"]) == epoch for v in votes)
    top = run(subgraph, "{ pools(first: 3, orderBy: totalValueLockedUSD, orderDirection: desc) { totalValueLockedUSD } }")["pools"]
    tvls = [float(p["totalValueLockedUSD"]) for p in top]
    assert tvls == sorted(tvls, reverse=True)
    by_in = run(subgraph, "query($ids: [ID!]) { pools(where: {id_in: $ids}) { id } }",
                {"ids": [sim.pools[0].address, sim.pools[1].id]})["pools"]
    assert {p["id"] for p in by_in} == {sim.pools[0].id, sim.pools[1].id}
    frag = run(subgraph, """fragment P on Pool { id feeTier }
        { a: pools(first: 2, orderBy: createdAtTimestamp) { ...P } b: tokens(where: {symbol: "CORE"}) { __typename id } }""")
    assert len(frag["a"]) == 2 and frag["b"][0]["__typename"] == "Token"
    assert frag["b"][0]["id"] == sim.core.id


def test_entities_agree_with_the_model(subgraph, sim):
    head = sim.head()
    ts = sim.block_ts(head)
    data = run(subgraph, """{
        factories { type poolCount totalValueLockedUSD totalVolumeUSD }
        bundle(id: "1") { ethPriceUSD }
        tokens(first: 100) { id symbol priceUSD derivedETH decimals }
        pools(first: 100) { id totalValueLockedUSD reserve0 type isDynamicFee isCustomFee feeTier tickSpacing
                            token0 { decimals } }
        gauges(first: 100) { id isAlive pool { id } }
        veNFTs(first: 1000) { tokenId lockedAmount votingPower isPermanent }
    }""")
    truth = sim.state_at_block(head)
    tvl = math.fsum(float(f["totalValueLockedUSD"]) for f in data["factories"])
    assert tvl == pytest.approx(truth["tvlUsd"], rel=1e-12)
    assert float(data["bundle"]["ethPriceUSD"]) == truth["nativePriceUsd"]
    for t in data["tokens"]:
        if t["id"] == sim.unpriced.id:  # the bribe token without a price: 0, as a DEX subgraph has it
            assert float(t["priceUSD"]) == float(t["derivedETH"]) == 0.0 and t["id"] not in truth["tokens"]
            continue
        assert float(t["priceUSD"]) == truth["tokens"][t["id"]]["priceUsd"]
    assert len(data["tokens"]) == len(truth["tokens"]) + 1
    for p in data["pools"]:
        assert float(p["totalValueLockedUSD"]) == truth["pools"][p["id"]]["tvlUsd"]
        raw = int(truth["pools"][p["id"]]["reserve0"])
        assert Decimal(p["reserve0"]) * 10 ** p["token0"]["decimals"] == raw  # exact decimal strings
        assert (p["tickSpacing"] is None) == (p["type"] != "cl")
    assert sum(g["isAlive"] for g in data["gauges"]) == truth["activeGaugeCount"]
    total = sum(Decimal(v["lockedAmount"]) for v in data["veNFTs"])
    assert total * 10**18 == Decimal(truth["veSupply"])
    power = sum(Decimal(v["votingPower"]) for v in data["veNFTs"])
    assert power * 10**18 == Decimal(truth["veVotingPower"])
    assert ts == truth["timestamp"]


def test_errors_like_the_graph(subgraph, sim):
    assert "must be between 0 and 1000" in error(subgraph, "{ pools(first: 1001) { id } }")
    assert "must be between 0 and 5000" in error(subgraph, "{ swaps(skip: 5001) { id } }")
    head = sim.head()
    msg = error(subgraph, "query($b: Int!) { pools(block: {number: $b}) { id } }", {"b": head + 10})
    assert f"has only indexed up to block number {head}" in msg
    assert f"data for block number {head + 10} is therefore not yet available" in msg
    assert "Cannot query field" in error(subgraph, "{ pools { nope } }")
    # ID and String variables are interchangeable, Int and String are not
    assert "expecting type" in error(subgraph, "query($n: String) { pools(first: $n) { id } }")
    assert subgraph.execute("mutation { x }")["errors"]
    assert subgraph.execute("")["errors"]


def test_bigdecimal_strings_round_trip(subgraph, sim):
    swaps = run(subgraph, "{ swaps(first: 200, orderBy: timestamp) { id amountUSD feesUSD amount0 } }")["swaps"]
    by_id = {s.id: s for s in sim.swaps[:5000]}
    for row in swaps:
        s = by_id[row["id"]]
        assert float(row["amountUSD"]) == s.amount_usd and float(row["feesUSD"]) == s.fees_usd
        assert "e" not in row["amountUSD"].lower()
        raw = int(round(float(row["amount0"]) * 10**s.pool.token0.decimals))
        assert abs(raw - s.amount0) <= max(1, abs(s.amount0) // 10**12)


def test_introspection_and_http(devnet_server, sim):
    url = devnet_server.subgraph_url(56)
    with httpx.Client(timeout=30) as client:
        r = client.post(url, json={"query": "{ __schema { queryType { name } } }"})
        assert r.status_code == 200 and r.json()["data"]["__schema"]["queryType"]["name"] == "Query"
        r = client.post(url, json={"query": "{ pools(first: 1001) { id } }"})
        assert r.status_code == 200 and "errors" in r.json()
        r = client.post(url, json={"query": "query($n: Int!) { poolHourDatas(first: $n) { id tvlUSD } }",
                                   "variables": {"n": 1000}})
        assert r.status_code == 200 and len(r.json()["data"]["poolHourDatas"]) == 1000
        r = client.post(devnet_server.url + "/chains/1/subgraph", json={"query": "{ pools { id } }"})
        assert r.status_code == 404 and r.json()["error"] == "unknown chain 1"


def test_revise_prices_fault_rewrites_token_hour_prices_until_cleared(devnet_server, sim):
    """A `revise_prices` fault is an upstream revising its price history: every TokenHourData
    priceUSD served is multiplied by the factor (also from a warm answer cache), nothing else
    changes, the truth keeps the true prices, and clearing it serves them again."""
    url, control = devnet_server.subgraph_url(56), devnet_server.url + "/control/faults"
    hour = sim.genesis_ts + 2 * DAY + 5 * HOUR  # long ended: its answers are final (cached)
    block = sim.block_at(hour + HOUR - 1)
    query = {"query": """query($h: Int!, $b: Int!) {
        rows: tokenHourDatas(first: 1000, where: {periodStartUnix: $h}, orderBy: id, block: {number: $b}) {
            id priceUSD volumeUSD token { id priceUSD } } }""", "variables": {"h": hour, "b": block}}

    def served(client) -> dict[str, dict]:
        r = client.post(url, json=query)
        assert r.status_code == 200 and "errors" not in r.json(), r.text
        return {row["token"]["id"]: row for row in r.json()["data"]["rows"]}

    def one(client, rid: str) -> str:
        r = client.post(url, json={"query": "query($i: ID!) { tokenHourData(id: $i) { priceUSD } }",
                                   "variables": {"i": rid}})
        return r.json()["data"]["tokenHourData"]["priceUSD"]

    with httpx.Client(timeout=30) as client:
        try:
            truth = client.get(f"{devnet_server.url}/chains/56/truth/state", params={"block": block}).json()["tokens"]
            true = served(client)
            assert set(true) == set(truth) and len(true) >= 6
            assert all(float(true[t]["priceUSD"]) == pytest.approx(truth[t]["priceUsd"], rel=1e-9) for t in truth)
            r = client.post(control, json={"chainId": 56, "target": "subgraph", "mode": "revise_prices", "factor": 1.01})
            assert r.status_code == 200
            assert r.json()["faults"] == [{"chainId": 56, "target": "subgraph", "mode": "revise_prices", "factor": 1.01}]
            revised = served(client)
            assert set(revised) == set(true)
            for t, row in revised.items():
                assert float(row["priceUSD"]) == float(true[t]["priceUSD"]) * 1.01  # bit for bit
                assert row["volumeUSD"] == true[t]["volumeUSD"] and row["token"] == true[t]["token"]  # only the price
            some = next(iter(true.values()))
            assert float(one(client, some["id"])) == float(some["priceUSD"]) * 1.01
            again = client.get(f"{devnet_server.url}/chains/56/truth/state", params={"block": block}).json()["tokens"]
            assert again == truth  # the truth stays the truth
            client.post(control, json={"chainId": 56, "target": "subgraph", "mode": "ok"})
            assert served(client) == true and one(client, some["id"]) == some["priceUSD"]
        finally:
            client.post(control, json={"mode": "ok"})


@pytest.mark.parametrize("body", [
    {"chainId": 56, "target": "subgraph", "mode": "revise_prices"},  # no factor
    {"chainId": 56, "target": "subgraph", "mode": "revise_prices", "factor": 0},
    {"chainId": 56, "target": "subgraph", "mode": "revise_prices", "factor": -1.5},
    {"chainId": 56, "target": "subgraph", "mode": "revise_prices", "factor": "1.01"},
    {"chainId": 56, "target": "subgraph", "mode": "revise_prices", "factor": True},
    {"chainId": 56, "target": "rpc", "mode": "revise_prices", "factor": 1.01},
    {"chainId": 56, "target": "all", "mode": "revise_prices", "factor": 1.01},
    {"chainId": 999, "target": "subgraph", "mode": "revise_prices", "factor": 1.01},
])
def test_revise_prices_fault_is_validated(devnet_server, body):
    with httpx.Client(base_url=devnet_server.url, timeout=30) as client:
        try:
            r = client.post("/control/faults", json=body)
            assert r.status_code == 400 and r.json()["error"]
            assert client.get("/control/faults").json()["faults"] == []
        finally:
            client.post("/control/faults", json={"mode": "ok"})
