"""The readers' direct encodings against the libraries they replace: Multicall3 aggregate3
calldata and answers against eth_abi, per-call results against eth_abi, the reader's JSON-RPC
against web3 on the devnet, and SubgraphClient.batch against the separate reads it combines."""
from __future__ import annotations

import httpx
import pytest
from eth_abi import decode as abi_decode
from eth_abi import encode as abi_encode
from eth_abi.exceptions import EncodingTypeError, InsufficientDataBytes, NonEmptyPaddingBytes
from eth_utils import function_signature_to_4byte_selector, to_checksum_address

from ve_analytics.core.chains import MULTICALL3
from ve_analytics.readers.graphql import One, Page
from ve_analytics.readers.multicall import (
    AGGREGATE3,
    aggregate3_calldata,
    decode_aggregate3,
    decode_result,
    encode_calls,
)


def web3_era_result(types, data):
    """decode_result as it was before the word readers: eth_abi, addresses lower-cased."""
    if not data and types:
        return None
    try:
        values = abi_decode(list(types), bytes(data))
    except Exception:
        return None
    values = tuple(v.lower() if isinstance(v, str) and t == "address" else v for t, v in zip(types, values))
    return values[0] if len(values) == 1 else values


def eth_abi_aggregate3(calls):
    """aggregate3 calldata through eth_abi, with checksummed addresses (what the reader sent before)."""
    subcalls = []
    for address, signature, args, _ in calls:
        fn = signature[: signature.index(")") + 1]
        inputs = [t for t in fn[fn.index("(") + 1 : -1].split(",") if t]
        data = function_signature_to_4byte_selector(fn) + abi_encode(inputs, list(args))
        subcalls.append((to_checksum_address(address), True, data))
    return function_signature_to_4byte_selector(AGGREGATE3) + abi_encode(["(address,bool,bytes)[]"], [subcalls])


SAMPLE_CALLS = [
    ("0x3b70e3caae5c111ff7af053393a9988ffdaf24b0", "length()", (), ("uint256",)),
    ("0x3B70E3CaAE5C111FF7Af053393A9988fFdaf24b0", "pools(uint256)", (7,), ("address",)),
    ("0x3b70e3caae5c111ff7af053393a9988ffdaf24b0", "gauges(address)", ("0x5fc8b6d47d1ba7de5065f6d48a9f01784902bf53",), ("address",)),
    ("0x3b70e3caae5c111ff7af053393a9988ffdaf24b0", "isAlive(address)", ("0x5fc8B6d47D1BA7de5065F6D48a9f01784902bf53",), ("bool",)),
    ("0x7be6f408ec5ed9136bf01017dcb3d99847a57ee1", "balanceOf(address)", ("0x" + "00" * 20,), ("uint256",)),
    ("0x7be6f408ec5ed9136bf01017dcb3d99847a57ee1", "allowance(address,address)", ("0x" + "11" * 20, "0x" + "22" * 20), ("uint256",)),
    ("0x7be6f408ec5ed9136bf01017dcb3d99847a57ee1", "name(string)", ("a string of more than thirty-two bytes, unpadded",), ("string",)),
    ("0x7be6f408ec5ed9136bf01017dcb3d99847a57ee1", "blob(bytes)", (b"\x01\x02\x03",), ("bytes",)),
    ("0x7be6f408ec5ed9136bf01017dcb3d99847a57ee1", "ticks(int24)", (-887272,), ("int24",)),
    ("0x7be6f408ec5ed9136bf01017dcb3d99847a57ee1", "many(uint256[])", ([1, 2, 3],), ("uint256",)),
]


@pytest.mark.parametrize("n", [0, 1, 3, len(SAMPLE_CALLS)])
def test_aggregate3_calldata_equals_eth_abi(n):
    calls = SAMPLE_CALLS[:n]
    assert aggregate3_calldata(encode_calls(calls)) == eth_abi_aggregate3(calls)
    assert aggregate3_calldata(encode_calls(calls)) == eth_abi_aggregate3(calls)  # from the caches too


def test_calldata_cache_keeps_bool_and_int_apart():
    (_, data, _), = encode_calls([(MULTICALL3, "pools(uint256)", (1,), ("address",))])
    assert data[4:] == abi_encode(["uint256"], [1])
    # a bool is not a uint256, whatever the cache holds for the int 1 (True == 1 in Python)
    with pytest.raises(EncodingTypeError, match="cannot be encoded by UnsignedIntegerEncoder"):
        encode_calls([(MULTICALL3, "pools(uint256)", (True,), ("address",))])


