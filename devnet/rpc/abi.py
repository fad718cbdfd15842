"""Method registry: Solidity signatures -> 4-byte selectors, ABI decoding/encoding via eth_abi."""
from __future__ import annotations

from functools import lru_cache
from typing import Callable

from eth_abi import decode, encode
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
