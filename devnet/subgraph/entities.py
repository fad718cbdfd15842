"""Entity rows as of a block: state entities rebuilt from the model, event entities viewed from
the simulation's records (partial hour/day periods recomputed up to the block)."""
from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections import OrderedDict

from devnet.timeutil import DAY, HOUR, epoch_start, hour_start
from devnet.amm.cl import Q96
from devnet.subgraph.schema import Units
from devnet.subgraph.store import EventStore
from devnet.subgraph.vault_entities import vault_stores, vaults_state
from devnet.subgraph.bridge_entities import bridge_event_store
from devnet.subgraph.xcore_entities import xcore_event_store
from devnet.subgraph.liquidity_entities import liquidity_event_store, liquidity_positions
from devnet.subgraph.rebase_entities import rebase_stores
from devnet.subgraph.governance_entities import escrow_event_store, gauge_epochs, gauge_events, vote_event_store


class Context:
    """One root field's view of the chain: the block it reads at, and per-request caches."""

    def __init__(self, service, block: int):
        self.svc = service
        self.sim = service.sim
        self.block = block
        self.ts = self.sim.block_ts(block)
        self._state: dict[str, dict[str, dict]] = {}
        self._rows: dict[tuple[str, str], dict | None] = {}

    def state(self, entity: str) -> dict[str, dict]:
        rows = self._state.get(entity)
        if rows is None:
            rows = self._state[entity] = self.svc.states.get(entity, self)
        return rows

    def entity(self, entity: str, rid: str | None) -> dict | None:
        if rid is None:
            return None
        if entity in STATE_BUILDERS:
            rows = self._state.get(entity)
            if rows is None and entity in ROW_BUILDERS:
                # a reference (a vote's veNFT): one row, not the whole collection at this block
                key = (entity, rid)
                if key not in self._rows:
                    self._rows[key] = ROW_BUILDERS[entity](self, rid)
                return self._rows[key]
            return self.state(entity).get(rid)
        return self.svc.stores[entity].get(rid, self)


class StateCache:
    """State entity rows by (entity, block), shared by requests (bounded LRU, by row count).

    The snapshot readers ask for the same collections at the same block many times (pools alone
    back a dozen queries and nested references per snapshot). Only blocks before the current
    hour are kept: the simulation generates whole hours ahead, so everything up to the end of
    the hour before the clock's is final, while the newest hour is still being filled in. The
    cached rows are shared, so nothing may mutate them (nothing does: views copy)."""

    def __init__(self, max_rows: int = 100_000):
        self.max_rows = max_rows
        self.rows = 0
        self.items: OrderedDict[tuple[str, int], dict[str, dict]] = OrderedDict()

    def get(self, entity: str, ctx: Context) -> dict[str, dict]:
        if ctx.ts >= hour_start(ctx.sim.now()):
            return STATE_BUILDERS[entity](ctx)
        key = (entity, ctx.block)
        rows = self.items.get(key)
        if rows is not None:
            self.items.move_to_end(key)
            return rows
        rows = self.items[key] = STATE_BUILDERS[entity](ctx)
        self.rows += len(rows) + 1
        while self.rows > self.max_rows and len(self.items) > 1:
            _key, old = self.items.popitem(last=False)
            self.rows -= len(old) + 1
        return rows


# -- state entities ------------------------------------------------------------------------------
def _state_fields(p, st) -> dict:
    """A pool state as the subgraph's Pool and PoolHourData carry it: liquidity, sqrt price and tick
    (a V2 pool's are derived from its reserves, tick null) and the exact holdings."""
    if p.is_cl:
        liquidity, sqrt_price, tick = st.liquidity, st.sqrt_price, st.tick
    else:
        liquidity = math.isqrt(st.reserve0 * st.reserve1)
        raw = p.price1_per_0(st) * p.token1.unit / p.token0.unit
        sqrt_price = int(math.sqrt(raw) * Q96) if raw > 0 else 0
        tick = None
    return {"liquidity": liquidity, "sqrtPrice": sqrt_price, "tick": tick,
            "reserve0": Units(st.reserve0, p.token0.decimals), "reserve1": Units(st.reserve1, p.token1.decimals)}


