"""Contract read implementations (real Solidity signatures), evaluated at a block's timestamp."""
from __future__ import annotations

import math
from bisect import bisect_left, bisect_right

from eth_utils import to_checksum_address

from devnet.timeutil import HOUR, WEEK, epoch_start
from devnet.addresses import ZERO_ADDRESS
from devnet.amm.v2 import V2Pool
from devnet.deployments import lp_sugar_address
from devnet.rpc.abi import Contract, Revert, method
from devnet.rpc.liquidity import LpSugar
from devnet.rpc.rebases import RewardsDistributor
from devnet.sim.governance import MAXTIME, to_raw, voting_power


class CallCtx:
    __slots__ = ("sim", "node", "block", "ts", "sender", "value")

    def __init__(self, sim, node, block: int, sender: str = ZERO_ADDRESS, value: int = 0):
        self.sim = sim
        self.node = node
        self.block = block
        self.ts = sim.block_ts(block)
        self.sender = sender  # msg.sender (the call's `from`; Multicall3 for its sub-calls)
        self.value = value  # msg.value


def _addr(a: str) -> str:
    return a.lower()


# -- tokens ---------------------------------------------------------------------------------------
class ERC20(Contract):
    def __init__(self, sim, token):
        super().__init__(sim, token.address, sim.genesis_ts)
        self.token = token

    @method("name()", "string")
    def name(self, ctx):
        return self.token.spec.name

    @method("symbol()", "string")
    def symbol(self, ctx):
        return self.token.symbol

    @method("decimals()", "uint8")
    def decimals(self, ctx):
        return self.token.decimals

    @method("totalSupply()", "uint256")
    def total_supply(self, ctx):
        if self.token is self.sim.core:
            return self.sim.core_total_supply(ctx.ts)
        return int(self.token.spec.supply) * self.token.unit

    @method("balanceOf(address)", "uint256")
    def balance_of(self, ctx, owner):
        return token_balance(self.sim, self.token, owner.lower(), ctx.ts)

    @method("allowance(address,address)", "uint256")
    def allowance(self, ctx, owner, spender):
        return 0


def token_balance(sim, token, owner: str, ts: int) -> int:
    pool = sim.pool_by_id.get(owner)
    if pool is not None:
        st = pool.state_at(ts)
        if st is None:
            return 0
        if token is pool.token0:
            return st.reserve0
        if token is pool.token1:
            return st.reserve1
        return 0
    if owner == sim.contracts.get("votingEscrow", "").lower() and token is sim.core:
        return sim.gov.ve_totals(ts)[0]
    if token is sim.core and sim.vaults.fee_recipient and owner == sim.vaults.fee_recipient.lower():
        return sim.vaults.fees.received(ts)  # the vault strategies' cuts of harvested rewards
    if token is sim.core and owner == sim.contracts.get("rewardsDistributor", "").lower():
        return sim.gov.rebases.minted_until(ts) - sim.gov.rebases.paid_until(ts)  # rebases not claimed yet
    if owner == sim.foundation_wallet.lower():
        initial = sim.params.foundation_balances.get(token.symbol, 0.0)
        return max(0, to_raw(initial, token.decimals) + sim.gov.foundation_balance_delta(token.idx, ts))
    return 0


# -- pools ------------------------------------------------------------------------------------------
class _PoolBase(Contract):
    def __init__(self, sim, pool, factory: str):
        super().__init__(sim, pool.address, pool.created_ts)
        self.pool = pool
        self.factory_address = factory

    def state(self, ctx):
        st = self.pool.state_at(ctx.ts)
        if st is None:
            raise Revert()
        return st

    @method("token0()", "address")
    def token0(self, ctx):
        return self.pool.token0.address

    @method("token1()", "address")
    def token1(self, ctx):
        return self.pool.token1.address

    @method("factory()", "address")
    def factory(self, ctx):
        return self.factory_address

    @method("fee()", "uint24")
    def fee(self, ctx):
        return self.pool.fee_at(ctx.ts)