def test_bad_addresses_still_fail_before_any_rpc():
    for bad, says in (("0x1234", "Unknown format '0x1234'"), ("not an address", "must be a hex string"),
                      ("0x" + "zz" * 20, "must be a hex string")):
        with pytest.raises(ValueError, match=says):
            encode_calls([(bad, "length()", (), ("uint256",))])


def test_decode_aggregate3_equals_eth_abi_and_falls_back_on_odd_layouts():
    answers = [(True, b""), (False, b"\x08\xc3\x79\xa0" + b"\x00" * 10), (True, abi_encode(["uint256"], [5])),
               (True, abi_encode(["string"], ["x" * 70]))]
    raw = abi_encode(["(bool,bytes)[]"], [answers])
    assert decode_aggregate3(raw) == list(abi_decode(["(bool,bytes)[]"], raw)[0]) == answers
    assert decode_aggregate3(abi_encode(["(bool,bytes)[]"], [[]])) == []
    # non-zero padding after a sub-call's bytes: not canonical, eth_abi decides (and rejects it)
    bad = bytearray(abi_encode(["(bool,bytes)[]"], [[(True, b"\x01")]]))
    bad[-1] = 1
    with pytest.raises(NonEmptyPaddingBytes):
        decode_aggregate3(bytes(bad))
    with pytest.raises(InsufficientDataBytes):
        decode_aggregate3(b"\x00" * 5)


WORD = 32
CASES = [
    (("uint256",), abi_encode(["uint256"], [2**256 - 1])),
    (("uint256",), abi_encode(["uint256"], [0]) + b"\x00" * WORD),  # trailing data
    (("uint8",), abi_encode(["uint8"], [18])),
    (("uint8",), abi_encode(["uint256"], [256])),  # dirty padding: eth_abi rejects it
    (("bool",), abi_encode(["bool"], [True])),
    (("bool",), abi_encode(["bool"], [False])),
    (("bool",), abi_encode(["uint256"], [2])),
    (("address",), abi_encode(["address"], ["0x7bE6F408Ec5ed9136Bf01017dcB3d99847a57eE1"])),
    (("address",), b"\x01" + abi_encode(["address"], ["0x7bE6F408Ec5ed9136Bf01017dcB3d99847a57eE1"])[1:]),
    (("int24",), abi_encode(["int24"], [-887272])),
    (("int24",), abi_encode(["int24"], [887272])),
    (("int24",), abi_encode(["int256"], [2**23])),  # out of int24's range
    (("int24",), abi_encode(["int256"], [-(2**23) - 1])),
    (("uint256", "uint256"), abi_encode(["uint256", "uint256"], [3, 4])),
    (("uint128", "int24", "int24"), abi_encode(["uint128", "int24", "int24"], [2**100, -60, 60])),
    (("uint160", "int24", "uint16", "uint16", "uint16", "bool"),
     abi_encode(["uint160", "int24", "uint16", "uint16", "uint16", "bool"], [2**96, -5, 1, 2, 3, True])),
    (("uint256", "uint256"), abi_encode(["uint256"], [3])),  # short
    (("uint256",), b"\x00" * 31),
    (("uint256",), b""),
    (("string",), abi_encode(["string"], ["CORE"])),
    (("string",), abi_encode(["uint256"], [5])),
    (("bytes32",), b"\x07" * 32),
]


@pytest.mark.parametrize("types,data", CASES)
def test_decode_result_equals_eth_abi(types, data):
    got, want = decode_result(list(types), data), web3_era_result(types, data)
    assert got == want and type(got) is type(want)
    if isinstance(want, tuple):
        assert [type(v) for v in got] == [type(v) for v in want]


# -- against the devnet ---------------------------------------------------------------------------
@pytest.fixture
def deployment(devnet):
    return httpx.get(f"{devnet.url}/chains/56/deployment", timeout=30).json()


