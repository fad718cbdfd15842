"""Concentrated-liquidity tick tables read from the chain, every pool's at one block.

The chain book's `tickLens` contract answers `getPopulatedTicks(pool, startTick, maxCount)`: the
pool's initialized ticks >= startTick in ascending order, at most maxCount, each as (tick,
liquidityNet, liquidityGross). Every read of a table goes through Multicall3 at the one block,
together with the pool's slot0() and liquidity(), so the table, the current tick and the active
liquidity describe the same state (a subgraph's tick pages can each come from another block).
A table longer than a page takes further rounds, still at that block.

    tables = read_tick_tables(chain, lens, pools, block)   # {pool: TickTable}; a pool absent: not there yet
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .chain import ChainReader, ChainReadError
from .multicall import Call

LENS_CALL = "getPopulatedTicks(address,int24,uint256)((int24,int128,uint128)[])"
SLOT0 = "slot0()(uint160,int24,uint16,uint16,uint16,bool)"
LIQUIDITY = "liquidity()(uint128)"
FIRST_TICK = -887272  # TickMath.MIN_TICK
PAGE = 1000  # ticks per lens call


@dataclass(frozen=True)
class TickTable:
    pool: str
    block: int
    ticks: tuple[tuple[int, int, int], ...]  # (tick, liquidityNet, liquidityGross), ascending
    current_tick: int
    liquidity: int
    sqrt_price_x96: int


def read_tick_tables(chain: ChainReader, lens: str, pools: Sequence[str], block: int,
                     page: int = PAGE) -> dict[str, TickTable]:
    """Each pool's table at `block`. A pool whose slot0() reverts does not exist yet there and is
    left out; one that exists but whose lens read fails raises ChainReadError (the table would be
    partial)."""
    calls: list[Call] = []
    for pool in pools:
        calls += [(lens, LENS_CALL, (pool, FIRST_TICK, page), None), (pool, SLOT0, (), None),
                  (pool, LIQUIDITY, (), None)]
    answers = chain.multicall(calls, block=block)
    found: dict[str, list] = {}
    state: dict[str, tuple[int, int, int]] = {}
    for i, pool in enumerate(pools):
        ticks, slot0, liquidity = answers[3 * i: 3 * i + 3]
        if slot0 is None:
            continue  # not created at this block
        if ticks is None or liquidity is None:
            raise ChainReadError(f"chain {chain.chain_id}: the tick lens or liquidity() failed for pool {pool} "
                                 f"at block {block}")
        found[pool] = list(ticks)
        state[pool] = (int(slot0[1]), int(liquidity), int(slot0[0]))
    more = [p for p, ticks in found.items() if len(ticks) == page]
    while more:  # a full page: the next one starts right after its last tick, at the same block
        answers = chain.multicall([(lens, LENS_CALL, (p, found[p][-1][0] + 1, page), None) for p in more],
                                  block=block)
        still = []
        for pool, ticks in zip(more, answers):
            if ticks is None:
                raise ChainReadError(f"chain {chain.chain_id}: the tick lens failed for pool {pool} at block {block}")
            found[pool] += ticks
            if len(ticks) == page:
                still.append(pool)
        more = still
    return {pool: TickTable(pool, block, tuple((int(t), int(n), int(g)) for t, n, g in ticks), *state[pool])
            for pool, ticks in found.items()}
