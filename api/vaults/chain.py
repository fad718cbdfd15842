"""Live vault state: every vault of the book read through Multicall3 at one block.

`read_book(reader, vaults, contracts)` reads the chain head's number, then two aggregate3
batches at that block: the vaults' own views (and the factory's global pause), then what needs
their answers (strategy flags and reward fee, token symbols and decimals, the CL pool's price and
tick, the Voter's isAlive of the gauge). A sub-call that reverts is None, so one faulty vault leaves its values
unknown (`complete: false`) while the others are served; a transport failure raises
ChainReadError (the route's 502). Blocking (web3): handlers run it in an executor.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from eth_utils import to_checksum_address

from ...core.vaults import VaultConfig

VAULT_VIEWS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    # (field, signature, output types): read from every vault
    ("token0", "token0()", ("address",)),
    ("token1", "token1()", ("address",)),
    ("pool", "pool()", ("address",)),
    ("gauge", "gauge()", ("address",)),
    ("strategy", "strategy()", ("address",)),
    ("name", "name()", ("string",)),
    ("symbol", "symbol()", ("string",)),
    ("decimals", "decimals()", ("uint8",)),
    ("totalSupply", "totalSupply()", ("uint256",)),
    ("totalAmounts", "getTotalAmounts()", ("uint256", "uint256")),
    ("isCalm", "isCalm()", ("bool",)),
    ("paused", "paused()", ("bool",)),
    ("slippageBps", "slippageBps()", ("uint256",)),
    ("lastHarvest", "lastHarvest()", ("uint256",)),
)
CL_VIEWS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("tickLower", "tickLower()", ("int24",)),
    ("tickUpper", "tickUpper()", ("int24",)),
    ("lastRebalance", "lastRebalance()", ("uint256",)),
    ("positionTokenId", "positionTokenId()", ("uint256",)),
)

STRATEGY_VIEWS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("strategyPaused", "paused()", ("bool",)),
    ("needsRebalance", "needsRebalance()", ("bool",)),
    ("rewardFeeBps", "rewardFee()", ("uint256",)),  # basis points of the harvested rewards (/v1 auto-manage)
    ("feeRecipient", "feeRecipient()", ("address",)),
)


@dataclass
class VaultState:
    config: VaultConfig
    values: dict[str, Any] = field(default_factory=dict)  # field -> value, None when the read failed
    tokens: dict[str, dict[str, Any]] = field(default_factory=dict)  # "token0"/"token1" -> {address, symbol, decimals}

    @property
    def complete(self) -> bool:
        return all(v is not None for v in self.values.values()) and all(
            t.get(k) is not None for t in self.tokens.values() for k in ("address", "symbol", "decimals")
        )

    def get(self, name: str) -> Any:
        return self.values.get(name)


@dataclass
class BookState:
    block: int
    timestamp: int
    global_pause: bool | None
    vaults: list[VaultState]

    @property
    def complete(self) -> bool:
        return self.global_pause is not None and all(v.complete for v in self.vaults)

    def find(self, key_or_address: str) -> VaultState | None:
        wanted = key_or_address.lower()
        for vault in self.vaults:
            if vault.config.key == key_or_address or vault.config.address.lower() == wanted:
                return vault
        return None


def _erc20_meta(reader: Any, addresses: list[str], block: int) -> dict[str, tuple[Any, Any]]:
    calls = [c for a in addresses for c in ((a, "symbol()", (), ("string",)), (a, "decimals()", (), ("uint8",)))]
    answers = reader.multicall(calls, block) if calls else []
    return {a: (answers[2 * i], answers[2 * i + 1]) for i, a in enumerate(addresses)}


def read_book(reader: Any, vaults: list[VaultConfig], contracts: dict[str, str]) -> BookState:
    head = reader.head()
    block = head.number
    states = [VaultState(v) for v in vaults]

    first: list[tuple[VaultState | None, str, tuple]] = []
    for state in states:
        views = VAULT_VIEWS + (CL_VIEWS if state.config.kind == "cl" else ())
        first += [(state, name, (state.config.address, sig, (), outs)) for name, sig, outs in views]
    factory = contracts.get("vaultFactory")
    calls = [call for _, _, call in first]
    if factory:
        calls.append((factory, "globalPause()", (), ("bool",)))
    answers = reader.multicall(calls, block)
    for (state, name, _), value in zip(first, answers):
        state.values[name] = value
    global_pause = answers[-1] if factory else None

    second: list[tuple[VaultState, str, tuple]] = []
    voter = contracts.get("voter")
    for state in states:
        strategy, pool, gauge = state.get("strategy"), state.get("pool"), state.get("gauge")
        for name, sig, outs in STRATEGY_VIEWS:
            state.values.setdefault(name, None)
            if strategy:
                second.append((state, name, (strategy, sig, (), outs)))
        if state.config.kind == "cl":
            state.values.setdefault("tick", None)
            state.values.setdefault("sqrtPriceX96", None)
            if pool:
                second.append((state, "tick", (pool, "slot0()", (), ("uint160", "int24", "uint16", "uint16", "uint16", "bool"))))
        state.values.setdefault("gaugeAlive", None)
        if gauge and voter and int(gauge, 16) != 0:
            second.append((state, "gaugeAlive", (voter, "isAlive(address)", (gauge,), ("bool",))))
    token_addresses = sorted({a for s in states for a in (s.get("token0"), s.get("token1")) if a})
    answers = reader.multicall([call for _, _, call in second], block) if second else []
    for (state, name, _), value in zip(second, answers):
        if name == "tick" and value is not None:  # slot0: the price and the tick
            state.values["sqrtPriceX96"], value = value[0], value[1]
        state.values[name] = value
    meta = _erc20_meta(reader, token_addresses, block)
    for state in states:
        for side in ("token0", "token1"):
            address = state.get(side)
            symbol, decimals = meta.get(address, (None, None)) if address else (None, None)
            state.tokens[side] = {"address": address, "symbol": symbol, "decimals": decimals}
    return BookState(block, head.timestamp, global_pause, states)


def read_balances(reader: Any, vaults: list[VaultConfig], user: str, block: int) -> list[int | None]:
    """Each vault's `balanceOf(user)` at `block` in one aggregate3 batch (the block of the
    BookState the answer is built from, so shares, totals and supply are one chain state).
    A reverted sub-call is None (unknown); a transport failure raises like read_book."""
    calls = [(v.address, "balanceOf(address)", (to_checksum_address(user),), ("uint256",)) for v in vaults]
    return reader.multicall(calls, block) if calls else []
