"""Vault entities of the subgraph: the `Vault` state rows as of a block, and the event stores
(deposits, withdrawals, rebalances, harvests, hour and day rows; the period containing the block
is recomputed up to it, like the pools' periods)."""
from __future__ import annotations

from devnet.timeutil import DAY, HOUR
from devnet.subgraph.schema import Units
from devnet.subgraph.store import EventStore


def vaults_state(ctx) -> dict[str, dict]:
    out = {}
    for v in ctx.sim.vaults.vaults_at(ctx.ts):
        snap = v.snapshot(ctx.ts)
        vs = snap["state"]
        g = v.gauge()
        out[v.id] = {
            "id": v.id,
            "kind": v.kind,
            "name": f"Vault {v.pool.spec.label}",
            "pool": v.pool.id,
            "gauge": g.id if g is not None and g.exists_at(ctx.ts) else None,
            "strategy": v.strategy.lower(),
            "token0": v.token0.id,
            "token1": v.token1.id,
            "totalSupply": vs.supply,
            "amount0": Units(snap["amount0"], v.token0.decimals),
            "amount1": Units(snap["amount1"], v.token1.decimals),
            "totalValueLockedUSD": snap["tvlUsd"],
            "sharePriceUSD": snap["sharePriceUsd"],
            "tickLower": vs.lower if v.kind == "cl" else None,
            "tickUpper": vs.upper if v.kind == "cl" else None,
            "createdAtTimestamp": v.created_ts,
            "createdAtBlockNumber": v.created_block,
        }
    return out


def _amounts(row: dict, v) -> dict:
    out = dict(row)
    out["amount0"] = Units(row["amount0"], v.token0.decimals)
    out["amount1"] = Units(row["amount1"], v.token1.decimals)
    return out


def _flow_view(row, ctx) -> dict:
    return _amounts(row, ctx.sim.vaults.by_id[row["vault"]])


def _harvest_view(row, ctx) -> dict:
    out = dict(row)
    out["amount"] = Units(row["amount"], ctx.sim.core.decimals)
    out["feeAmount"] = Units(row["feeAmount"], ctx.sim.core.decimals)
    return out


def _rebalance_view(row, ctx) -> dict:
    """Raw amounts -> token units (the swap's input token is token0 when swapZeroForOne)."""
    v = ctx.sim.vaults.by_id[row["vault"]]
    d0, d1 = v.token0.decimals, v.token1.decimals
    out = dict(row)
    for k in ("amount0Before", "amount0After", "fees0"):
        out[k] = Units(row[k], d0)
    for k in ("amount1Before", "amount1After", "fees1"):
        out[k] = Units(row[k], d1)
    d_in, d_out = (d0, d1) if row["swapZeroForOne"] else (d1, d0)
    out["swapAmountIn"] = Units(row["swapAmountIn"], d_in)
    out["swapAmountOut"] = Units(row["swapAmountOut"], d_out)
    return out


def _period_view(length: int):
    def view(row, ctx) -> dict | None:
        v = ctx.sim.vaults.by_id[row["vault"]]
        start = row["periodStartUnix"]
        if start + length <= ctx.ts:
            return _amounts(row, v)
        snap = v.snapshot(ctx.ts)
        if snap is None:  # the vault is created later in this period
            return None
        return _amounts(v.period_row(start, ctx.ts, length, snap), v)
    return view


def vault_stores(sim) -> dict[str, EventStore]:
    book = sim.vaults
    ts_key = lambda r: r["timestamp"]  # noqa: E731
    id_key = lambda r: r["id"]  # noqa: E731
    vault_ref = {"vault": lambda r: r["vault"]}
    flow_refs = {"vault": lambda r: r["vault"], "user": lambda r: r["user"]}
    times = ("timestamp", "blockNumber")
    return {
        "VaultDeposit": EventStore("VaultDeposit", lambda: book.deposits, ts_key, id_key, flow_refs,
                                   _flow_view, times),
        "VaultWithdrawal": EventStore("VaultWithdrawal", lambda: book.withdrawals, ts_key, id_key, flow_refs,
                                      _flow_view, times),
        "VaultRebalance": EventStore("VaultRebalance", lambda: book.rebalances, ts_key, id_key, vault_ref,
                                     _rebalance_view, times),
        "VaultHarvest": EventStore("VaultHarvest", lambda: book.harvests, ts_key, id_key, vault_ref,
                                   _harvest_view, times),
        "VaultHourData": EventStore("VaultHourData", lambda: book.hour_rows, lambda r: r["periodStartUnix"],
                                    id_key, vault_ref, _period_view(HOUR), ("periodStartUnix",), HOUR),
        "VaultDayData": EventStore("VaultDayData", lambda: book.day_rows, lambda r: r["periodStartUnix"],
                                   id_key, vault_ref, _period_view(DAY), ("periodStartUnix",), DAY),
    }
