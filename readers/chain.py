"""Chain reader: blocks by time, Multicall3 batches and the protocol's governance reads (web3).

    chain = ChainReader.from_settings(settings, 56)
    block = chain.block_at(ts)                 # last block with timestamp <= ts
    state = chain.governance(block.number)     # gauges, emissions, ve supply in one batch

Reads are plain JSON-RPC POSTs on one keep-alive HTTP session (request timeout, retries with
backoff on connection errors, timeouts and HTTP errors, as web3's HTTPProvider retries them),
without web3's per-request middleware: its validation asked the node for eth_chainId twice per
eth_call. The chain id is checked once per reader (`check_chain`). Contract reads are batched
through Multicall3 `aggregate3` with allowFailure, so one eth_call carries up to `chunk_size`
reads, all at the same block. `w3` (web3) is still there, built on first use, for anything else.

This module holds the reader (the protocol's reads); the transport and its errors are in
`readers.jsonrpc`, the bytes of a batch are built and decoded in `readers.multicall`, the search
behind `block_at` lives in `readers.blocks`.
"""
from __future__ import annotations

import bisect
import logging
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

from eth_abi import decode as abi_decode
from eth_utils import to_checksum_address
from web3 import Web3
from web3.providers.rpc.utils import ExceptionRetryConfiguration

from .blocks import BlockRef, known_bounds, last_block_at
from .breaker import CircuitBreaker
# the errors live with the transport; callers import them from here
from .jsonrpc import RETRY_ERRORS, ChainReadError, GuardedProvider, JsonRpc, RpcDown, RpcError  # noqa: F401
from .multicall import (
    Call,
    aggregate3_calldata,
    decode_aggregate3,
    decode_result,
    encode_call,
    encode_calls,
)
from .multicall import parse_signature  # noqa: F401 - callers import it from here

from ..core.chains import MULTICALL3

if TYPE_CHECKING:  # pragma: no cover
    from ..core.config import Settings

log = logging.getLogger("readers.chain")

ZERO_ADDRESS = "0x" + "0" * 40


class BlockNotFinal(ChainReadError):
    """The requested time is not yet behind the chain head; the answer could still change."""


@dataclass(frozen=True)
class GovernanceState:
    block_number: int
    voter_pool_count: int  # Voter.length()
    active_gauge_count: int  # pools(i) -> gauges(pool) -> isAlive(gauge), counted
    total_weight_raw: int  # Voter.totalWeight()
    emissions_epoch_raw: int  # Minter.weekly()
    active_period: int  # Minter.activePeriod()
    ve_locked_raw: int  # VotingEscrow.supply()
    ve_voting_power_raw: int  # VotingEscrow.totalSupply()
    ve_permanent_raw: int  # VotingEscrow.permanentLockBalance()


def _block_param(block: int | str) -> str:
    if isinstance(block, bool):
        raise TypeError(f"not a block: {block!r}")
    if isinstance(block, int):
        return hex(block)
    if isinstance(block, str):
        return block  # "latest", "safe", a 0x number
    raise TypeError(f"not a block: {block!r}")


def _hex_bytes(value: Any) -> bytes:
    if not isinstance(value, str) or not value.startswith("0x"):
        raise ValueError(f"not 0x hex data: {str(value)[:80]!r}")
    return bytes.fromhex(value[2:])


