"""Vault ground truth as of a time (the /chains/<id>/truth/vault* routes): the vaults' state, a
user's positions, the users, and one vault's event history. Big integers are decimal strings,
USD figures floats."""
from __future__ import annotations

import math

# event fields that are raw integers (served as decimal strings), by event kind
_RAW = {
    "deposit": ("shares", "amount0", "amount1"),
    "withdrawal": ("shares", "amount0", "amount1"),
    "harvest": ("amount", "feeAmount"),
    "rebalance": ("sqrtPriceX96", "amount0Before", "amount1Before", "amount0After", "amount1After",
                  "fees0", "fees1", "swapAmountIn", "swapAmountOut"),
}


def vaults(book, ts: int) -> list[dict]:
    out = []
    for v in book.vaults_at(ts):
        snap = v.snapshot(ts)
        vs = snap["state"]
        calm = v.is_calm(ts)
        paused_s, paused_g = v.strategy_paused(ts), book.global_paused(ts)
        pool_st = v.pool.state_at(ts)
        cl = v.kind == "cl"
        out.append({
            "key": v.key, "address": v.address, "kind": v.kind, "strategy": v.strategy,
            "pool": v.pool.address, "gauge": v.gauge().address if v.gauge() else None,
            "token0": v.token0.address, "token1": v.token1.address,
            "totalSupply": str(vs.supply), "amount0": str(snap["amount0"]), "amount1": str(snap["amount1"]),
            "tvlUsd": snap["tvlUsd"], "sharePriceUsd": snap["sharePriceUsd"],
            "isCalm": calm, "strategyPaused": paused_s, "globalPause": paused_g,
            "depositsAvailable": calm and not paused_s and not paused_g,
            "tickLower": vs.lower if cl else None,
            "tickUpper": vs.upper if cl else None,
            "tick": pool_st.tick if cl else None,
            "sqrtPriceX96": str(pool_st.sqrt_price) if cl else None,
            "needsRebalance": v.needs_rebalance(vs, ts),
            "lastRebalance": vs.last_rebalance if cl else None,
            "lastHarvest": vs.last_harvest,
            "earned": str(v.earned(ts)),
            "slippageBps": v.spec.slippage_bps,
            "rewardFeeBps": v.spec.reward_fee_bps,
            "feeRecipient": book.fee_recipient,
            "createdAtTimestamp": v.created_ts,
        })
    return out


def events(book, address: str, ts: int) -> dict:
    """Every deposit, withdrawal, harvest and rebalance of one vault with timestamp <= ts, in
    chain order. LookupError: not a vault of the chain, or not created yet at ts."""
    v = book.vault(address)
    if v is None:
        raise LookupError(f"{address.lower()} is not a vault of chain {book.sim.chain_id}")
    if not v.exists_at(ts):
        raise LookupError(f"vault {v.address} does not exist at timestamp {ts}")
    rows = [r for kind in (book.deposits, book.withdrawals, book.harvests, book.rebalances)
            for r in kind if r["vault"] == v.id and r["timestamp"] <= ts]
    rows.sort(key=lambda r: (r["blockNumber"], r["logIndex"]))
    out = []
    for r in rows:
        e = {k: val for k, val in r.items() if k not in ("kind", "vault")}
        for k in _RAW[r["kind"]]:
            e[k] = str(r[k])
        out.append({"type": r["kind"], **e})
    return {"vault": v.address, "key": v.key, "kind": v.kind, "token0": v.token0.address,
            "token1": v.token1.address, "rewardFeeBps": v.spec.reward_fee_bps,
            "feeRecipient": book.fee_recipient, "events": out}


def positions(book, user: str, ts: int) -> list[dict]:
    """A user's positions as of ts: value now, USD in and out at the time, P&L, interactions."""
    user = user.lower()
    rows = [r for r in book.by_user.get(user, []) if r["timestamp"] <= ts]
    out = []
    for v in book.vaults_at(ts):
        mine = [r for r in rows if r["vault"] == v.id]
        if not mine:
            continue
        shares = v.balance_of(user, ts)
        snap = v.snapshot(ts)
        supply = snap["state"].supply
        a0 = snap["amount0"] * shares // supply if supply else 0
        a1 = snap["amount1"] * shares // supply if supply else 0
        value = v.usd(a0, a1, ts)
        dep = math.fsum(r["amountUSD"] for r in mine if r["kind"] == "deposit")
        wd = math.fsum(r["amountUSD"] for r in mine if r["kind"] == "withdrawal")
        out.append({
            "vault": v.address, "key": v.key, "shares": str(shares),
            "amount0": str(a0), "amount1": str(a1), "valueUsd": value,
            "depositedUsd": dep, "withdrawnUsd": wd, "pnlUsd": value + wd - dep,
            "interactions": [{
                "type": r["kind"], "timestamp": r["timestamp"], "blockNumber": r["blockNumber"],
                "transactionHash": r["transactionHash"], "shares": str(r["shares"]),
                "amount0": str(r["amount0"]), "amount1": str(r["amount1"]), "amountUsd": r["amountUSD"],
            } for r in mine],
        })
    return out


def users(book, ts: int) -> list[dict]:
    """Users with interactions up to ts, most active first (for tests and demos)."""
    out = []
    for user, rows in book.by_user.items():
        seen = [r for r in rows if r["timestamp"] <= ts]
        if not seen:
            continue
        open_ = [v.address for v in book.vaults if v.balance_of(user, ts) > 0]
        out.append({"user": user, "interactions": len(seen), "openPositions": open_})
    out.sort(key=lambda r: (-r["interactions"], r["user"]))
    return out
