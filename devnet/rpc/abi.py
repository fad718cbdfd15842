"""Method registry: Solidity signatures -> 4-byte selectors, ABI decoding/encoding via eth_abi."""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Callable

from eth_abi import decode, encode as _eth_abi_encode
from eth_utils import keccak

ERROR_SELECTOR = bytes.fromhex("08c379a0")


class Revert(Exception):
    """An EVM revert; `reason` becomes Error(string) revert data when given."""

    def __init__(self, reason: str | None = None):
        super().__init__(reason or "execution reverted")
        self.reason = reason

    @property
    def data(self) -> bytes:
        if self.reason is None:
            return b""
        return ERROR_SELECTOR + encode(["string"], [self.reason])


def _split_types(inner: str) -> list[str]:
    out, depth, cur = [], 0, ""
    for ch in inner:
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
    if cur:
        out.append(cur)
    return out


# -- encoding ------------------------------------------------------------------------------------
# eth_abi's encoder validates and encodes through layers of generic objects; a Multicall3 batch of
# a few dozen sub-calls spent most of its time there. `encode` below handles the types the
# contracts return (uint<M>, int<M>, address, bool, bytes<M>, bytes, string, T[], T[k], tuples)
# with eth_abi's exact validation rules; any value it does not accept as eth_abi would, and any
# other type, goes to eth_abi itself (which encodes it or raises its own error).
class _Fallback(Exception):
    pass


_ZERO32 = bytes(32)
_ADDRESS_PAD = bytes(12)
_TRUE = (1).to_bytes(32, "big")
_HEX40 = re.compile(r"(0x|0X)?[0-9a-fA-F]{40}")


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _enc_uint(bits: int):
    top = 1 << bits

    def enc(v) -> bytes:
        if not _is_int(v) or not 0 <= v < top:
            raise _Fallback
        return v.to_bytes(32, "big")
    return enc


def _enc_int(bits: int):
    lo, hi = -(1 << (bits - 1)), 1 << (bits - 1)

    def enc(v) -> bytes:
        if not _is_int(v) or not lo <= v < hi:
            raise _Fallback
        return v.to_bytes(32, "big", signed=True)
    return enc


def _enc_address(v) -> bytes:
    if isinstance(v, str) and _HEX40.fullmatch(v):
        return _ADDRESS_PAD + bytes.fromhex(v[-40:])
    if isinstance(v, (bytes, bytearray)) and len(v) == 20:
        return _ADDRESS_PAD + bytes(v)
    raise _Fallback


def _enc_bool(v) -> bytes:
    if v is True:
        return _TRUE
    if v is False:
        return _ZERO32
    raise _Fallback


def _enc_fixed_bytes(size: int):
    def enc(v) -> bytes:
        if not isinstance(v, (bytes, bytearray)) or len(v) > size:
            raise _Fallback
        return bytes(v) + bytes(32 - len(v))
    return enc


def _pad_dynamic(raw: bytes) -> bytes:
    n = len(raw)
    return n.to_bytes(32, "big") + raw + bytes(-n % 32)


def _enc_bytes(v) -> bytes:
    if not isinstance(v, (bytes, bytearray)):
        raise _Fallback
    return _pad_dynamic(bytes(v))


def _enc_string(v) -> bytes:
    if not isinstance(v, str):
        raise _Fallback
    try:
        raw = v.encode("utf-8")
    except UnicodeEncodeError:
        raise _Fallback from None
    return _pad_dynamic(raw)


def _enc_sequence(encoders: list, dynamic: list[bool], values) -> bytes:
    """Head/tail encoding of a tuple (also the elements of an array)."""
    if not any(dynamic):
        return b"".join(enc(v) for enc, v in zip(encoders, values))
    heads_size = sum(32 if d else e.static_size for e, d in zip(encoders, dynamic))
    heads, tails, offset = [], [], heads_size
    for enc, d, v in zip(encoders, dynamic, values):
        if d:
            tail = enc(v)
            heads.append(offset.to_bytes(32, "big"))
            tails.append(tail)
            offset += len(tail)
        else:
            heads.append(enc(v))
    return b"".join(heads) + b"".join(tails)


class _Encoder:
    """One ABI type: `fn(value) -> bytes`, whether it is dynamic, its size when static."""

    __slots__ = ("fn", "dynamic", "static_size")

    def __init__(self, fn, dynamic: bool, static_size: int = 32):
        self.fn = fn
        self.dynamic = dynamic
        self.static_size = static_size

    def __call__(self, v) -> bytes:
        return self.fn(v)


def _tuple_encoder(items: list[_Encoder]) -> _Encoder:
    dynamic = [e.dynamic for e in items]
    n = len(items)

    def enc(v) -> bytes:
        if not isinstance(v, (list, tuple)) or len(v) != n:
            raise _Fallback
        return _enc_sequence(items, dynamic, v)
    return _Encoder(enc, any(dynamic), sum(e.static_size for e in items))