def _pools(ctx: Context) -> dict[str, dict]:
    sim, ts = ctx.sim, ctx.ts
    out = {}
    for p in sim.pools_at(ts):
        st = p.state_at(ts)
        price1 = p.price1_per_0(st)
        g = p.gauge
        out[p.id] = {
            "id": p.id,
            "type": p.kind,
            "name": p.spec.label,
            "token0": p.token0.id,
            "token1": p.token1.id,
            "feeTier": st.fee,
            "defaultFeeTier": p.default_fee,
            "tickSpacing": p.tick_spacing,
            "isDynamicFee": p.is_dynamic,
            "isCustomFee": p.is_custom,
            **_state_fields(p, st),
            "token0Price": 1.0 / price1 if price1 > 0 else 0.0,
            "token1Price": price1,
            "totalValueLockedUSD": p.tvl_usd(st, ts),
            "volumeUSD": st.volume_usd,
            "feesUSD": st.fees_usd,
            "txCount": st.tx_count,
            "createdAtTimestamp": p.created_ts,
            "createdAtBlockNumber": p.created_block,
            "gauge": g.id if g is not None and g.exists_at(ts) else None,
        }
    return out


def _tokens(ctx: Context) -> dict[str, dict]:
    sim, ts = ctx.sim, ctx.ts
    if ts < sim.genesis_ts:
        return {}
    pools = ctx.state("Pool")
    native = sim.price(sim.native, ts)
    acc = {t.id: [0, 0.0, 0, 0] for t in sim.tokens}  # raw locked, volume, txs, pools
    for row in pools.values():
        p = sim.pool_by_id[row["id"]]
        for tok, res in ((p.token0, row["reserve0"]), (p.token1, row["reserve1"])):
            a = acc[tok.id]
            a[0] += res.raw
            a[1] += row["volumeUSD"]
            a[2] += row["txCount"]
            a[3] += 1
    out = {}
    u = sim.unpriced  # no pool and no price path: derivedETH and priceUSD 0, as a DEX subgraph has it
    out[u.id] = {"id": u.id, "symbol": u.symbol, "name": u.spec.name, "decimals": u.decimals, "derivedETH": 0.0,
                 "priceUSD": 0.0, "totalValueLocked": Units(0, u.decimals), "totalValueLockedUSD": 0.0,
                 "volumeUSD": 0.0, "txCount": 0, "poolCount": 0, "totalSupply": int(u.spec.supply) * u.unit}
    for t in sim.tokens:
        price = sim.price(t, ts)
        raw, vol, txs, npools = acc[t.id]
        locked = Units(raw, t.decimals)
        supply = sim.core_total_supply(ts) if t is sim.core else int(t.spec.supply) * t.unit
        out[t.id] = {
            "id": t.id,
            "symbol": t.symbol,
            "name": t.spec.name,
            "decimals": t.decimals,
            "derivedETH": price / native,
            "priceUSD": price,
            "totalValueLocked": locked,
            "totalValueLockedUSD": float(locked) * price,
            "volumeUSD": vol,
            "txCount": txs,
            "poolCount": npools,
            "totalSupply": supply,
        }
    return out


def _factories(ctx: Context) -> dict[str, dict]:
    sim = ctx.sim
    if ctx.ts < sim.genesis_ts:
        return {}
    pools = ctx.state("Pool")
    out = {}
    for key, kind in (("v2Factory", "v2"), ("clFactory", "cl")):
        addr = sim.contracts.get(key)
        if not addr:
            continue
        rows = [r for r in pools.values() if (r["type"] == "cl") == (kind == "cl")]
        fid = addr.lower()
        out[fid] = {
            "id": fid,
            "type": kind,
            "poolCount": len(rows),
            "txCount": sum(r["txCount"] for r in rows),
            "totalVolumeUSD": math.fsum(r["volumeUSD"] for r in rows),
            "totalFeesUSD": math.fsum(r["feesUSD"] for r in rows),
            "totalValueLockedUSD": math.fsum(r["totalValueLockedUSD"] for r in rows),
        }
    return out


def _bundles(ctx: Context) -> dict[str, dict]:
    if ctx.ts < ctx.sim.genesis_ts:
        return {}
    return {"1": {"id": "1", "ethPriceUSD": ctx.sim.price(ctx.sim.native, ctx.ts)}}


def _gauges(ctx: Context) -> dict[str, dict]:
    """`votes`: the sum of this epoch's Vote rows visible at the block (the allocations set or
    carried for the epoch so far); `weight`: Voter.weights(target) at the block."""
    sim, ts = ctx.sim, ctx.ts
    gov = sim.gov
    epoch = epoch_start(ts)
    epoch_votes: dict[str, int] = {}
    for v in gov.votes_of_epoch(epoch, ts):
        epoch_votes[v["target"]] = epoch_votes.get(v["target"], 0) + v["weight"]
    out = {}
    for g in gov.gauges:
        if not g.exists_at(ts):
            continue
        alive = g.alive_at(ts)
        emitted = gov.gauge_emissions.get(epoch, {}).get(g.target, 0) if alive else 0
        out[g.id] = {
            "id": g.id,
            "pool": g.pool.id if g.pool is not None else None,
            "isAlive": alive,
            "createdAtTimestamp": g.created_ts,
            "killedAtTimestamp": g.killed_at(ts),
            "rewardRate": gov.gauge_reward_rate(g, ts),
            "emissionsEpoch": Units(emitted, 18),
            "votes": Units(epoch_votes.get(g.target, 0), 18),
            "feesVotingReward": g.fees_reward.lower(),
            "bribeVotingReward": g.bribe_reward.lower(),
            "kind": g.kind,
            "target": g.target,
            "createdAtBlockNumber": g.created_block,
            "revivedAtTimestamp": g.revived_at(ts),
            "weight": Units(gov.book.weight(g.target, ts), 18),
        }
    return out


