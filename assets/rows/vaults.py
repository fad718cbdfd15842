"""Rows of vault_snap15m and the reads behind them, as pure steps: which Multicall3 calls a
snapshot makes (each vault's own views first, then what those point at) and how the answers
become a vault's values and its row.

Nothing but key, address and kind comes from configuration (core.vaults), so a vault added to the
book appears without code changes. Prices are the subgraph's Token.priceUSD at the same block;
TVL and share price stay NULL when a price is unknown. A deployed vault whose reads fail fails
the snapshot, so it is never published with a vault missing or zeroed.
"""
from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any, Sequence

from ...core.epochs import to_datetime
from ...core.vaults import VaultConfig
from ...readers.chain import ZERO_ADDRESS, Call, ChainReadError

if TYPE_CHECKING:
    from ..upstream import SnapshotPoint

VAULT_COLUMNS = (
    "chain_id", "snapshot_at", "block_number", "vault_address", "vault_key", "kind", "pool_address", "gauge_address",
    "strategy_address", "token0_address", "token1_address", "token0_symbol", "token1_symbol", "token0_decimals",
    "token1_decimals", "share_decimals", "total_supply_raw", "amount0_raw", "amount1_raw", "token0_price_usd",
    "token1_price_usd", "tvl_usd", "share_price_usd", "is_calm", "strategy_paused", "global_pause", "slippage_bps",
    "tick", "tick_lower", "tick_upper", "liquidity_raw", "needs_rebalance", "last_rebalance", "last_harvest",
    "reward_fee_bps", "fee_recipient", "sqrt_price_x96",
)

# The vault's own views, read first: (name, signature, output types, CL only)
VAULT_VIEWS: tuple[tuple[str, str, tuple[str, ...], bool], ...] = (
    ("token0", "token0()", ("address",), False),
    ("token1", "token1()", ("address",), False),
    ("pool", "pool()", ("address",), False),
    ("gauge", "gauge()", ("address",), False),
    ("strategy", "strategy()", ("address",), False),
    ("factory", "factory()", ("address",), False),
    ("decimals", "decimals()", ("uint8",), False),
    ("totalSupply", "totalSupply()", ("uint256",), False),
    ("totals", "getTotalAmounts()", ("uint256", "uint256"), False),
    ("isCalm", "isCalm()", ("bool",), False),
    ("slippageBps", "slippageBps()", ("uint256",), False),
    ("lastHarvest", "lastHarvest()", ("uint256",), False),
    ("tickLower", "tickLower()", ("int24",), True),
    ("tickUpper", "tickUpper()", ("int24",), True),
    ("position", "getPosition()", ("uint128", "int24", "int24"), True),
    ("lastRebalance", "lastRebalance()", ("uint256",), True),
)
# Views whose failure leaves a NULL column rather than failing the snapshot: lastHarvest is
# informational and not part of every vault implementation.
OPTIONAL_VIEWS = {"lastHarvest"}

Views = dict[str, Any]  # view name -> decoded answer (None when the call failed)


def view_calls(vaults: Sequence[VaultConfig]) -> tuple[list[tuple[VaultConfig, str]], list[Call]]:
    """(vault and view of each call, the calls) of the first batch: every vault's own views."""
    plan: list[tuple[VaultConfig, str]] = []
    calls: list[Call] = []
    for v in vaults:
        for name, signature, outputs, cl_only in VAULT_VIEWS:
            if cl_only and v.kind != "cl":
                continue
            plan.append((v, name))
            calls.append((v.address, signature, (), outputs))
    return plan, calls


def views_by_vault(plan: list[tuple[VaultConfig, str]], answers: Sequence[Any]) -> dict[str, Views]:
    reads: dict[str, Views] = {}
    for (v, name), value in zip(plan, answers):
        reads.setdefault(v.address, {})[name] = value
    return reads


def require_views(v: VaultConfig, got: Views, block: int) -> None:
    failed = sorted(n for n, value in got.items() if value is None and n not in OPTIONAL_VIEWS)
    if failed:
        raise ChainReadError(f"vault {v.key} ({v.address}): reads failed at block {block}: {failed}")


def pointer_calls(found: Sequence[tuple[VaultConfig, Views]]) -> list[Call]:
    """The second batch: strategy paused / needsRebalance / rewardFee / feeRecipient, factory
    globalPause, CL pool slot0."""
    calls: list[Call] = []
    for v, got in found:
        calls += [
            (got["strategy"], "paused()", (), ("bool",)),
            (got["strategy"], "needsRebalance()", (), ("bool",)),
            (got["factory"], "globalPause()", (), ("bool",)),
            # not every strategy takes a reward fee: a reverting view leaves NULL, not a failed snapshot
            (got["strategy"], "rewardFee()", (), ("uint256",)),
            (got["strategy"], "feeRecipient()", (), ("address",)),
        ]
        if v.kind == "cl":
            calls.append((got["pool"], "slot0()", (), ("uint160", "int24", "uint16", "uint16", "uint16", "bool")))
    return calls