def protocol_calls(deployment, block_pools):
    book = deployment["contracts"]
    voter, minter, ve, core = book["voter"], book["minter"], book["votingEscrow"], book["coreToken"]
    calls = [
        (voter, "length()", (), ("uint256",)),
        (voter, "totalWeight()", (), ("uint256",)),
        (minter, "weekly()", (), ("uint256",)),
        (ve, "supply()", (), ("uint256",)),
        (voter, "noSuchMethod(uint256)", (1,), ("uint256",)),
        (core, "symbol()", (), ("string",)),
        (core, "decimals()", (), ("uint8",)),
    ]
    calls += [(voter, "pools(uint256)", (i,), ("address",)) for i in range(block_pools)]
    for p in deployment["pools"]:
        calls.append((voter, "gauges(address)", (p["address"],), ("address",)))
        if p["gauge"]:
            calls.append((voter, "isAlive(address)", (p["gauge"],), ("bool",)))
    for v in deployment["vaults"]:
        calls.append((v["address"], "getTotalAmounts()", (), ("uint256", "uint256")))
        if v["kind"] == "cl":
            calls += [(v["address"], "getPosition()", (), ("uint128", "int24", "int24")),
                      (v["address"], "tickLower()", (), ("int24",)),
                      (v["pool"], "slot0()", (), ("uint160", "int24", "uint16", "uint16", "uint16", "bool"))]
    return calls


def test_multicall_equals_web3_and_eth_abi_on_the_devnet(chain, deployment):
    block = chain.head().number - 50
    calls = protocol_calls(deployment, 5)
    got = chain.multicall(calls, block, chunk_size=7)  # several chunks
    # reference: web3's eth_call of eth_abi's aggregate3 encoding, decoded by eth_abi
    raw = chain.w3.eth.call({"to": to_checksum_address(MULTICALL3), "data": eth_abi_aggregate3(calls)},
                            block_identifier=block)
    (answers,) = abi_decode(["(bool,bytes)[]"], bytes(raw))
    want = [web3_era_result(outs, ret) if ok else None for (_, _, _, outs), (ok, ret) in zip(calls, answers)]
    assert got == want
    assert want[4] is None and all(v is not None for i, v in enumerate(want) if i != 4), [c for c, v in zip(calls, want) if v is None]


def test_blocks_code_and_chain_id_equal_web3(chain, deployment):
    head = chain.head()
    w3 = chain.w3
    latest = w3.eth.get_block("latest")
    assert (head.number, head.timestamp) == (latest["number"], latest["timestamp"])
    for n in (deployment["genesis"]["block"], head.number - 1234, head.number):
        assert chain.block(n).timestamp == w3.eth.get_block(n)["timestamp"]
    chain.check_chain()
    assert w3.eth.chain_id == 56
    vault = deployment["vaults"][0]
    for block in (vault["createdAtBlock"] - 1, head.number):
        assert chain.code(vault["address"], block) == bytes(w3.eth.get_code(to_checksum_address(vault["address"]), block))
    assert chain.call(deployment["contracts"]["voter"], "length()(uint256)", block=head.number) == \
        chain.multicall([(deployment["contracts"]["voter"], "length()", (), ("uint256",))], head.number)[0]


@pytest.mark.parametrize("page_size", [1000, 3])
def test_batch_equals_separate_reads(subgraph, devnet, page_size):
    block = subgraph.meta().block_number - 20
    core = httpx.get(f"{devnet.url}/chains/56/deployment", timeout=30).json()["contracts"]["coreToken"].lower()
    got = subgraph.batch({
        "gauges": Page("gauges", "pool { id } isAlive emissionsEpoch votes"),
        "pools": Page("pools", ["totalValueLockedUSD", "type"]),
        "core": One("token", core, "priceUSD"),
        "missing": One("token", "0x" + "00" * 20, "priceUSD"),
        "tokens": Page("tokens", "symbol", {"symbol_in": ["CORE", "WBNB", "USDT", "USDC"]}),
    }, block=block, page_size=page_size)
    assert got["gauges"] == subgraph.paginate("gauges", "pool { id } isAlive emissionsEpoch votes", block=block)
    assert got["pools"] == subgraph.paginate("pools", ["totalValueLockedUSD", "type"], block=block)
    assert got["core"] == subgraph.one("token", core, "priceUSD", block=block) and got["core"]
    assert got["missing"] is None
    assert got["tokens"] == subgraph.paginate("tokens", "symbol", where={"symbol_in": ["CORE", "WBNB", "USDT", "USDC"]},
                                              block=block)
    assert len(got["pools"]) > 3 and len(got["tokens"]) == 4