class V2PoolContract(_PoolBase):
    @method("getReserves()", "uint256", "uint256", "uint256")
    def get_reserves(self, ctx):
        st = self.state(ctx)
        i = bisect_right(self.pool.ev_ts, ctx.ts) - 1
        return st.reserve0, st.reserve1, self.pool.ev_ts[i]

    @method("reserve0()", "uint256")
    def reserve0(self, ctx):
        return self.state(ctx).reserve0

    @method("reserve1()", "uint256")
    def reserve1(self, ctx):
        return self.state(ctx).reserve1

    @method("stable()", "bool")
    def stable(self, ctx):
        return self.pool.kind == "v2-stable"

    @method("metadata()", "uint256", "uint256", "uint256", "uint256", "bool", "address", "address")
    def metadata(self, ctx):
        st = self.state(ctx)
        p = self.pool
        return (p.token0.unit, p.token1.unit, st.reserve0, st.reserve1, p.kind == "v2-stable",
                p.token0.address, p.token1.address)

    @method("totalSupply()", "uint256")
    def total_supply(self, ctx):
        st = self.state(ctx)
        return math.isqrt(st.reserve0 * st.reserve1)

    @method("decimals()", "uint8")
    def decimals(self, ctx):
        return 18

    @method("symbol()", "string")
    def symbol(self, ctx):
        return self.pool.spec.label

    @method("name()", "string")
    def name(self, ctx):
        kind = "StableV2" if self.pool.kind == "v2-stable" else "VolatileV2"
        return f"{kind} AMM - {self.pool.token0.symbol}/{self.pool.token1.symbol}"

    @method("getAmountOut(uint256,address)", "uint256")
    def get_amount_out(self, ctx, amount_in, token_in):
        st = self.state(ctx)
        p = self.pool
        zero_in = token_in.lower() == p.token0.id
        if not zero_in and token_in.lower() != p.token1.id:
            raise Revert()
        v2 = V2Pool(p.kind == "v2-stable", p.token0.decimals, p.token1.decimals, p.fee_at(ctx.ts),
                    st.reserve0, st.reserve1)
        if amount_in == 0:
            return 0
        return v2.quote(amount_in, zero_in)[0]


class CLPoolContract(_PoolBase):
    @method("slot0()", "uint160", "int24", "uint16", "uint16", "uint16", "bool")
    def slot0(self, ctx):
        st = self.state(ctx)
        return st.sqrt_price, st.tick, 0, 1, 1, True

    @method("liquidity()", "uint128")
    def liquidity(self, ctx):
        return self.state(ctx).liquidity

    @method("tickSpacing()", "int24")
    def tick_spacing(self, ctx):
        return self.pool.tick_spacing

    @method("gauge()", "address")
    def gauge(self, ctx):
        g = self.pool.gauge
        return g.address if g is not None and g.exists_at(ctx.ts) else ZERO_ADDRESS


