"""Contract reads as bytes: call signatures, calldata, and Multicall3 `aggregate3` batches.

Pure encoding and decoding, no RPC: `readers.chain` sends what these build and hands back what
the node answered. A read is a `Call`, (address, "name(inputTypes)", args, outputTypes).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Sequence

from eth_abi import decode as abi_decode
from eth_abi import encode as abi_encode
from eth_utils import function_signature_to_4byte_selector, to_checksum_address

AGGREGATE3 = "aggregate3((address,bool,bytes)[])"
_AGGREGATE3_SELECTOR = function_signature_to_4byte_selector(AGGREGATE3)

# A contract read: (address, "name(inputTypes)", args, outputTypes). The signature may also be
# written with outputs, "name(inputTypes)(outputTypes)", with outputTypes then None.
Call = tuple[str, str, Sequence[Any], Sequence[str] | None]

# One read ready for a batch: (the address's 20 bytes, calldata, output types).
Encoded = tuple[bytes, bytes, tuple[str, ...]]


def _split_types(text: str) -> list[str]:
    """'uint256,(address,bool),bytes' -> ['uint256', '(address,bool)', 'bytes']."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def parse_signature(signature: str) -> tuple[str, list[str], list[str] | None]:
    """'pools(uint256)(address)' -> ('pools(uint256)', ['uint256'], ['address'])."""
    signature = signature.replace(" ", "")
    open_at = signature.index("(")
    depth = 0
    for i in range(open_at, len(signature)):
        depth += signature[i] == "("
        depth -= signature[i] == ")"
        if depth == 0:
            break
    else:
        raise ValueError(f"unbalanced signature: {signature!r}")
    fn = signature[: i + 1]
    inputs = _split_types(fn[open_at + 1 : -1])
    rest = signature[i + 1 :]
    outputs = _split_types(rest[1:-1]) if rest.startswith("(") and rest.endswith(")") else None
    return fn, inputs, outputs


@lru_cache(maxsize=1024)
def _resolved(signature: str, output_types: tuple[str, ...] | None) -> tuple[str, tuple[str, ...], tuple[str, ...] | None]:
    fn, inputs, outputs = parse_signature(signature)
    outs = output_types if output_types is not None else outputs
    return fn, tuple(inputs), tuple(outs) if outs is not None else None


def _resolve(signature: str, output_types: Sequence[str] | None) -> tuple[str, list[str], list[str] | None]:
    """(function, input types, output types); explicit `output_types` win over the signature's."""
    fn, inputs, outs = _resolved(signature, tuple(output_types) if output_types is not None else None)
    return fn, list(inputs), list(outs) if outs is not None else None


@lru_cache(maxsize=1024)
def _selector(fn: str) -> bytes:
    return function_signature_to_4byte_selector(fn)


@lru_cache(maxsize=16384)
def _cached_calldata(fn: str, inputs: tuple[str, ...], args: tuple[Any, ...], arg_types: tuple[type, ...]) -> bytes:
    return _selector(fn) + abi_encode(list(inputs), list(args))


def _calldata(fn: str, inputs: Sequence[str], args: Sequence[Any]) -> bytes:
    """Selector + ABI-encoded arguments; the same arguments of the same function encode once
    (keyed by value and type, so True and 1 stay apart: eth_abi encodes one and rejects the other)."""
    if not inputs and not args:
        return _selector(fn)
    args = tuple(args)
    try:
        return _cached_calldata(fn, tuple(inputs), args, tuple(type(a) for a in args))
    except TypeError as exc:  # unhashable arguments (lists for array inputs): no cache
        if "unhashable" not in str(exc):
            raise
        return _selector(fn) + abi_encode(list(inputs), list(args))


@lru_cache(maxsize=4096)
def _address20(address: str) -> bytes:
    """The 20 bytes of an address (validated as web3 did: to_checksum_address raises on a bad one)."""
    return bytes.fromhex(to_checksum_address(address)[2:])


def address_bytes(address: Any) -> bytes:
    if isinstance(address, str):
        return _address20(address)
    return bytes.fromhex(to_checksum_address(address)[2:])


def encode_call(signature: str, args: Sequence[Any], output_types: Sequence[str] | None) -> tuple[str, bytes, list[str] | None]:
    """(function, calldata, output types) of one direct read."""
    fn, inputs, outs = _resolve(signature, output_types)
    return fn, _calldata(fn, inputs, args), outs


def encode_calls(calls: Sequence[Call]) -> list[Encoded]:
    """Every read of a batch encoded up front, so a malformed one fails before any RPC."""
    encoded: list[Encoded] = []
    for address, signature, args, output_types in calls:
        fn, inputs, outs = _resolved(signature, tuple(output_types) if output_types is not None else None)
        if outs is None:
            raise ValueError(f"no output types for {signature!r}")
        encoded.append((address_bytes(address), _calldata(fn, inputs, args), outs))
    return encoded


_ZERO12 = bytes(12)


def _word(n: int) -> bytes:
    return n.to_bytes(32, "big")