class ChainReader:
    def __init__(
        self,
        rpc_url: str,
        chain_id: int,
        multicall_address: str,
        *,
        contracts: dict[str, str] | None = None,
        timeout: float = 30.0,
        retries: int = 5,
        backoff: float = 0.25,
        chunk_size: int = 200,
        timeout_attempts: int | None = None,
        breaker: CircuitBreaker | None = None,
    ):
        self.rpc_url = rpc_url
        self.chain_id = chain_id
        self.multicall_address = to_checksum_address(multicall_address)
        self.contracts = dict(contracts or {})
        self.chunk_size = chunk_size
        self._timeout, self._retries, self._backoff = timeout, retries, backoff
        self._w3: Web3 | None = None
        self.rpc = JsonRpc(rpc_url, timeout=timeout, retries=retries, backoff=backoff,
                           timeout_attempts=timeout_attempts, breaker=breaker)
        self._lock = threading.Lock()
        self._chain_checked = False
        # Block headers seen so far, kept sorted by number for interpolation bounds.
        self._numbers: list[int] = []
        self._timestamps: dict[int, int] = {}
        self._block_at: dict[int, BlockRef] = {}
        # Voter registry cache: pools(i) and gauges(pool) never change once set (append-only
        # list, gauge set once at creation), so they are read once per reader.
        self._voter_pools: list[str] = []
        self._gauges: dict[str, str] = {}

    @classmethod
    def from_settings(cls, settings: "Settings", chain_id: int, **kwargs: Any) -> "ChainReader":
        contracts = settings.contracts(chain_id)
        return cls(
            settings.chain(chain_id).rpc_url,
            chain_id,
            contracts.get("multicall3") or MULTICALL3,
            contracts=contracts,
            **kwargs,
        )

    # -- plumbing ----------------------------------------------------------------------------
    @property
    def w3(self) -> Web3:
        """web3 on the same endpoint, with the same timeout, retries and breaker (built on first use)."""
        if self._w3 is None:
            provider = GuardedProvider(
                self.rpc,
                request_kwargs={"timeout": self._timeout},
                exception_retry_configuration=ExceptionRetryConfiguration(
                    errors=RETRY_ERRORS, retries=self.rpc.timeout_attempts, backoff_factor=self._backoff,
                ),
            )
            self._w3 = Web3(provider)
        return self._w3

    def _request(self, what: str, method: str, params: list) -> Any:
        return self._rpc(what, self.rpc.request, method, params)

    def _rpc(self, what: str, fn, *args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except ChainReadError:
            raise
        except Exception as exc:  # web3 raises many types; the caller needs one
            raise ChainReadError(f"rpc {self.rpc_url}: {what} failed: {exc!r}") from exc

    def check_chain(self) -> None:
        if self._chain_checked:
            return
        got = int(self._request("eth_chainId", "eth_chainId", []), 16)
        if got != int(self.chain_id):
            raise ChainReadError(f"rpc {self.rpc_url}: chain id {got}, expected {self.chain_id}")
        self._chain_checked = True

    def _remember(self, number: int, timestamp: int) -> None:
        with self._lock:
            if number not in self._timestamps:
                self._timestamps[number] = timestamp
                bisect.insort(self._numbers, number)

    def block(self, number: int) -> BlockRef:
        ts = self._timestamps.get(number)
        if ts is None:
            ref = self._header(int(number))
            if ref is None:
                raise ChainReadError(f"rpc {self.rpc_url}: block {number} not found")
            ts = ref.timestamp
            self._remember(ref.number, ts)
        return BlockRef(number, ts)

    def _header(self, block: int | str) -> BlockRef | None:
        """(number, timestamp) of a block by number or tag; None when the node has no such block."""
        what = f"eth_getBlockByNumber({block})"
        blk = self._request(what, "eth_getBlockByNumber", [_block_param(block), False])
        if blk is None:
            return None
        try:
            return BlockRef(int(blk["number"], 16), int(blk["timestamp"], 16))
        except (KeyError, TypeError, ValueError) as exc:
            raise ChainReadError(f"rpc {self.rpc_url}: {what}: malformed block {str(blk)[:200]}") from exc

    def head(self) -> BlockRef:
        ref = self._header("latest")
        if ref is None:
            raise ChainReadError(f"rpc {self.rpc_url}: no latest block")
        self._remember(ref.number, ref.timestamp)
        return ref

    def genesis(self) -> BlockRef:
        return self.block(0)

    # -- blocks by time ----------------------------------------------------------------------
    def block_at(self, ts: int, head: BlockRef | None = None) -> BlockRef:
        """The last block whose timestamp is <= ts.

        Interpolation search between the tightest known headers (cached across calls, so a
        sequence of nearby times costs about two header reads each). Raises BlockNotFinal when
        the head is not yet past `ts` (a later block could still have timestamp <= ts), and
        ChainReadError when `ts` is before genesis.
        """
        ts = int(ts)
        hit = self._block_at.get(ts)
        if hit is not None:
            return hit
        self.check_chain()
        gen = self.genesis()
        if ts < gen.timestamp:
            raise ChainReadError(f"rpc {self.rpc_url}: time {ts} is before genesis ({gen.timestamp})")
        top = head if head is not None and head.timestamp > ts else self.head()
        if top.timestamp <= ts:
            raise BlockNotFinal(
                f"rpc {self.rpc_url}: head block {top.number} at {top.timestamp} is not past {ts}"
            )
        lo, hi = self._bounds(ts)
        found = last_block_at(ts, lo, hi, self.block)
        self._block_at[ts] = found
        return found

    def _bounds(self, ts: int) -> tuple[BlockRef, BlockRef]:
        with self._lock:
            numbers = list(self._numbers)
            stamps = dict(self._timestamps)
        return known_bounds(numbers, stamps, ts)

    # -- contract reads ----------------------------------------------------------------------
    def _eth_call(self, what: str, to: str, data: bytes, block: int | str) -> bytes:
        params = [{"to": to, "data": "0x" + data.hex()}, _block_param(block)]
        result = self._request(what, "eth_call", params)
        try:
            return _hex_bytes(result)
        except ValueError as exc:
            raise ChainReadError(f"rpc {self.rpc_url}: {what}: {exc}") from exc

    def code(self, address: str, block: int | str = "latest") -> bytes:
        """eth_getCode: the contract code at `address` (empty when there is none)."""
        what = f"eth_getCode({address}) at {block}"
        checksummed = to_checksum_address(address)
        result = self._request(what, "eth_getCode", [checksummed, _block_param(block)])
        try:
            return _hex_bytes(result)
        except ValueError as exc:
            raise ChainReadError(f"rpc {self.rpc_url}: {what}: {exc}") from exc

    def call(self, address: str, signature: str, args: Sequence[Any] = (), output_types: Sequence[str] | None = None, block: int | str = "latest") -> Any:
        """One direct eth_call (no Multicall3); raises on revert."""
        fn, data, outputs = encode_call(signature, args, output_types)
        raw = self._eth_call(f"eth_call {fn} at {block}", to_checksum_address(address), data, block)
        values = abi_decode(outputs or [], raw)
        return values[0] if len(values) == 1 else tuple(values)

    def multicall(self, calls: Sequence[Call], block: int | str = "latest", chunk_size: int | None = None) -> list[Any]:
        """Run reads through Multicall3.aggregate3 at `block`; None for a failed sub-call.

        A single output is returned as the value, several as a tuple. A sub-call that reverts or
        whose return data does not decode yields None; a failing aggregate call raises.
        """
        size = chunk_size or self.chunk_size
        encoded = encode_calls(calls)
        results: list[Any] = []
        for start in range(0, len(encoded), size):
            chunk = encoded[start : start + size]
            payload = aggregate3_calldata(chunk)
            raw = self._eth_call(f"Multicall3.aggregate3 ({len(chunk)} calls) at block {block}",
                                 self.multicall_address, payload, block)
            try:
                answers = decode_aggregate3(raw)
            except Exception as exc:
                raise ChainReadError(f"rpc {self.rpc_url}: undecodable aggregate3 result: {exc!r}") from exc
            if len(answers) != len(chunk):
                raise ChainReadError(
                    f"rpc {self.rpc_url}: aggregate3 returned {len(answers)} results for {len(chunk)} calls"
                )
            for (_, _, outs), (ok, ret) in zip(chunk, answers):
                results.append(decode_result(outs, ret) if ok else None)
        return results

    # -- protocol reads ----------------------------------------------------------------------
    def _contract(self, name: str) -> str:
        address = self.contracts.get(name)
        if not address:
            raise ChainReadError(f"chain {self.chain_id}: no address for contract {name!r}")
        return address

    def _discover_voter_pools(self, length: int, block: int) -> None:
        """Extend the cached Voter registry (pools(i), gauges(pool)) up to `length` entries."""
        voter = self._contract("voter")
        known = len(self._voter_pools)
        if length <= known:
            return
        pools = self.multicall(
            [(voter, "pools(uint256)", (i,), ("address",)) for i in range(known, length)], block
        )
        if any(p is None for p in pools):
            raise ChainReadError(f"Voter.pools(i) failed at block {block}")
        gauges = self.multicall([(voter, "gauges(address)", (p,), ("address",)) for p in pools], block)
        if any(g is None for g in gauges):
            raise ChainReadError(f"Voter.gauges(pool) failed at block {block}")
        with self._lock:
            for pool, gauge in zip(pools, gauges):
                self._gauges[pool.lower()] = gauge.lower()
            if len(self._voter_pools) == known:
                self._voter_pools.extend(p.lower() for p in pools)

    def governance(self, block: int) -> GovernanceState:
        """Gauge count alive, weekly emissions, ve supply/voting power/permanent at `block`.

        One Multicall3 batch per block: the scalar reads plus isAlive for every gauge already
        known from the Voter registry. Only when Voter.length() has grown past the cached
        registry are the new pools(i)/gauges(pool) read (and their isAlive) in follow-up batches.
        Any failed read raises: unknown values are never reported as zeros.
        """
        voter, minter, ve = self._contract("voter"), self._contract("minter"), self._contract("votingEscrow")
        scalars: list[Call] = [
            (voter, "length()", (), ("uint256",)),
            (voter, "totalWeight()", (), ("uint256",)),
            (minter, "weekly()", (), ("uint256",)),
            (minter, "activePeriod()", (), ("uint256",)),
            (ve, "supply()", (), ("uint256",)),
            (ve, "totalSupply()", (), ("uint256",)),
            (ve, "permanentLockBalance()", (), ("uint256",)),
        ]
        pools = list(self._voter_pools)
        gauges = [self._gauges[p] for p in pools]
        alive_calls: list[Call] = [
            (voter, "isAlive(address)", (g,), ("bool",)) for g in gauges if g != ZERO_ADDRESS
        ]
        answers = self.multicall(scalars + alive_calls, block)
        names = ["length", "totalWeight", "weekly", "activePeriod", "supply", "totalSupply", "permanentLockBalance"]
        values = dict(zip(names, answers[: len(scalars)]))
        missing = [n for n, v in values.items() if v is None]
        if missing:
            raise ChainReadError(f"chain {self.chain_id}: governance reads failed at block {block}: {missing}")
        length = int(values["length"])
        alive_by_gauge = {
            call[2][0]: ok for call, ok in zip(alive_calls, answers[len(scalars) :])
        }
        if length > len(pools):
            self._discover_voter_pools(length, block)
            pools = list(self._voter_pools)
            new = [self._gauges[p] for p in pools[len(gauges):length] if self._gauges[p] != ZERO_ADDRESS]
            extra = self.multicall([(voter, "isAlive(address)", (g,), ("bool",)) for g in new], block)
            alive_by_gauge.update(zip(new, extra))
        active = 0
        for pool in pools[:length]:
            gauge = self._gauges[pool]
            if gauge == ZERO_ADDRESS:
                continue
            alive = alive_by_gauge.get(gauge)
            if alive is None:
                raise ChainReadError(f"chain {self.chain_id}: Voter.isAlive({gauge}) failed at block {block}")
            active += bool(alive)
        return GovernanceState(
            block_number=int(block),
            voter_pool_count=length,
            active_gauge_count=active,
            total_weight_raw=int(values["totalWeight"]),
            emissions_epoch_raw=int(values["weekly"]),
            active_period=int(values["activePeriod"]),
            ve_locked_raw=int(values["supply"]),
            ve_voting_power_raw=int(values["totalSupply"]),
            ve_permanent_raw=int(values["permanentLockBalance"]),
        )

    def erc20(self, token: str, block: int | str = "latest") -> dict[str, Any]:
        """symbol, decimals, totalSupply of one token (None for a read that failed)."""
        sym, dec, supply = self.multicall(
            [
                (token, "symbol()", (), ("string",)),
                (token, "decimals()", (), ("uint8",)),
                (token, "totalSupply()", (), ("uint256",)),
            ],
            block,
        )
        return {"symbol": sym, "decimals": dec, "totalSupply": supply}