# -- governance -------------------------------------------------------------------------------------
class Voter(Contract):
    def _gauges(self, ctx):
        return self.sim.gov.gauges_at(ctx.ts)

    def _gauge(self, ctx, address):
        g = self.sim.gov.gauge_by_id.get(address.lower())
        return g if g is not None and g.exists_at(ctx.ts) else None

    @method("length()", "uint256")
    def length(self, ctx):
        return len(self._gauges(ctx))

    @method("pools(uint256)", "address")
    def pools(self, ctx, i):
        gauges = self._gauges(ctx)
        if i >= len(gauges):
            raise Revert()
        return gauges[i].target_address  # a pool, or the system gauge's target

    @method("gauges(address)", "address")
    def gauges(self, ctx, pool):
        g = self.sim.gov.gauge_by_pool.get(pool.lower())
        return g.address if g is not None and g.exists_at(ctx.ts) else ZERO_ADDRESS

    @method("poolForGauge(address)", "address")
    def pool_for_gauge(self, ctx, gauge):
        g = self._gauge(ctx, gauge)
        return g.target_address if g else ZERO_ADDRESS

    @method("isAlive(address)", "bool")
    def is_alive(self, ctx, gauge):
        g = self._gauge(ctx, gauge)
        return bool(g and g.alive_at(ctx.ts))

    @method("isGauge(address)", "bool")
    def is_gauge(self, ctx, gauge):
        return self._gauge(ctx, gauge) is not None

    @method("gaugeToFees(address)", "address")
    def gauge_to_fees(self, ctx, gauge):
        g = self._gauge(ctx, gauge)
        return g.fees_reward if g else ZERO_ADDRESS

    @method("gaugeToBribe(address)", "address")
    def gauge_to_bribe(self, ctx, gauge):
        g = self._gauge(ctx, gauge)
        return g.bribe_reward if g else ZERO_ADDRESS

    @method("totalWeight()", "uint256")
    def total_weight(self, ctx):
        return self.sim.gov.total_weight(ctx.ts)

    @method("weights(address)", "uint256")
    def weights(self, ctx, pool):
        return self.sim.gov.pool_weight(pool.lower(), ctx.ts)

    @method("votes(uint256,address)", "uint256")
    def votes(self, ctx, token_id, pool):
        return self.sim.gov.token_pool_votes(token_id, pool.lower(), ctx.ts)

    @method("usedWeights(uint256)", "uint256")
    def used_weights(self, ctx, token_id):
        return self.sim.gov.book.used(token_id, ctx.ts)

    @method("lastVoted(uint256)", "uint256")
    def last_voted(self, ctx, token_id):
        return self.sim.gov.last_voted(token_id, ctx.ts)

    @method("minter()", "address")
    def minter(self, ctx):
        return self.sim.contracts["minter"]

    @method("ve()", "address")
    def ve(self, ctx):
        return self.sim.contracts["votingEscrow"]

    @method("epochStart(uint256)", "uint256")
    def epoch_start_(self, ctx, ts):
        return epoch_start(ts)

    @method("epochNext(uint256)", "uint256")
    def epoch_next(self, ctx, ts):
        return epoch_start(ts) + WEEK

    @method("epochVoteStart(uint256)", "uint256")
    def epoch_vote_start(self, ctx, ts):
        return epoch_start(ts) + HOUR

    @method("epochVoteEnd(uint256)", "uint256")
    def epoch_vote_end(self, ctx, ts):
        return epoch_start(ts) + WEEK - HOUR


class Minter(Contract):
    @method("activePeriod()", "uint256")
    def active_period(self, ctx):
        return max(epoch_start(ctx.ts), self.sim.gov.first_epoch)

    @method("weekly()", "uint256")
    def weekly(self, ctx):
        return self.sim.gov.weekly_at(ctx.ts)

    @method("epochCount()", "uint256")
    def epoch_count(self, ctx):
        return self.sim.gov.epoch_count(ctx.ts)

    @method("WEEKLY_DECAY()", "uint256")
    def weekly_decay(self, ctx):
        return self.sim.params.weekly_decay_bps

    @method("token()", "address")
    def token(self, ctx):
        return self.sim.core.address

    @method("voter()", "address")
    def voter(self, ctx):
        return self.sim.contracts["voter"]

    @method("ve()", "address")
    def ve(self, ctx):
        return self.sim.contracts["votingEscrow"]


