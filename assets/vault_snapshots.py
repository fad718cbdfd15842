"""Write function of the `vault_snapshots` asset: one vault_snap15m row per configured vault (the
chain book's `vaults`) per snapshot, read through Multicall3 at the snapshot block in two batches
(assets.rows.vaults says which calls and how their answers become rows), with prices from the
subgraph at the same block. A vault without code at the block (not deployed yet) has no row."""
from __future__ import annotations

from typing import Sequence

from .rows.values import columns, opt_float, ref_id
from .rows.vaults import (
    VAULT_COLUMNS,
    TokenBook,
    Views,
    pointer_calls,
    require_views,
    vault_row,
    view_calls,
    views_by_vault,
    with_pointer_answers,
)
from .snapshot_step import SnapshotStep
from .upstream import SnapshotPoint
from ..core.vaults import VaultConfig
from ..readers.chain import ChainReader


def _deployed(chain: ChainReader, address: str, block: int) -> bool:
    return len(chain.code(address, block)) > 0


def read_vault_states(chain: ChainReader, vaults: Sequence[VaultConfig], block: int, tokens: TokenBook
                      ) -> list[tuple[VaultConfig, Views]]:
    """(vault, views) of every configured vault deployed at `block`, in two Multicall3 batches."""
    plan, calls = view_calls(vaults)
    reads = views_by_vault(plan, chain.multicall(calls, block) if calls else [])
    found: list[tuple[VaultConfig, Views]] = []
    for v in vaults:
        got = reads.get(v.address, {})
        if all(value is None for value in got.values()) and not _deployed(chain, v.address, block):
            continue  # not deployed yet at this block: no row, nothing unknown
        require_views(v, got, block)
        found.append((v, got))

    second = pointer_calls(found)
    new_tokens, token_calls = tokens.calls([t for _, got in found for t in (got["token0"], got["token1"])])
    answers = chain.multicall(second + token_calls, block) if second or token_calls else []
    tokens.learn(new_tokens, answers[len(second):], block)
    return with_pointer_answers(found, answers[:len(second)], block)


def write_vaults(s: SnapshotStep) -> dict[str, int]:
    vaults = list(s.chain.config().vaults)
    tokens = TokenBook()

    def read(point: SnapshotPoint) -> list[dict]:
        found = read_vault_states(s.chain.reader, vaults, point.block.number, tokens)
        ids = sorted({t for _, got in found for t in (got["token0"], got["token1"])})
        prices: dict[str, float | None] = {}
        if ids:
            for t in s.subgraph.paginate("tokens", "priceUSD", where={"id_in": ids}, block=point.block.number):
                prices[ref_id(t) or ""] = opt_float(t.get("priceUSD"))
        return [vault_row(s.chain_id, point, v, got, tokens, prices) for v, got in found]

    return {"vault_snap15m": s.insert("vault_snap15m", columns(VAULT_COLUMNS, s.rows_each(read, "vaults")))}