def _venft_row(lock, ts: int) -> dict:
    amount, end, perm, owner = lock.state_at(ts)
    tid = str(lock.token_id)
    power = amount if perm else (amount * (end - ts) // (4 * 365 * 86400) if end > ts else 0)
    return {
        "id": tid,
        "tokenId": lock.token_id,
        "owner": owner,
        "lockedAmount": Units(amount, 18),
        "unlockTime": end,
        "isPermanent": perm,
        "votingPower": Units(power, 18),
        "isFoundation": lock.foundation,
        "createdAtTimestamp": lock.created_ts,
        "createdAtBlockNumber": lock.created_block,
    }


def _venfts(ctx: Context) -> dict[str, dict]:
    ts = ctx.ts
    out = {}
    for lock in ctx.sim.gov.locks:
        if lock.created_ts > ts:
            break
        out[str(lock.token_id)] = _venft_row(lock, ts)
    return out


def _foundation_venfts(ctx: Context, pred) -> list[dict] | None:
    """The foundation's veNFTs alone when the query asks only for them (the foundation snapshot
    does at every snapshot), else None: the caller filters the whole collection."""
    if pred.get("isFoundation") is not True:
        return None
    gov, ts = ctx.sim.gov, ctx.ts
    locks = (gov.lock(tid) for tid in gov.foundation_ids)
    return [_venft_row(lock, ts) for lock in locks if lock is not None and lock.created_ts <= ts]


def _venft(ctx: Context, rid: str) -> dict | None:
    lock = ctx.sim.gov.lock(int(rid)) if rid.isdigit() else None
    return _venft_row(lock, ctx.ts) if lock is not None and lock.created_ts <= ctx.ts else None


STATE_BUILDERS = {
    "Pool": _pools,
    "Token": _tokens,
    "Factory": _factories,
    "Bundle": _bundles,
    "Gauge": _gauges,
    "VeNFT": _venfts,
    "Vault": vaults_state,
    "LiquidityPosition": liquidity_positions,
    "GaugeEvent": gauge_events,
    "GaugeEpoch": gauge_epochs,
}
# One row of a state entity by id, for references, where building the collection costs much more.
ROW_BUILDERS = {"VeNFT": _venft}
# The rows a `where` can only match, built without the rest of the collection (None: no shortcut).
SUBSET_BUILDERS = {"VeNFT": _foundation_venfts}


# -- event entities ------------------------------------------------------------------------------
def _swap_view(s, ctx) -> dict:
    p = s.pool
    return {
        "id": s.id,
        "timestamp": s.ts,
        "blockNumber": s.block,
        "pool": p.id,
        "sender": s.sender,
        "amount0": Units(s.amount0, p.token0.decimals),
        "amount1": Units(s.amount1, p.token1.decimals),
        "amountUSD": s.amount_usd,
        "feesUSD": s.fees_usd,
        "transactionHash": s.id.split("#", 1)[0],
        "logIndex": s.log_index,
        "token0": p.token0.id,
        "token1": p.token1.id,
        "tick": s.tick,
        "sqrtPriceX96": s.sqrt_price,
    }


def _partial_pool_period(ctx, row: dict, start: int, key: str) -> dict:
    sim, ts = ctx.sim, ctx.ts
    p = sim.pool_by_id[row["pool"]]
    st = p.state_at(ts)
    if st is None:  # the pool is created later in this period
        return None
    i, j = bisect_left(p.ev_ts, start), bisect_right(p.ev_ts, ts)
    out = {
        "id": row["id"],
        key: row[key],
        "pool": row["pool"],
        "volumeUSD": math.fsum(p.ev_usd[i:j]),
        "feesUSD": math.fsum(p.ev_fees[i:j]),
        "tvlUSD": p.tvl_usd(st, ts),
        "txCount": j - i,
    }
    if key == "periodStartUnix":
        price1 = p.price1_per_0(st)
        out["close"] = 1.0 / price1 if price1 > 0 else 0.0
        out.update(_state_fields(p, st))
    return out


def _pool_hour_view(row, ctx) -> dict:
    """An hour row with the pool's state at its close (at the block read, for the running hour),
    as the Uniswap v3 subgraph's PoolHourData carries liquidity, sqrtPrice and tick."""
    start = row["periodStartUnix"]
    if start + HOUR > ctx.ts:
        return _partial_pool_period(ctx, row, start, "periodStartUnix")
    p = ctx.sim.pool_by_id[row["pool"]]
    return {**row, **_state_fields(p, p.state_at(start + HOUR - 1))}


def _pool_day_view(row, ctx) -> dict:
    if row["date"] + DAY > ctx.ts:
        return _partial_pool_period(ctx, row, row["date"], "date")
    return row


def _token_hour_view(row, ctx) -> dict:
    start = row["periodStartUnix"]
    if start + HOUR <= ctx.ts:
        return row
    sim, ts = ctx.sim, ctx.ts
    tok = sim.token_by_id[row["token"]]
    vols = []
    for p in sim.pools:
        if tok is p.token0 or tok is p.token1:
            i, j = bisect_left(p.ev_ts, start), bisect_right(p.ev_ts, ts)
            vols.extend(p.ev_usd[i:j])
    return {"id": row["id"], "periodStartUnix": start, "token": row["token"],
            "priceUSD": sim.price(tok, ts), "volumeUSD": math.fsum(vols)}


def _with_units(field: str, decimals_of):
    def view(row, ctx) -> dict:
        out = dict(row)
        out[field] = Units(row[field], decimals_of(ctx, row))
        return out
    return view


def _claim_view(row, ctx) -> dict:
    """A claim with its recipient: the veNFT's owner at the claim (the Voter pays the owner)."""
    out = _with_units("amount", _token_decimals)(row, ctx)
    out["owner"] = ctx.sim.gov.lock_state(int(row["veNFT"]), row["timestamp"])[3]
    return out


def _token_decimals(ctx, row) -> int:
    return ctx.sim.token_by_id[row["token"]].decimals


def build_stores(sim) -> dict[str, EventStore]:
    gov = sim.gov
    ts_key = lambda r: r["timestamp"]  # noqa: E731
    id_key = lambda r: r["id"]  # noqa: E731
    # votes and bribes are read one epoch at a time (`where: {epoch: ...}` in id order): indexing
    # them by epoch spares a walk over every vote or bribe of the history per page
    epoch_key = lambda r: r["epoch"]  # noqa: E731
    return {
        **vault_stores(sim),
        "VoteEvent": vote_event_store(sim),
        "EscrowEvent": escrow_event_store(sim),
        "BridgeEvent": bridge_event_store(sim),
        "XcoreEvent": xcore_event_store(sim),
        "LiquidityEvent": liquidity_event_store(sim),
        **rebase_stores(sim),
        "Swap": EventStore("Swap", lambda: sim.swaps, lambda s: s.ts, lambda s: s.id,
                           {"pool": lambda s: s.pool.id}, _swap_view, ("timestamp", "blockNumber")),
        "PoolHourData": EventStore("PoolHourData", lambda: sim.hour_rows, lambda r: r["periodStartUnix"], id_key,
                                   {"pool": lambda r: r["pool"]}, _pool_hour_view, ("periodStartUnix",), HOUR),
        "PoolDayData": EventStore("PoolDayData", lambda: sim.day_rows, lambda r: r["date"], id_key,
                                  {"pool": lambda r: r["pool"]}, _pool_day_view, ("date",), DAY),
        "TokenHourData": EventStore("TokenHourData", lambda: sim.token_hour_rows, lambda r: r["periodStartUnix"],
                                    id_key, {"token": lambda r: r["token"]}, _token_hour_view,
                                    ("periodStartUnix",), HOUR),
        "Vote": EventStore("Vote", lambda: gov.votes, ts_key, id_key,
                           {"veNFT": lambda r: r["veNFT"], "pool": lambda r: r["pool"], "epoch": epoch_key},
                           _with_units("weight", lambda ctx, r: 18), ("timestamp", "blockNumber")),
        "Bribe": EventStore("Bribe", lambda: gov.bribes, ts_key, id_key,
                            {"gauge": lambda r: r["gauge"], "pool": lambda r: r["pool"], "token": lambda r: r["token"],
                             "epoch": epoch_key},
                            _with_units("amount", _token_decimals), ("timestamp", "blockNumber")),
        "Claim": EventStore("Claim", lambda: gov.claims, ts_key, id_key,
                            {"veNFT": lambda r: r["veNFT"], "gauge": lambda r: r["gauge"], "token": lambda r: r["token"]},
                            _claim_view, ("timestamp", "blockNumber")),
    }