class VotingEscrow(Contract):
    def _state(self, ctx, token_id):
        return self.sim.gov.lock_state(token_id, ctx.ts)

    @method("supply()", "uint256")
    def supply(self, ctx):
        return self.sim.gov.ve_totals(ctx.ts)[0]

    @method("totalSupply()", "uint256")
    def total_supply(self, ctx):
        return self.sim.gov.ve_totals(ctx.ts)[1]

    @method("totalSupplyAt(uint256)", "uint256")
    def total_supply_at(self, ctx, t):
        gov = self.sim.gov
        if t >= ctx.ts:
            total = 0
            for lock in gov.locks:
                if lock.created_ts > ctx.ts:
                    break
                amount, end, perm, _ = lock.state_at(ctx.ts)
                total += voting_power(amount, end, perm, t)
            return total
        return gov.ve_totals(t)[1]

    @method("permanentLockBalance()", "uint256")
    def permanent_lock_balance(self, ctx):
        return self.sim.gov.ve_totals(ctx.ts)[2]

    @method("balanceOfNFT(uint256)", "uint256")
    def balance_of_nft(self, ctx, token_id):
        return self.sim.gov.balance_of_nft(token_id, ctx.ts)

    @method("balanceOfNFTAt(uint256,uint256)", "uint256")
    def balance_of_nft_at(self, ctx, token_id, t):
        st = self.sim.gov.lock_state(token_id, min(t, ctx.ts))
        return voting_power(st[0], st[1], st[2], t) if st else 0

    @method("locked(uint256)", "(int128,uint256,bool)")
    def locked(self, ctx, token_id):
        st = self._state(ctx, token_id)
        if st is None:
            return (0, 0, False)
        return (st[0], st[1], st[2])

    @method("ownerOf(uint256)", "address")
    def owner_of(self, ctx, token_id):
        st = self._state(ctx, token_id)
        return st[3] if st else ZERO_ADDRESS

    @method("balanceOf(address)", "uint256")
    def balance_of(self, ctx, owner):
        return len(self.sim.gov.tokens_of_owner(owner, ctx.ts))

    @method("tokenOfOwnerByIndex(address,uint256)", "uint256")
    def token_of_owner_by_index(self, ctx, owner, index):
        tokens = self.sim.gov.tokens_of_owner(owner, ctx.ts)
        return tokens[index] if index < len(tokens) else 0

    @method("voted(uint256)", "bool")
    def voted(self, ctx, token_id):
        return self.sim.gov.book.used(token_id, ctx.ts) > 0  # holds votes (until a reset)

    @method("tokenId()", "uint256")
    def token_id(self, ctx):
        return sum(1 for lock in self.sim.gov.locks if lock.created_ts <= ctx.ts)

    @method("token()", "address")
    def token(self, ctx):
        return self.sim.core.address

    @method("voter()", "address")
    def voter(self, ctx):
        return self.sim.contracts["voter"]

    @method("name()", "string")
    def name(self, ctx):
        return "veNFT"

    @method("symbol()", "string")
    def symbol(self, ctx):
        return f"ve{self.sim.core.symbol}"

    @method("decimals()", "uint8")
    def decimals(self, ctx):
        return 18

    @method("MAXTIME()", "uint256")
    def maxtime(self, ctx):
        return MAXTIME


class GaugeContract(Contract):
    def __init__(self, sim, gauge):
        super().__init__(sim, gauge.address, gauge.created_ts)
        self.gauge = gauge

    @method("stakingToken()", "address")
    def staking_token(self, ctx):
        return self.gauge.target_address

    @method("pool()", "address")
    def pool(self, ctx):
        return self.gauge.target_address  # the system gauge: its target

    @method("rewardToken()", "address")
    def reward_token(self, ctx):
        return self.sim.core.address

    @method("rewardRate()", "uint256")
    def reward_rate(self, ctx):
        return self.sim.gov.gauge_reward_rate(self.gauge, ctx.ts)

    @method("periodFinish()", "uint256")
    def period_finish(self, ctx):
        return epoch_start(ctx.ts) + WEEK if self.gauge.alive_at(ctx.ts) else epoch_start(ctx.ts)

    @method("left()", "uint256")
    def left(self, ctx):
        rate = self.sim.gov.gauge_reward_rate(self.gauge, ctx.ts)
        return rate * (epoch_start(ctx.ts) + WEEK - ctx.ts)

    @method("isAlive()", "bool")
    def is_alive(self, ctx):
        return self.gauge.alive_at(ctx.ts)

    @method("feesVotingReward()", "address")
    def fees_voting_reward(self, ctx):
        return self.gauge.fees_reward

    @method("bribeVotingReward()", "address")
    def bribe_voting_reward(self, ctx):
        return self.gauge.bribe_reward

    def _vault(self, ctx, account):
        """The vault staking in this gauge through `account` (the vault or its strategy)."""
        book = self.sim.vaults
        v = book.vault(account) or book.by_strategy.get(account.lower())
        if v is None or v.gauge() is not self.gauge or not v.exists_at(ctx.ts):
            return None
        return v

    @method("earned(address)", "uint256")
    def earned(self, ctx, account):
        v = self._vault(ctx, account)
        return v.earned(ctx.ts) if v else 0

    @method("balanceOf(address)", "uint256")
    def balance_of(self, ctx, account):
        """Staked amount of a vault: its LP units (v2) or its position's liquidity (CL)."""
        v = self._vault(ctx, account)
        return v.state_at(ctx.ts).liq if v else 0


