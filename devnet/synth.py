"""The scale setting: more tokens and pools than a chain's table (DEVNET_TOKENS, DEVNET_POOLS).

`scaled_params(params, pools=N, tokens=M)` returns the chain's parameters with extra tokens
(symbols T0001, T0002, ...; some stables) and extra pools among them and the table's hub tokens
(wrapped native, core, stables), deterministically from the chain id and the counts (not the
seed: like the tables, the pool set is configuration). Only the pool kinds of the chain's table
are drawn (no CL pools where the table has none); most get a gauge. The synthesized pools share
a swap budget equal to the table's total swaps per hour, so the activity (and the generation
time per hour) stays within about twice the table's however many pools there are. Counts at or
below the table's leave the parameters unchanged.
"""
from __future__ import annotations

import dataclasses
import math

import numpy as np

from devnet.specs import NARROW, STABLE_CL, ChainParams, PoolSpec, TokenSpec

_STREAM = 0x5CA1E
_CL_TIERS = ((500, 50), (3_000, 200), (10_000, 200))  # (fee, tick spacing) for volatile pairs


def _token(chain_id: int, n: int) -> TokenSpec:
    rng = np.random.default_rng([_STREAM, chain_id, 1, n])
    symbol = f"T{n:04d}"
    if rng.random() < 0.15:
        return TokenSpec(symbol, f"Synthetic Stable {n}", int(rng.choice([6, 18])), 1.0,
                         float(rng.uniform(0.0001, 0.0003)), stable=True, supply=float(rng.uniform(1e7, 1e9)))
    price = float(math.exp(rng.uniform(math.log(0.001), math.log(500.0))))
    decimals = int(rng.choice([18, 18, 18, 8, 6]))
    return TokenSpec(symbol, f"Synthetic Token {n}", decimals, price, float(rng.uniform(0.03, 0.09)),
                     supply=float(10 ** rng.uniform(7, 10)))


def scaled_params(params: ChainParams, pools: int | None = None, tokens: int | None = None) -> ChainParams:
    """The chain's parameters grown to `tokens` tokens and `pools` pools (unset or not larger than
    the table: unchanged)."""
    n_pools = max(int(pools or 0), len(params.pools))
    extra_pools = n_pools - len(params.pools)
    n_tokens = max(int(tokens or 0), len(params.tokens))
    if extra_pools > 0 and n_tokens == len(params.tokens):
        n_tokens = len(params.tokens) + max(2, math.ceil(extra_pools / 3))
    if n_tokens == len(params.tokens) and extra_pools <= 0:
        return params
    new_tokens = [_token(params.chain_id, n) for n in range(1, n_tokens - len(params.tokens) + 1)]
    all_tokens = tuple(params.tokens) + tuple(new_tokens)
    kinds = sorted({p.kind for p in params.pools})
    hubs = [params.wrapped_native, params.core_symbol] + [t.symbol for t in params.tokens if t.stable][:2]
    stables = [t.symbol for t in all_tokens if t.stable]
    synth = [t.symbol for t in new_tokens] or [t.symbol for t in params.tokens]
    taken = {p.label for p in params.pools}
    budget = sum(p.swaps_per_hour for p in params.pools)
    rate = budget / max(extra_pools, 1)
    out: list[PoolSpec] = []
    j = 0
    while len(out) < extra_pools:
        j += 1
        rng = np.random.default_rng([_STREAM, params.chain_id, 2, j])
        kind = kinds[int(rng.integers(0, len(kinds)))]
        a = synth[int(rng.integers(0, len(synth)))]
        paired = False
        if kind == "v2-stable" or (kind == "cl" and a in stables and rng.random() < 0.5):
            pegged = [s for s in stables if s != a]
            if a in stables and pegged:
                b, paired = pegged[int(rng.integers(0, len(pegged)))], True
            elif kind == "v2-stable":
                kind = "v2-volatile"
        if not paired:
            pool_of = hubs + synth if rng.random() < 0.3 else hubs
            b = pool_of[int(rng.integers(0, len(pool_of)))]
        if a == b:
            continue
        stable_pair = a in stables and b in stables
        tvl = float(math.exp(rng.normal(math.log(250_000.0), 0.8)))
        median = float(min(math.exp(rng.normal(math.log(400.0), 0.5)), tvl * 0.002))
        common = dict(gauge=bool(rng.random() < 0.85), vote_popularity=float(rng.uniform(0.2, 1.0)),
                      bribe_rate=float(rng.uniform(0.0, 0.3)),
                      created_frac=float(rng.uniform(0.0, 0.5)) if rng.random() < 0.2 else 0.0)
        swaps = float(rate * rng.uniform(0.5, 1.5))
        if kind == "cl":
            fee, spacing = (100, 1) if stable_pair else _CL_TIERS[int(rng.integers(0, len(_CL_TIERS)))]
            spec = PoolSpec(a, b, "cl", fee, tvl, swaps, median, tick_spacing=spacing,
                            positions=STABLE_CL if stable_pair else NARROW, **common)
        elif kind == "v2-stable":
            spec = PoolSpec(a, b, "v2-stable", 500, tvl, swaps, median, **common)
        else:
            spec = PoolSpec(a, b, "v2-volatile", int(rng.choice([3_000, 10_000])), tvl, swaps, median, **common)
        if spec.label in taken:
            if j > 50 * n_pools:
                raise ValueError(f"cannot synthesize {n_pools} distinct pools from {n_tokens} tokens")
            continue
        taken.add(spec.label)
        out.append(spec)
    return dataclasses.replace(params, tokens=all_tokens, pools=tuple(params.pools) + tuple(out))


__all__ = ["scaled_params"]
