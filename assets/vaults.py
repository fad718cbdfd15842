"""Vault snapshot rows (the daily vault history is in assets.vault_history).

- `vault_snapshots` (`VAULT_SNAPSHOT_ASSETS`, built by assets.snapshots.snapshot_asset, upstream
  of `snapshot_publication`): one vault_snap15m row per configured vault (the chain book's `vaults`)
  per snapshot, read through Multicall3 at the snapshot block in two batches per block: first
  every vault's own views (tokens, pool, gauge, strategy, factory, totals, supply, calm,
  slippage, CL position), then what those views point at (strategy paused / needsRebalance,
  factory globalPause, pool slot0 tick, token symbol and decimals). Nothing but key, address and
  kind comes from configuration, so a vault added to the book appears without code changes.
  Prices are the subgraph's Token.priceUSD at the same block, the token_snap15m source; TVL and
  share price stay NULL when a price is unknown. A vault without code at the block (not deployed
  yet) has no row; a deployed vault whose reads fail fails the run, so a snapshot is never
  published with a vault missing or zeroed.
"""

import threading
from typing import TYPE_CHECKING, Any, Sequence

from eth_utils import to_checksum_address

from ve_analytics.assets.rows.values import columns, opt_float, ref_id
from ve_analytics.assets.upstream import SnapshotPoint, fetch_each
from ve_analytics.assets.writers import utc
from ve_analytics.core.vaults import VaultConfig
from ve_analytics.readers.chain import ZERO_ADDRESS, Call, ChainReader, ChainReadError
from ve_analytics.readers.graphql import SubgraphClient

if TYPE_CHECKING:
    from ve_analytics.assets.snapshots import SnapshotStep

