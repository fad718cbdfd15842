"""Liquidity ground truth for one account as of a block (the /chains/<id>/truth/account-liquidity
route): its open positions (devnet/sim/liquidity.py), valued at the devnet's true prices, and its
liquidity events up to the block. Big integers are decimal strings, USD figures floats."""
from __future__ import annotations

_RAW = ("lp", "liquidity", "amount0", "amount1", "fees0", "fees1", "emissions")


def _token(t) -> dict:
    return {"address": t.address, "symbol": t.symbol, "decimals": t.decimals}


def _usd(sim, pool, a0: int, a1: int, ts: int) -> float:
    return (a0 / pool.token0.unit * sim.price(pool.token0, ts) + a1 / pool.token1.unit * sim.price(pool.token1, ts))


def account_liquidity(sim, owner: str, block: int | None) -> dict:
    """ValueError: a block above the head (default: the head)."""
    ts, block = sim._truth_ts(block)
    core = sim.core
    positions = []
    for v in sim.liquidity.positions_of(owner, ts):
        pool = sim.pool_by_id[v["pool"]]
        gauge = pool.gauge
        row = {"kind": v["kind"], "pool": pool.address, "tokenId": v["tokenId"],
               "token0": _token(pool.token0), "token1": _token(pool.token1),
               "gauge": gauge.address if gauge is not None else None,
               "amount0": str(v["amount0"]), "amount1": str(v["amount1"]),
               "fees0": str(v["fees0"]), "fees1": str(v["fees1"]),
               "emissions": str(v["emissions"]), "emissionsToken": _token(core),
               "feesUsd": _usd(sim, pool, v["fees0"], v["fees1"], ts),
               "emissionsUsd": v["emissions"] / core.unit * sim.price(core, ts)}
        if v["kind"] == "cl":
            row.update(liquidity=str(v["liquidity"]), staked=v["staked"], tickLower=v["tickLower"],
                       tickUpper=v["tickUpper"], inRange=v["inRange"],
                       valueUsd=_usd(sim, pool, v["amount0"], v["amount1"], ts))
        else:
            row.update(lp=str(v["wallet"]), stakedLp=str(v["stakedLp"]), lpSupply=str(v["supply"]),
                       staked0=str(v["staked0"]), staked1=str(v["staked1"]),
                       valueUsd=_usd(sim, pool, v["amount0"], v["amount1"], ts),
                       stakedValueUsd=_usd(sim, pool, v["staked0"], v["staked1"], ts))
        positions.append(row)
    events = [{k: (str(x) if k in _RAW else x) for k, x in e.items()} for e in sim.liquidity.events_of(owner, ts)]
    return {"chainId": sim.chain_id, "block": block, "timestamp": ts, "owner": owner.lower(),
            "positions": positions, "events": events}
