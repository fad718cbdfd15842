"""The serving fast paths answer exactly what the slow paths do: Sanic's signals, the ABI
encoder, the parsed-document templates and the subgraph's answer cache."""
from __future__ import annotations

import asyncio

from devnet.clock import ManualClock
from devnet.server import DevnetState, create_app


def test_unlistened_http_signals_are_skipped_but_registered_ones_still_fire():
    app = create_app(DevnetState(clock=ManualClock(0), chains={}))
    assert asyncio.run(app.dispatch("http.lifecycle.begin", inline=True)) is None
    fired = []

    @app.signal("http.lifecycle.begin")
    async def begin(**context):
        fired.append(context)

    async def run():
        app.signal_router.finalize()
        await app.dispatch("http.lifecycle.begin", inline=True, context={"conn_info": None})

    asyncio.run(run())
    assert fired == [{"conn_info": None}]


# -- ABI encoding ---------------------------------------------------------------------------------
def _abi_outcome(fn, types, values):
    try:
        return fn(types, values)
    except Exception as exc:  # noqa: BLE001 - the error's type is part of the answer
        return type(exc)


def test_abi_encoder_matches_eth_abi_on_every_contract_output_type_and_bad_values():
    import random

    from eth_abi import encode as eth_abi_encode

    from devnet.rpc.abi import Contract, encode
    from devnet.rpc import contracts, vaults  # noqa: F401 - registers every contract class

    def classes(k):
        for s in k.__subclasses__():
            yield s
            yield from classes(s)

    output_types = {tuple(m.outputs) for c in classes(Contract) for m in c.methods.values()}
    output_types |= {("string",), ("bytes",), ("bytes4",), ("uint256[]",), ("(address,bool,bytes)[]",),
                     ("uint8[3]",), ("(uint256,bytes)[2]",), ("int8",), ("(bool,(uint16,string)[])",)}
    rng = random.Random(7)

    def value(t: str, bad: bool):
        if t.endswith("]"):
            base, _, dim = t[:-1].rpartition("[")
            n = int(dim) if dim else rng.randrange(0, 4)
            if bad and rng.random() < 0.2:
                n += 1
            return [value(base, bad) for _ in range(n)]
        if t.startswith("("):
            from devnet.rpc.abi import _split_types
            return tuple(value(x, bad) for x in _split_types(t[1:-1]))
        if bad and rng.random() < 0.15:
            return rng.choice([None, -1, 1 << 256, True, "0x12", b"\x01" * 33, 1.5, "\ud800", "zz" * 20])
        if t == "address":
            raw = rng.randbytes(20)
            return rng.choice(["0x" + raw.hex(), "0x" + raw.hex().upper(), raw.hex(), raw])
        if t == "bool":
            return rng.random() < 0.5
        if t == "string":
            return rng.choice(["", "abc", "é" * 40, "x" * 33])
        if t == "bytes":
            return rng.randbytes(rng.choice([0, 1, 31, 32, 33, 70]))
        if t.startswith("bytes"):
            return rng.randbytes(rng.randrange(0, int(t[5:]) + 1))
        bits = int(t.lstrip("uint") or 256)
        if t.startswith("uint"):
            return rng.choice([0, 1, (1 << bits) - 1, rng.randrange(1 << bits)])
        return rng.choice([0, -1, -(1 << (bits - 1)), (1 << (bits - 1)) - 1, rng.randrange(-(1 << (bits - 1)), 1 << (bits - 1))])

    checked = 0
    for types in sorted(output_types):
        for i in range(60):
            values = [value(t, bad=i % 3 == 2) for t in types]
            assert _abi_outcome(encode, list(types), values) == _abi_outcome(eth_abi_encode, list(types), values), (types, values)
            checked += 1
    assert checked > 1000


# -- subgraph: document templates and the answer cache ----------------------------------------------
def _fresh(sim):
    from devnet.subgraph.service import SubgraphService

    return SubgraphService(sim)


