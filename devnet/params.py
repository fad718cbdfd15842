"""Per-chain simulation parameters: one `ChainParams` per chain (the tables are in devnet/chains/,
one module per chain; the shapes in devnet/specs.py), and the history-length rule.

Adding a chain means adding a module to devnet/chains/ (its `PARAMS` and `DEPLOYMENT`); nothing
else in the devnet is chain-specific. Prices are USD, sizes are USD, fees are pips (1e6 = 100%),
rates are events per hour at scale 1.
"""
from __future__ import annotations

from devnet.chains import CHAIN_PARAMS
from devnet.specs import NARROW, STABLE_CL, ChainParams, PoolSpec, TokenSpec, VaultSpec, cl_pool

BSC = CHAIN_PARAMS[56]


def history_days_for(params: ChainParams, override: float | None = None) -> float:
    """A chain's history length: its own default, or the override (DEVNET_HISTORY_DAYS,
    --history-days, history_days=) for every chain, except that a chain with `max_history_days`
    (the young one) keeps min(override, its cap)."""
    if override is None:
        return params.history_days
    if params.max_history_days is not None:
        return min(float(override), params.max_history_days)
    return override


__all__ = ["BSC", "CHAIN_PARAMS", "ChainParams", "PoolSpec", "TokenSpec", "VaultSpec", "NARROW", "STABLE_CL",
           "cl_pool", "history_days_for"]
