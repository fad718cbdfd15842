"""Blocks by time: the interpolation search behind `ChainReader.block_at`, over known headers.

No RPC and no state here: the reader keeps the headers it has seen and hands the search a
function that reads one more (`ChainReader.block`, which caches what it reads).
"""
from __future__ import annotations

import bisect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class BlockRef:
    number: int
    timestamp: int


def known_bounds(numbers: Sequence[int], timestamps: Mapping[int, int], ts: int) -> tuple[BlockRef, BlockRef]:
    """Known headers (lo, hi) with lo.timestamp <= ts < hi.timestamp, as tight as known.

    `numbers` sorted, each with its timestamp; the caller makes sure one is <= ts and one > ts.
    """
    # Timestamps are non-decreasing in block number: binary search over the known headers.
    keys = [timestamps[n] for n in numbers]
    i = bisect.bisect_right(keys, ts)  # numbers[:i] have timestamp <= ts
    lo_n, hi_n = numbers[i - 1], numbers[i]
    return BlockRef(lo_n, timestamps[lo_n]), BlockRef(hi_n, timestamps[hi_n])


def last_block_at(ts: int, lo: BlockRef, hi: BlockRef, block: Callable[[int], BlockRef]) -> BlockRef:
    """The last block with timestamp <= ts, given lo.timestamp <= ts < hi.timestamp.

    Interpolation search: a few guesses from the average block time between the bounds, then
    bisection, since irregular block times would make interpolation crawl.
    """
    steps = 0
    while hi.number - lo.number > 1:
        steps += 1
        if steps <= 6 and hi.timestamp > lo.timestamp:
            guess = lo.number + (ts - lo.timestamp) * (hi.number - lo.number) // (hi.timestamp - lo.timestamp)
        else:  # irregular block times: fall back to bisection
            guess = (lo.number + hi.number) // 2
        guess = min(max(guess, lo.number), hi.number - 1)
        for n in (guess, guess + 1):
            if lo.number < n < hi.number:
                ref = block(n)
                if ref.timestamp <= ts:
                    lo = ref
                else:
                    hi = ref
                    break
    return lo