class DynamicFeeModule(Contract):
    def _pool(self, ctx, address):
        p = self.sim.pool_by_id.get(address.lower())
        if p is None or not p.exists_at(ctx.ts):
            raise Revert()
        return p

    @method("getFee(address)", "uint24")
    def get_fee(self, ctx, pool):
        return self._pool(ctx, pool).fee_at(ctx.ts)

    @method("feeConfig(address)", "(uint24,uint24,uint64)")
    def fee_config(self, ctx, pool):
        p = self._pool(ctx, pool)
        if p.spec.dynamic_fee is None:
            return (0, 0, 0)
        return tuple(p.spec.dynamic_fee)

    @method("customFee(address)", "uint24")
    def custom_fee(self, ctx, pool):
        p = self._pool(ctx, pool)
        return p.spec.custom_fee or 0

    @method("defaultFee(address)", "uint24")
    def default_fee(self, ctx, pool):
        return self._pool(ctx, pool).default_fee


class TickLens(Contract):
    """Uniswap's TickLens shape, paged by tick: a CL pool's initialized ticks as of the block."""

    @method("getPopulatedTicks(address,int24,uint256)", "(int24,int128,uint128)[]")
    def get_populated_ticks(self, ctx, pool, start_tick, max_count):
        """The ticks t >= startTick in ascending order, at most maxCount, each as (tick,
        liquidityNet, liquidityGross); reverts for a non-CL address or a pool not created yet."""
        p = self.sim.pool_by_id.get(pool.lower())
        if p is None or not p.is_cl:
            raise Revert("TickLens: not a CL pool")
        if p.state_at(ctx.ts) is None:
            raise Revert("TickLens: pool not created")
        ticks = p.ticks_at(ctx.ts)
        i = bisect_left(ticks, (start_tick,))
        return ticks[i:i + max_count]


class Factory(Contract):
    def __init__(self, sim, address, cl: bool):
        super().__init__(sim, address, sim.genesis_ts)
        self.cl = cl

    def _pools(self, ctx):
        return [p for p in self.sim.pools if p.is_cl == self.cl and p.created_ts <= ctx.ts]

    @method("allPoolsLength()", "uint256")
    def all_pools_length(self, ctx):
        return len(self._pools(ctx))

    @method("allPools(uint256)", "address")
    def all_pools(self, ctx, i):
        pools = self._pools(ctx)
        if i >= len(pools):
            raise Revert()
        return pools[i].address

    @method("isPool(address)", "bool")
    def is_pool(self, ctx, pool):
        return any(p.id == pool.lower() for p in self._pools(ctx))

    def _find(self, ctx, a, b, pred):
        a, b = a.lower(), b.lower()
        for p in self._pools(ctx):
            if {p.token0.id, p.token1.id} == {a, b} and pred(p):
                return p.address
        return ZERO_ADDRESS

    @method("getPool(address,address,bool)", "address")
    def get_pool_v2(self, ctx, a, b, stable):
        if self.cl:
            raise Revert()
        return self._find(ctx, a, b, lambda p: (p.kind == "v2-stable") == stable)

    @method("getPool(address,address,int24)", "address")
    def get_pool_cl(self, ctx, a, b, spacing):
        if not self.cl:
            raise Revert()
        return self._find(ctx, a, b, lambda p: p.tick_spacing == spacing)


class Plain(Contract):
    """A deployed contract without modelled reads (router, reward contracts)."""