def aggregate3_calldata(chunk: Sequence[Encoded]) -> bytes:
    """Calldata of `aggregate3` over `chunk`, each sub-call allowed to fail.

    The ABI encoding of `((address,bool,bytes)[])`, written out: the offset of the array, its
    length, the offset of every element (relative to the first), then the elements, each its
    address and allowFailure=true words, the offset of its bytes (0x60), their length and the
    bytes zero-padded to a whole word. Equal to eth_abi's encoding (tests/readers).
    """
    n = len(chunk)
    heads: list[bytes] = []
    tails: list[bytes] = []
    offset = 32 * n
    true_word, bytes_offset = _word(1), _word(0x60)
    for addr, data, _ in chunk:
        if len(addr) != 20:
            raise ValueError(f"not a 20-byte address: {addr!r}")
        heads.append(_word(offset))
        size = len(data)
        pad = -size % 32
        tail = b"".join((_ZERO12, addr, true_word, bytes_offset, _word(size), data, bytes(pad)))
        tails.append(tail)
        offset += len(tail)
    return b"".join((_AGGREGATE3_SELECTOR, _word(0x20), _word(n), *heads, *tails))


def _fast_aggregate3(raw: bytes) -> list[tuple[bool, bytes]] | None:
    """The answer of aggregate3, `(bool,bytes)[]`, read directly; None when it is not laid out as
    the canonical encoding with zero padding (then eth_abi decides, and raises if it must)."""
    size = len(raw)
    if size < 64 or int.from_bytes(raw[0:32], "big") != 0x20:
        return None
    n = int.from_bytes(raw[32:64], "big")
    base = 64
    if base + 32 * n > size:
        return None
    out: list[tuple[bool, bytes]] = []
    for i in range(n):
        at = base + int.from_bytes(raw[base + 32 * i : base + 32 * i + 32], "big")
        if at + 96 > size:
            return None
        ok = int.from_bytes(raw[at : at + 32], "big")
        if ok > 1 or int.from_bytes(raw[at + 32 : at + 64], "big") != 0x40:
            return None
        length = int.from_bytes(raw[at + 64 : at + 96], "big")
        end = at + 96 + length
        padded = end + (-length % 32)
        if padded > size or raw[end:padded].count(0) != padded - end:
            return None
        out.append((bool(ok), raw[at + 96 : end]))
    return out


def decode_aggregate3(raw: bytes) -> list[tuple[bool, bytes]]:
    """(success, return data) per sub-call; raises when `raw` is not an aggregate3 answer."""
    raw = bytes(raw)
    fast = _fast_aggregate3(raw)
    if fast is not None:
        return fast
    (answers,) = abi_decode(["(bool,bytes)[]"], raw)
    return answers


def _word_decoder(t: str):
    """A decoder of one 32-byte word of static type `t`, returning the value or raising
    _Fallback where eth_abi would reject it (or where only eth_abi knows); None for other types."""
    if t == "address":
        def address(word: bytes) -> str:
            if word[:12] != _ZERO12:
                raise _Fallback
            return "0x" + word[12:].hex()
        return address
    if t == "bool":
        def boolean(word: bytes) -> bool:
            v = int.from_bytes(word, "big")
            if v > 1:
                raise _Fallback
            return v == 1
        return boolean
    if t.startswith("uint") and t[4:].isdigit():
        bits = int(t[4:])
        if not (8 <= bits <= 256 and bits % 8 == 0):
            return None
        limit = 1 << bits

        def unsigned(word: bytes) -> int:
            v = int.from_bytes(word, "big")
            if v >= limit:
                raise _Fallback
            return v
        return unsigned
    if t.startswith("int") and t[3:].isdigit():
        bits = int(t[3:])
        if not (8 <= bits <= 256 and bits % 8 == 0):
            return None
        lo, hi = -(1 << (bits - 1)), 1 << (bits - 1)

        def signed(word: bytes) -> int:
            v = int.from_bytes(word, "big", signed=True)
            if not lo <= v < hi:
                raise _Fallback
            return v
        return signed
    return None


class _Fallback(Exception):
    """The fast decoder leaves this answer to eth_abi."""


@lru_cache(maxsize=256)
def _static_decoders(types: tuple[str, ...]):
    decoders = [_word_decoder(t) for t in types]
    return None if any(d is None for d in decoders) else tuple(decoders)


def _abi_result(types: Sequence[str], data: bytes) -> Any:
    try:
        values = abi_decode(list(types), bytes(data))
    except Exception:
        return None
    values = tuple(v.lower() if isinstance(v, str) and t == "address" else v for t, v in zip(types, values))
    return values[0] if len(values) == 1 else values


def decode_result(types: Sequence[str], data: bytes) -> Any:
    """One sub-call's return data: the value, a tuple for several, None when it does not decode.

    Static types (address, bool, intN, uintN) are read word by word, the rest through eth_abi; an
    answer the word readers would not accept exactly as eth_abi does is left to eth_abi.
    """
    if not data and types:
        return None  # a call to an address without code "succeeds" with empty data
    decoders = _static_decoders(tuple(types))
    if decoders is not None and len(data) >= 32 * len(decoders):
        try:
            values = tuple(d(data[32 * i : 32 * i + 32]) for i, d in enumerate(decoders))
        except _Fallback:
            return _abi_result(types, data)
        return values[0] if len(values) == 1 else values
    return _abi_result(types, data)