SNAPSHOT_COLUMNS = (
    "chain_id", "snapshot_at", "block_number", "vault_address", "vault_key", "kind", "pool_address", "gauge_address",
    "strategy_address", "token0_address", "token1_address", "token0_symbol", "token1_symbol", "token0_decimals",
    "token1_decimals", "share_decimals", "total_supply_raw", "amount0_raw", "amount1_raw", "token0_price_usd",
    "token1_price_usd", "tvl_usd", "share_price_usd", "is_calm", "strategy_paused", "global_pause", "slippage_bps",
    "tick", "tick_lower", "tick_upper", "liquidity_raw", "needs_rebalance", "last_rebalance", "last_harvest",
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

def _lower(address: Any) -> str:
    return str(address).lower()


# -- vault_snap15m -----------------------------------------------------------------------------
class TokenBook:
    """ERC20 symbol and decimals by address, read once per run (they do not change)."""

    def __init__(self) -> None:
        self._known: dict[str, tuple[str, int]] = {}
        self._lock = threading.Lock()

    def calls(self, tokens: Sequence[str]) -> tuple[list[str], list[Call]]:
        with self._lock:
            missing = sorted({t for t in tokens if t not in self._known})
        calls: list[Call] = []
        for t in missing:
            calls += [(t, "symbol()", (), ("string",)), (t, "decimals()", (), ("uint8",))]
        return missing, calls

    def learn(self, tokens: list[str], answers: list[Any], block: int) -> None:
        for i, t in enumerate(tokens):
            symbol, decimals = answers[2 * i], answers[2 * i + 1]
            if symbol is None or decimals is None:
                raise ChainReadError(f"ERC20 symbol()/decimals() of {t} failed at block {block}")
            with self._lock:
                self._known[t] = (str(symbol), int(decimals))

    def __getitem__(self, token: str) -> tuple[str, int]:
        with self._lock:
            return self._known[token]


def _deployed(chain: ChainReader, address: str, block: int) -> bool:
    code = chain._rpc(f"eth_getCode({address}) at {block}", chain.w3.eth.get_code,
                      to_checksum_address(address), block_identifier=block)
    return len(bytes(code)) > 0


def read_vault_states(chain: ChainReader, vaults: Sequence[VaultConfig], block: int, tokens: TokenBook
                      ) -> list[tuple[VaultConfig, dict[str, Any]]]:
    """(vault, reads) of every configured vault deployed at `block`, in two Multicall3 batches."""
    plan: list[tuple[VaultConfig, str]] = []
    calls: list[Call] = []
    for v in vaults:
        for name, signature, outputs, cl_only in VAULT_VIEWS:
            if cl_only and v.kind != "cl":
                continue
            plan.append((v, name))
            calls.append((v.address, signature, (), outputs))
    answers = chain.multicall(calls, block) if calls else []
    reads: dict[str, dict[str, Any]] = {}
    for (v, name), value in zip(plan, answers):
        reads.setdefault(v.address, {})[name] = value
    found: list[tuple[VaultConfig, dict[str, Any]]] = []
    for v in vaults:
        got = reads.get(v.address, {})
        if all(value is None for value in got.values()) and not _deployed(chain, v.address, block):
            continue  # not deployed yet at this block: no row, nothing unknown
        failed = sorted(n for n, value in got.items() if value is None and n not in OPTIONAL_VIEWS)
        if failed:
            raise ChainReadError(f"vault {v.key} ({v.address}): reads failed at block {block}: {failed}")
        found.append((v, got))

    # second batch: what the vault's views point at
    second: list[Call] = []
    for v, got in found:
        second += [
            (got["strategy"], "paused()", (), ("bool",)),
            (got["strategy"], "needsRebalance()", (), ("bool",)),
            (got["factory"], "globalPause()", (), ("bool",)),
        ]
        if v.kind == "cl":
            second.append((got["pool"], "slot0()", (), ("uint160", "int24", "uint16", "uint16", "uint16", "bool")))
    new_tokens, token_calls = tokens.calls([t for _, got in found for t in (got["token0"], got["token1"])])
    answers = chain.multicall(second + token_calls, block) if second or token_calls else []
    tokens.learn(new_tokens, answers[len(second):], block)
    i = 0
    for v, got in found:
        got["strategyPaused"], got["needsRebalance"], got["globalPause"] = answers[i:i + 3]
        i += 3
        if v.kind == "cl":
            slot0 = answers[i]
            i += 1
            if slot0 is None:
                raise ChainReadError(f"vault {v.key}: pool {got['pool']} slot0() failed at block {block}")
            got["tick"] = int(slot0[1])
        else:
            got["tick"] = None
        for name in ("strategyPaused", "globalPause"):
            if got[name] is None:
                raise ChainReadError(f"vault {v.key}: {name} read failed at block {block}")
    return found


def _times(value: Any) -> Any:
    """A Unix time read from a contract; 0 means never."""
    return utc(int(value)) if value else None


def vault_row(chain_id: int, point: SnapshotPoint, v: VaultConfig, got: dict[str, Any], tokens: TokenBook,
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
        "snapshot_at": utc(point.snapshot_at),
        "block_number": point.block.number,
        "vault_address": _lower(v.address),
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
        "last_rebalance": _times(got["lastRebalance"]) if cl else None,
        "last_harvest": _times(got.get("lastHarvest")),
    }


def vault_columns(subgraph: SubgraphClient, chain: ChainReader, chain_id: int, points: Sequence[SnapshotPoint],
                  vaults: Sequence[VaultConfig], on_done=None) -> dict[str, list]:
    tokens = TokenBook()

    def read(point: SnapshotPoint) -> list[dict[str, Any]]:
        found = read_vault_states(chain, vaults, point.block.number, tokens)
        ids = sorted({t for _, got in found for t in (got["token0"], got["token1"])})
        prices: dict[str, float | None] = {}
        if ids:
            for t in subgraph.paginate("tokens", "priceUSD", where={"id_in": ids}, block=point.block.number):
                prices[ref_id(t) or ""] = opt_float(t.get("priceUSD"))
        return [vault_row(chain_id, point, v, got, tokens, prices) for v, got in found]

    rows = [r for batch in fetch_each(points, read, on_done=on_done) for r in batch]
    return columns(SNAPSHOT_COLUMNS, rows)


def write_vaults(s: "SnapshotStep") -> dict[str, int]:
    columns = vault_columns(s.subgraph, s.chain.reader, s.chain_id, s.points, list(s.chain.config().vaults),
                            on_done=s.on_done("vaults"))
    return {"vault_snap15m": s.insert("vault_snap15m", columns)}


# (name, tables, description, write) of the vault snapshot assets
VAULT_SNAPSHOT_ASSETS = [
    ("vault_snapshots", ("vault_snap15m",),
     "Every configured vault at each snapshot block: totals, supply, prices, TVL, share price, calm, pauses and "
     "the CL range, read through Multicall3 (vault_snap15m).", write_vaults),
]