class Multicall3(Contract):
    def _sub(self, ctx, target, data):
        # msg.sender of a sub-call is Multicall3 itself
        sub = CallCtx(ctx.sim, ctx.node, ctx.block, self.address)
        return ctx.node.internal_call(sub, target, data)

    @method("aggregate3((address,bool,bytes)[])", "(bool,bytes)[]")
    def aggregate3(self, ctx, calls):
        out = []
        for target, allow_failure, data in calls:
            try:
                out.append((True, self._sub(ctx, target, data)))
            except Revert as exc:
                if not allow_failure:
                    raise Revert("Multicall3: call failed") from None
                out.append((False, exc.data))
        return out

    @method("aggregate((address,bytes)[])", "uint256", "bytes[]")
    def aggregate(self, ctx, calls):
        results = []
        for target, data in calls:
            try:
                results.append(self._sub(ctx, target, data))
            except Revert:
                raise Revert("Multicall3: call failed") from None
        return ctx.block, results

    @method("tryAggregate(bool,(address,bytes)[])", "(bool,bytes)[]")
    def try_aggregate(self, ctx, require_success, calls):
        out = []
        for target, data in calls:
            try:
                out.append((True, self._sub(ctx, target, data)))
            except Revert as exc:
                if require_success:
                    raise Revert("Multicall3: call failed") from None
                out.append((False, exc.data))
        return out

    @method("tryBlockAndAggregate(bool,(address,bytes)[])", "uint256", "bytes32", "(bool,bytes)[]")
    def try_block_and_aggregate(self, ctx, require_success, calls):
        return ctx.block, bytes.fromhex(ctx.sim.block_hash(ctx.block)[2:]), self.try_aggregate(ctx, require_success, calls)

    @method("blockAndAggregate((address,bytes)[])", "uint256", "bytes32", "(bool,bytes)[]")
    def block_and_aggregate(self, ctx, calls):
        return ctx.block, bytes.fromhex(ctx.sim.block_hash(ctx.block)[2:]), self.try_aggregate(ctx, True, calls)

    @method("getBlockNumber()", "uint256")
    def get_block_number(self, ctx):
        return ctx.block

    @method("getCurrentBlockTimestamp()", "uint256")
    def get_current_block_timestamp(self, ctx):
        return ctx.ts

    @method("getBlockHash(uint256)", "bytes32")
    def get_block_hash(self, ctx, number):
        if number >= ctx.block or number < ctx.block - 256:
            return b"\x00" * 32
        return bytes.fromhex(ctx.sim.block_hash(number)[2:])

    @method("getLastBlockHash()", "bytes32")
    def get_last_block_hash(self, ctx):
        return bytes.fromhex(ctx.sim.block_hash(ctx.block - 1)[2:])

    @method("getEthBalance(address)", "uint256")
    def get_eth_balance(self, ctx, address):
        return ctx.node.native_balance(address, ctx.ts)

    @method("getChainId()", "uint256")
    def get_chain_id(self, ctx):
        return ctx.sim.chain_id

    @method("getBasefee()", "uint256")
    def get_basefee(self, ctx):
        return 0

    @method("getCurrentBlockGasLimit()", "uint256")
    def get_gas_limit(self, ctx):
        return 140_000_000

    @method("getCurrentBlockCoinbase()", "address")
    def get_coinbase(self, ctx):
        return ctx.node.miner


def build_registry(sim) -> dict[str, Contract]:
    """address (lower-case) -> contract implementation."""
    c = sim.contracts
    g0 = sim.genesis_ts
    reg: dict[str, Contract] = {}

    def add(contract: Contract) -> None:
        reg[contract.address.lower()] = contract

    add(Voter(sim, c["voter"], g0))
    add(Minter(sim, c["minter"], g0))
    add(VotingEscrow(sim, c["votingEscrow"], g0))
    add(Factory(sim, c["v2Factory"], False))
    if "clFactory" in c:  # chains without CL pools have neither a CL factory nor a fee module
        add(Factory(sim, c["clFactory"], True))
    if "dynamicFeeModule" in c:
        add(DynamicFeeModule(sim, c["dynamicFeeModule"], g0))
    if "tickLens" in c:
        add(TickLens(sim, c["tickLens"], g0))
    add(Multicall3(sim, to_checksum_address(c["multicall3"]), 0))
    if "router" in c:
        add(Plain(sim, c["router"], g0))
    if "rewardsDistributor" in c:
        add(RewardsDistributor(sim, c["rewardsDistributor"], g0))
    for token in sim.all_tokens:  # the token without a price too
        add(ERC20(sim, token))
    for pool in sim.pools:
        if pool.is_cl:
            add(CLPoolContract(sim, pool, c["clFactory"]))
        else:
            add(V2PoolContract(sim, pool, c["v2Factory"]))
    from devnet.rpc.vaults import vault_contracts  # imported late: it builds on this module
    for contract in vault_contracts(sim):
        add(contract)
    add(LpSugar(sim, lp_sugar_address(sim.chain_id), g0))
    return reg


def add_gauges(sim, reg: dict[str, Contract]) -> None:
    """Gauges (and their reward contracts) appear as the simulation creates them."""
    for g in sim.gov.gauges:
        if g.id not in reg:
            reg[g.id] = GaugeContract(sim, g)
            reg[g.fees_reward.lower()] = Plain(sim, g.fees_reward, g.created_ts)
            reg[g.bribe_reward.lower()] = Plain(sim, g.bribe_reward, g.created_ts)


__all__ = ["CallCtx", "build_registry", "add_gauges", "token_balance"]
