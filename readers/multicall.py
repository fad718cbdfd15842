"""Contract reads as bytes: call signatures, calldata, and Multicall3 `aggregate3` batches.

Pure encoding and decoding, no RPC: `readers.chain` sends what these build and hands back what
the node answered. A read is a `Call`, (address, "name(inputTypes)", args, outputTypes).
"""
from __future__ import annotations

from typing import Any, Sequence

from eth_abi import decode as abi_decode
from eth_abi import encode as abi_encode
from eth_utils import function_signature_to_4byte_selector, to_checksum_address

AGGREGATE3 = "aggregate3((address,bool,bytes)[])"
_AGGREGATE3_SELECTOR = function_signature_to_4byte_selector(AGGREGATE3)

# A contract read: (address, "name(inputTypes)", args, outputTypes). The signature may also be
# written with outputs, "name(inputTypes)(outputTypes)", with outputTypes then None.
Call = tuple[str, str, Sequence[Any], Sequence[str] | None]

# One read ready for a batch: (checksummed address, calldata, output types).
Encoded = tuple[str, bytes, list[str]]


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


def _resolve(signature: str, output_types: Sequence[str] | None) -> tuple[str, list[str], list[str] | None]:
    """(function, input types, output types); explicit `output_types` win over the signature's."""
    fn, inputs, outputs = parse_signature(signature)
    return fn, inputs, list(output_types) if output_types is not None else outputs


def _calldata(fn: str, inputs: list[str], args: Sequence[Any]) -> bytes:
    return function_signature_to_4byte_selector(fn) + abi_encode(inputs, list(args))


def encode_call(signature: str, args: Sequence[Any], output_types: Sequence[str] | None) -> tuple[str, bytes, list[str] | None]:
    """(function, calldata, output types) of one direct read."""
    fn, inputs, outs = _resolve(signature, output_types)
    return fn, _calldata(fn, inputs, args), outs


def encode_calls(calls: Sequence[Call]) -> list[Encoded]:
    """Every read of a batch encoded up front, so a malformed one fails before any RPC."""
    encoded: list[Encoded] = []
    for address, signature, args, output_types in calls:
        fn, inputs, outs = _resolve(signature, output_types)
        if outs is None:
            raise ValueError(f"no output types for {signature!r}")
        data = _calldata(fn, inputs, args)
        encoded.append((to_checksum_address(address), data, outs))
    return encoded


def aggregate3_calldata(chunk: Sequence[Encoded]) -> bytes:
    """Calldata of `aggregate3` over `chunk`, each sub-call allowed to fail."""
    return _AGGREGATE3_SELECTOR + abi_encode(
        ["(address,bool,bytes)[]"], [[(addr, True, data) for addr, data, _ in chunk]]
    )


def decode_aggregate3(raw: bytes) -> list[tuple[bool, bytes]]:
    """(success, return data) per sub-call; raises when `raw` is not an aggregate3 answer."""
    (answers,) = abi_decode(["(bool,bytes)[]"], bytes(raw))
    return answers


def decode_result(types: list[str], data: bytes) -> Any:
    """One sub-call's return data: the value, a tuple for several, None when it does not decode."""
    if not data and types:
        return None  # a call to an address without code "succeeds" with empty data
    try:
        values = abi_decode(types, bytes(data))
    except Exception:
        return None
    values = tuple(v.lower() if isinstance(v, str) and t == "address" else v for t, v in zip(types, values))
    return values[0] if len(values) == 1 else values