def _array_encoder(item: _Encoder, length: int | None) -> _Encoder:
    def enc(v) -> bytes:
        if not isinstance(v, (list, tuple)) or (length is not None and len(v) != length):
            raise _Fallback
        body = _enc_sequence([item] * len(v), [item.dynamic] * len(v), v)
        return body if length is not None else len(v).to_bytes(32, "big") + body
    if length is None or item.dynamic:
        return _Encoder(enc, True)
    return _Encoder(enc, False, length * item.static_size)


_BASIC = re.compile(r"(uint|int|bytes)(\d*)")


@lru_cache(maxsize=None)
def _encoder(type_str: str) -> _Encoder | None:
    """The encoder of a type string; None when eth_abi has to do it."""
    t = type_str.strip()
    if t.endswith("]"):
        base, _, dim = t[:-1].rpartition("[")
        item = _encoder(base)
        if item is None or (dim and not dim.isdigit()):
            return None
        return _array_encoder(item, int(dim) if dim else None)
    if t.startswith("(") and t.endswith(")"):
        items = [_encoder(x) for x in _split_types(t[1:-1])]
        if any(e is None for e in items):
            return None
        return _tuple_encoder(items)
    if t == "address":
        return _Encoder(_enc_address, False)
    if t == "bool":
        return _Encoder(_enc_bool, False)
    if t == "string":
        return _Encoder(_enc_string, True)
    if t == "bytes":
        return _Encoder(_enc_bytes, True)
    m = _BASIC.fullmatch(t)
    if m is None:
        return None
    kind, size = m.group(1), m.group(2)
    if kind == "bytes":
        n = int(size)
        return _Encoder(_enc_fixed_bytes(n), False) if 1 <= n <= 32 and size == str(n) else None
    if not size:
        return None
    bits = int(size)
    if size != str(bits) or not (8 <= bits <= 256 and bits % 8 == 0):
        return None
    return _Encoder(_enc_uint(bits) if kind == "uint" else _enc_int(bits), False)


@lru_cache(maxsize=1024)
def _types_encoder(types: tuple[str, ...]) -> _Encoder | None:
    items = [_encoder(t) for t in types]
    if any(e is None for e in items):
        return None
    return _tuple_encoder(items)


def encode(types, values) -> bytes:
    """eth_abi's `encode(types, values)`, byte for byte (and its errors, which it raises itself)."""
    enc = _types_encoder(tuple(types))
    if enc is not None:
        try:
            return enc(values)
        except _Fallback:
            pass
    return _eth_abi_encode(types, values)


@lru_cache(maxsize=4096)
def _decode(types: tuple[str, ...], data: bytes) -> tuple:
    """eth_abi's decode, memoized: readers send the same calldata at every block (a Multicall3
    batch differs only in its block tag), and the decoded values are immutable."""
    return decode(types, data)


class Method:
    __slots__ = ("signature", "selector", "inputs", "outputs", "fn")

    def __init__(self, signature: str, outputs: list[str], fn: Callable):
        self.signature = signature
        self.selector = keccak(text=signature)[:4]
        name, _, rest = signature.partition("(")
        self.inputs = tuple(_split_types(rest[:-1]))
        self.outputs = outputs
        self.fn = fn

    def call(self, contract, ctx, data: bytes) -> bytes:
        try:
            args = _decode(self.inputs, data) if self.inputs else ()
        except Exception:
            raise Revert() from None
        result = self.fn(contract, ctx, *args)
        if len(self.outputs) == 1:
            result = (result,)
        return encode(self.outputs, list(result))


def method(signature: str, *outputs: str):
    """Decorator marking a contract method; the class collects them with `collect_methods`."""

    def wrap(fn):
        fn.__abi_method__ = (signature, list(outputs))
        return fn

    return wrap


def collect_methods(cls) -> dict[bytes, Method]:
    table: dict[bytes, Method] = {}
    for klass in reversed(cls.__mro__):
        for attr in vars(klass).values():
            spec = getattr(attr, "__abi_method__", None)
            if spec:
                m = Method(spec[0], spec[1], attr)
                table[m.selector] = m
    return table


class Contract:
    """Base class: `address`, existence from `created_ts`, and the selector table."""

    methods: dict[bytes, Method] = {}
    code = bytes.fromhex("6080604052348015600f57600080fd5b50")  # a plausible runtime prefix

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        cls.methods = collect_methods(cls)

    def __init__(self, sim, address: str, created_ts: int):
        self.sim = sim
        self.address = address
        self.created_ts = created_ts

    def exists_at(self, ts: int) -> bool:
        return ts >= self.created_ts

    def call(self, ctx, data: bytes) -> bytes:
        if len(data) < 4:
            raise Revert()
        m = self.methods.get(bytes(data[:4]))
        if m is None:
            raise Revert()
        return m.call(self, ctx, bytes(data[4:]))

    def bytecode(self) -> bytes:
        return self.code + bytes.fromhex(self.address[2:].lower())