def with_pointer_answers(found: Sequence[tuple[VaultConfig, Views]], answers: Sequence[Any], block: int
                         ) -> list[tuple[VaultConfig, Views]]:
    """Each vault's views completed with the second batch's answers (in pointer_calls order)."""
    out = []
    i = 0
    for v, got in found:
        got = dict(got)
        (got["strategyPaused"], got["needsRebalance"], got["globalPause"], got["rewardFee"],
         got["feeRecipient"]) = answers[i:i + 5]
        i += 5
        if v.kind == "cl":
            slot0 = answers[i]
            i += 1
            if slot0 is None:
                raise ChainReadError(f"vault {v.key}: pool {got['pool']} slot0() failed at block {block}")
            got["sqrtPriceX96"], got["tick"] = int(slot0[0]), int(slot0[1])
        else:
            got["sqrtPriceX96"] = got["tick"] = None
        for name in ("strategyPaused", "globalPause"):
            if got[name] is None:
                raise ChainReadError(f"vault {v.key}: {name} read failed at block {block}")
        out.append((v, got))
    return out


class TokenBook:
    """ERC20 symbol and decimals by address, learnt once per run (they do not change)."""

    def __init__(self) -> None:
        self._known: dict[str, tuple[str, int]] = {}
        self._lock = threading.Lock()  # snapshots of a run are read by a few threads

    def calls(self, tokens: Sequence[str]) -> tuple[list[str], list[Call]]:
        with self._lock:
            missing = sorted({t for t in tokens if t not in self._known})
        calls: list[Call] = []
        for t in missing:
            calls += [(t, "symbol()", (), ("string",)), (t, "decimals()", (), ("uint8",))]
        return missing, calls

    def learn(self, tokens: list[str], answers: Sequence[Any], block: int) -> None:
        for i, t in enumerate(tokens):
            symbol, decimals = answers[2 * i], answers[2 * i + 1]
            if symbol is None or decimals is None:
                raise ChainReadError(f"ERC20 symbol()/decimals() of {t} failed at block {block}")
            with self._lock:
                self._known[t] = (str(symbol), int(decimals))

    def __getitem__(self, token: str) -> tuple[str, int]:
        with self._lock:
            return self._known[token]


def _time_or_none(value: Any) -> Any:
    """A Unix time read from a contract; 0 means never."""
    return to_datetime(int(value)) if value else None


def vault_row(chain_id: int, point: "SnapshotPoint", v: VaultConfig, got: Views, tokens: TokenBook,
              prices: dict[str, float | None]) -> dict[str, Any]:
    t0, t1 = got["token0"], got["token1"]
    (sym0, dec0), (sym1, dec1) = tokens[t0], tokens[t1]
    amount0, amount1 = (int(x) for x in got["totals"])
    supply, share_decimals = int(got["totalSupply"]), int(got["decimals"])
    p0, p1 = prices.get(t0), prices.get(t1)
    tvl = None if p0 is None or p1 is None else amount0 / 10**dec0 * p0 + amount1 / 10**dec1 * p1
    share_price = tvl / (supply / 10**share_decimals) if tvl is not None and supply > 0 else None
    cl = v.kind == "cl"
    gauge = got["gauge"]
    return {
        "chain_id": chain_id,
        "snapshot_at": to_datetime(point.snapshot_at),
        "block_number": point.block.number,
        "vault_address": str(v.address).lower(),
        "vault_key": v.key,
        "kind": v.kind,
        "pool_address": got["pool"],
        "gauge_address": "" if gauge == ZERO_ADDRESS else gauge,
        "strategy_address": got["strategy"],
        "token0_address": t0,
        "token1_address": t1,
        "token0_symbol": sym0,
        "token1_symbol": sym1,
        "token0_decimals": dec0,
        "token1_decimals": dec1,
        "share_decimals": share_decimals,
        "total_supply_raw": supply,
        "amount0_raw": amount0,
        "amount1_raw": amount1,
        "token0_price_usd": p0,
        "token1_price_usd": p1,
        "tvl_usd": tvl,
        "share_price_usd": share_price,
        "is_calm": bool(got["isCalm"]),
        "strategy_paused": bool(got["strategyPaused"]),
        "global_pause": bool(got["globalPause"]),
        "slippage_bps": int(got["slippageBps"]),
        "tick": got["tick"],
        "tick_lower": int(got["tickLower"]) if cl else None,
        "tick_upper": int(got["tickUpper"]) if cl else None,
        "liquidity_raw": int(got["position"][0]) if cl else None,
        "needs_rebalance": None if got["needsRebalance"] is None else bool(got["needsRebalance"]),
        "last_rebalance": _time_or_none(got["lastRebalance"]) if cl else None,
        "last_harvest": _time_or_none(got.get("lastHarvest")),
        "reward_fee_bps": None if got["rewardFee"] is None else int(got["rewardFee"]),
        "fee_recipient": (got["feeRecipient"] or "").lower(),
        "sqrt_price_x96": got["sqrtPriceX96"],
    }