def test_documents_reused_across_int_literals_answer_as_freshly_parsed_ones(subgraph, sim):
    head = sim.head()
    texts = []
    for block in (head - 1000, head - 2000, head - 1000, head + 50, 2**40):
        texts.append(f'{{ page: pools(first: 3, orderBy: id, where: {{id_gt: ""}}, block: {{number: {block}}}) '
                     f'{{ id totalValueLockedUSD }} }}')
    for first in (2, 3, 5000, 0, 7):  # 5000: over the limit; two texts share a shape, others do not
        texts.append(f'{{ page: swaps(first: {first}, skip: 1, orderBy: timestamp, block: {{number: {head - 600}}}) '
                     f'{{ id amountUSD }} a: tokens(first: {first}) {{ id }} }}')
    texts.append('{ page: pools(first: 3, orderBy: id, where: {id_gt: "12"}, block: {number: 12}) { id } }')
    texts.append('{ page: pools(first: 03, block: {number: 12}) { id } }')  # invalid literal, same mask
    texts.append('query Q($n: Int = 2) { page: pools(first: $n) { id } }')
    texts.append('query Q($n: Int = 4) { page: pools(first: $n) { id } }')
    shared = _fresh(sim)
    for text in texts:
        assert shared.execute(text) == _fresh(sim).execute(text), text
    assert shared._docs.templates, "the texts above went through templates"
    # a text seen before, after its shared document was used with other literals
    assert shared.execute(texts[0]) == _fresh(sim).execute(texts[0])


def test_answer_cache_keeps_final_answers_only_and_follows_the_head(sim):
    import orjson

    from devnet.timeutil import hour_start

    svc = _fresh(sim)
    final_block = sim.block_at(hour_start(sim.now()) - 3600)
    q = f'{{ page: gauges(first: 5, block: {{number: {final_block}}}) {{ id votes pool {{ id }} }} }}'
    first = svc.execute_json(q)
    assert orjson.loads(first) == svc.execute(q)
    assert len(svc.answers.items) == 1
    assert svc.execute_json(q) is first  # served from the cache
    # the newest blocks are not final: computed every time
    live = '{ _meta { block { number } } }'
    assert orjson.loads(svc.execute_json(live)) == svc.execute(live)
    assert len(svc.answers.items) == 1
    # a lag moves the indexed head: another key, and its own answer
    lagged = svc.execute_json(q, lag_blocks=10)
    assert lagged == first and lagged is not first
    too_new = f'{{ _meta {{ block {{ number }} }} page: pools(first: 1, block: {{number: {sim.head()}}}) {{ id }} }}'
    assert "errors" in orjson.loads(svc.execute_json(too_new, lag_blocks=10))


def test_answers_at_a_block_are_the_same_before_and_after_the_clock_advances():
    import orjson

    from devnet.server import build_state

    state = build_state(seed=5, history_days=2, chains=(56,), genesis_ts=1_750_000_000 - 1_750_000_000 % 3600,
                        manual_clock=True)
    rt = state.chains[56]
    block = rt.sim.head() - 1500
    queries = [f'{{ page: pools(first: 1000, block: {{number: {block}}}) {{ id totalValueLockedUSD volumeUSD gauge {{ id }} }} }}',
               f'{{ page: votes(first: 1000, orderBy: id, block: {{number: {block}}}) {{ id weight veNFT {{ id votingPower }} }} }}',
               f'{{ t: tokens(block: {{number: {block}}}) {{ id priceUSD }} }}']
    before = [rt.subgraph.execute_json(q) for q in queries]
    state.clock.advance(3 * 3600)
    after = [rt.subgraph.execute_json(q) for q in queries]
    fresh = [orjson.dumps(_fresh(rt.sim).execute(q)) for q in queries]
    assert before == after == fresh


def test_faults_still_apply_to_cached_answers(devnet_server, sim):
    import httpx

    from devnet.timeutil import hour_start

    block = sim.block_at(hour_start(sim.now()) - 7200)
    query = {"query": f'{{ page: pools(first: 2, block: {{number: {block}}}) {{ id feesUSD }} }}'}
    with httpx.Client(base_url=devnet_server.url, timeout=30) as c:
        try:
            ok = c.post("/chains/56/subgraph", json=query)
            assert ok.status_code == 200 and c.post("/chains/56/subgraph", json=query).content == ok.content
            c.post("/control/faults", json={"chainId": 56, "target": "subgraph", "mode": "error"})
            assert c.post("/chains/56/subgraph", json=query).status_code == 500
            lag = sim.head() - block + 1  # the block is no longer indexed
            c.post("/control/faults", json={"chainId": 56, "target": "subgraph", "mode": "lag", "lagBlocks": lag})
            assert "not yet available" in c.post("/chains/56/subgraph", json=query).json()["errors"][0]["message"]
            c.post("/control/faults", json={"mode": "ok"})
            assert c.post("/chains/56/subgraph", json=query).content == ok.content
        finally:
            c.post("/control/faults", json={"mode": "ok"})
