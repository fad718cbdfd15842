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
