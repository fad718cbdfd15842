"""Vault-protocol contracts: vaults (ERC20 shares), their strategies, the vault factory, the
zapper and the CL position manager. Reads are as of the call's block, like every contract here.

State-changing methods (`deposit`, `withdraw`, `zapIn*`) answer static calls: they return what
the transaction would return at that block, or revert with the reason it would revert with.
Token balances and allowances of the caller are not modelled (only share balances are).
"""
from __future__ import annotations

from devnet.addresses import ZERO_ADDRESS
from devnet.rpc.abi import Contract, Revert, method
from devnet.sim.vaults import preview_deposit

# eth_estimateGas answers for these calls (deterministic, in the range of the real contracts)
GAS = {"deposit": 420_000, "withdraw": 360_000, "zapIn": 1_350_000, "zapInDual": 1_450_000,
       "zapInNative": 1_400_000}
GAS_CL_EXTRA = 250_000
FAULT_REASON = "devnet fault injection"


def _vault_or_revert(sim, address: str, ts: int):
    v = sim.vaults.vault(address)
    if v is None or not v.exists_at(ts):
        raise Revert("VAULT: unknown vault")
    return v


def deposit_gate(v, ts: int) -> None:
    """The deposit gating every vault and the zapper apply, in this order."""
    if v.book.global_paused(ts):
        raise Revert("VAULT: global pause")
    if v.strategy_paused(ts):
        raise Revert("VAULT: strategy paused")
    if not v.is_calm(ts):
        raise Revert("VAULT: not calm")


def quote_zap(v, ts: int, a0: int, a1: int) -> tuple[int, int, int, bool]:
    """Best deposit of (a0, a1) after swapping part of the surplus side through the pool's own
    math at ts (CL: the swap loop over the tick table; v2: getAmountOut). The swapped amount is
    the integer x maximising previewDeposit(a0 - x, a1 + out(x)) (binary search on the ratio).
    Returns (shares, swapIn, swapOut, zeroForOne)."""
    vs = v.state_at(ts)
    t0, t1 = v.totals(vs, ts)
    supply = vs.supply
    zero_for_one = a0 * t1 > a1 * t0
    have_in, have_out = (a0, a1) if zero_for_one else (a1, a0)
    t_in, t_out = (t0, t1) if zero_for_one else (t1, t0)
    amm = v.pool.amm_at(ts)

    def out(x: int) -> int:
        if x <= 0:
            return 0
        if v.kind == "v2":
            return amm.quote(x, zero_for_one)[0]
        saved = (amm.sqrt_price, amm.tick, amm.liquidity)
        try:
            return amm.swap(zero_for_one, x)[1]
        finally:
            amm.sqrt_price, amm.tick, amm.liquidity = saved

    def shares(x: int) -> int:
        o = out(x)
        d0, d1 = (have_in - x, have_out + o) if zero_for_one else (have_out + o, have_in - x)
        return preview_deposit(t0, t1, supply, d0, d1)[0]

    if have_in == 0 or a0 * t1 == a1 * t0:
        x = 0
    elif t_in == 0:
        x = have_in  # the vault holds none of the input token: swap it all
    else:
        lo, hi = 0, have_in  # invariant: the input side is still in surplus at lo
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if (have_in - mid) * t_out >= (have_out + out(mid)) * t_in:
                lo = mid
            else:
                hi = mid
        x = lo if shares(lo) >= shares(hi) else hi
    return shares(x), x, out(x), zero_for_one


class VaultContract(Contract):
    def __init__(self, sim, vault):
        super().__init__(sim, vault.address, vault.created_ts)
        self.v = vault

    def _state(self, ctx):
        return self.v.state_at(ctx.ts)

    def _totals(self, ctx):
        vs = self._state(ctx)
        return (*self.v.totals(vs, ctx.ts), vs.supply)

    @method("name()", "string")
    def name(self, ctx):
        return f"Vault {self.v.pool.spec.label}"

    @method("symbol()", "string")
    def symbol(self, ctx):
        return f"v-{self.v.key}"

    @method("decimals()", "uint8")
    def decimals(self, ctx):
        return 18

    @method("totalSupply()", "uint256")
    def total_supply(self, ctx):
        return self._state(ctx).supply

    @method("balanceOf(address)", "uint256")
    def balance_of(self, ctx, owner):
        return self.v.balance_of(owner, ctx.ts)

    @method("token0()", "address")
    def token0(self, ctx):
        return self.v.token0.address

    @method("token1()", "address")
    def token1(self, ctx):
        return self.v.token1.address

    @method("pool()", "address")
    def pool(self, ctx):
        return self.v.pool.address

    @method("gauge()", "address")
    def gauge(self, ctx):
        g = self.v.gauge()
        return g.address if g is not None and g.exists_at(ctx.ts) else ZERO_ADDRESS

    @method("strategy()", "address")
    def strategy(self, ctx):
        return self.v.strategy

    @method("factory()", "address")
    def factory(self, ctx):
        return self.sim.vaults.contracts.get("vaultFactory", ZERO_ADDRESS)

    @method("getTotalAmounts()", "uint256", "uint256")
    def get_total_amounts(self, ctx):
        t0, t1, _ = self._totals(ctx)
        return t0, t1

    @method("idleBalances()", "uint256", "uint256")
    def idle_balances(self, ctx):
        """Tokens held outside the position (deposits and rewards waiting for the next compound)."""
        vs = self._state(ctx)
        return vs.idle0, vs.idle1

    @method("isCalm()", "bool")
    def is_calm(self, ctx):
        return self.v.is_calm(ctx.ts)

    @method("paused()", "bool")
    def paused(self, ctx):
        return self.v.paused(ctx.ts)

    @method("slippageBps()", "uint256")
    def slippage_bps(self, ctx):
        return self.v.spec.slippage_bps

    @method("lastHarvest()", "uint256")
    def last_harvest(self, ctx):
        return self._state(ctx).last_harvest

    @method("previewDeposit(uint256,uint256)", "uint256")
    def preview_deposit(self, ctx, a0, a1):
        t0, t1, supply = self._totals(ctx)
        return preview_deposit(t0, t1, supply, a0, a1)[0]

    @method("deposit(uint256,uint256,uint256)", "uint256")
    def deposit(self, ctx, a0, a1, min_shares):
        deposit_gate(self.v, ctx.ts)
        t0, t1, supply = self._totals(ctx)
        shares = preview_deposit(t0, t1, supply, a0, a1)[0]
        if shares == 0:
            raise Revert("VAULT: zero shares")
        if shares < min_shares:
            raise Revert("VAULT: slippage")
        return shares

    @method("previewWithdraw(uint256)", "uint256", "uint256")
    def preview_withdraw(self, ctx, shares):
        vs = self._state(ctx)
        if shares > vs.supply:
            raise Revert("VAULT: shares exceed supply")
        a0, a1, _ = self.v.withdraw_amounts(vs, self.v.pool.state_at(ctx.ts), shares)
        return a0, a1

    @method("withdraw(uint256,uint256,uint256)", "uint256", "uint256")
    def withdraw(self, ctx, shares, min0, min1):
        """Never gated by calm or pause; needs the caller's share balance."""
        if shares == 0:
            raise Revert("VAULT: zero shares")
        if shares > self.v.balance_of(ctx.sender, ctx.ts):
            raise Revert("VAULT: insufficient shares")
        a0, a1 = self.preview_withdraw(ctx, shares)
        if a0 < min0 or a1 < min1:
            raise Revert("VAULT: slippage")
        return a0, a1

    # CL position reads (revert on v2 vaults, which have none)
    def _cl(self, ctx):
        if self.v.kind != "cl":
            raise Revert()
        return self._state(ctx)

    @method("tickLower()", "int24")
    def tick_lower(self, ctx):
        return self._cl(ctx).lower

    @method("tickUpper()", "int24")
    def tick_upper(self, ctx):
        return self._cl(ctx).upper

    @method("getPosition()", "uint128", "int24", "int24")
    def get_position(self, ctx):
        vs = self._cl(ctx)
        return vs.liq, vs.lower, vs.upper

    @method("positionTokenId()", "uint256")
    def position_token_id(self, ctx):
        return self._cl(ctx).nft_id

    @method("lastRebalance()", "uint256")
    def last_rebalance(self, ctx):
        return self._cl(ctx).last_rebalance


class StrategyContract(Contract):
    def __init__(self, sim, vault):
        super().__init__(sim, vault.strategy, vault.created_ts)
        self.v = vault

    @method("vault()", "address")
    def vault(self, ctx):
        return self.v.address

    @method("pool()", "address")
    def pool(self, ctx):
        return self.v.pool.address

    @method("paused()", "bool")
    def paused(self, ctx):
        return self.v.strategy_paused(ctx.ts)

    @method("slippageBps()", "uint256")
    def slippage_bps(self, ctx):
        return self.v.spec.slippage_bps

    @method("rewardFee()", "uint256")
    def reward_fee(self, ctx):
        """The strategy's cut of harvested gauge rewards, in bps."""
        return self.v.spec.reward_fee_bps

    @method("feeRecipient()", "address")
    def fee_recipient(self, ctx):
        return self.v.book.fee_recipient

    @method("maxTickDeviation()", "int24")
    def max_tick_deviation(self, ctx):
        return self.v.spec.calm_ticks

    @method("twapInterval()", "uint32")
    def twap_interval(self, ctx):
        return self.v.spec.calm_window

    @method("needsRebalance()", "bool")
    def needs_rebalance(self, ctx):
        return self.v.needs_rebalance(self.v.state_at(ctx.ts), ctx.ts)

    def _cl(self, ctx):
        if self.v.kind != "cl":
            raise Revert()
        return self.v.state_at(ctx.ts)

    @method("tickLower()", "int24")
    def tick_lower(self, ctx):
        return self._cl(ctx).lower

    @method("tickUpper()", "int24")
    def tick_upper(self, ctx):
        return self._cl(ctx).upper

    @method("lastRebalance()", "uint256")
    def last_rebalance(self, ctx):
        return self._cl(ctx).last_rebalance

    @method("rebalanceBandTicks()", "int24")
    def rebalance_band_ticks(self, ctx):
        self._cl(ctx)
        return self.v.band()


class VaultFactory(Contract):
    def _vaults(self, ctx):
        return self.sim.vaults.vaults_at(ctx.ts)

    @method("allVaults()", "address[]")
    def all_vaults(self, ctx):
        return [v.address for v in self._vaults(ctx)]

    @method("vaultsLength()", "uint256")
    def vaults_length(self, ctx):
        return len(self._vaults(ctx))

    @method("vaults(uint256)", "address")
    def vaults(self, ctx, i):
        vs = self._vaults(ctx)
        if i >= len(vs):
            raise Revert()
        return vs[i].address

    @method("isVault(address)", "bool")
    def is_vault(self, ctx, address):
        return any(v.id == address.lower() for v in self._vaults(ctx))

    @method("globalPause()", "bool")
    def global_pause(self, ctx):
        return self.sim.vaults.global_paused(ctx.ts)


class Zapper(Contract):
    def _zap(self, ctx, vault, a0, a1, min_shares):
        v = _vault_or_revert(self.sim, vault, ctx.ts)
        deposit_gate(v, ctx.ts)
        if a0 == 0 and a1 == 0:
            raise Revert("ZAP: zero amount")
        shares = quote_zap(v, ctx.ts, a0, a1)[0]
        if shares == 0:
            raise Revert("VAULT: zero shares")
        if shares < min_shares:
            raise Revert("ZAP: slippage")
        return shares

    def _single(self, ctx, vault, token, amount):
        v = _vault_or_revert(self.sim, vault, ctx.ts)
        t = token.lower()
        if t == v.token0.id:
            return amount, 0
        if t == v.token1.id:
            return 0, amount
        raise Revert("ZAP: token not in vault")

    @method("zapIn(address,address,uint256,uint256)", "uint256")
    def zap_in(self, ctx, vault, token_in, amount_in, min_shares):
        a0, a1 = self._single(ctx, vault, token_in, amount_in)
        return self._zap(ctx, vault, a0, a1, min_shares)

    @method("zapInDual(address,uint256,uint256,uint256)", "uint256")
    def zap_in_dual(self, ctx, vault, amount0, amount1, min_shares):
        return self._zap(ctx, vault, amount0, amount1, min_shares)

    @method("zapInNative(address,uint256)", "uint256")
    def zap_in_native(self, ctx, vault, min_shares):
        """msg.value is wrapped to the wrapped native token, which must be one of the vault's."""
        a0, a1 = self._single(ctx, vault, self.sim.native.address, ctx.value)
        return self._zap(ctx, vault, a0, a1, min_shares)

    @method("quoteZapIn(address,address,uint256)", "uint256", "uint256", "uint256", "bool")
    def quote_zap_in(self, ctx, vault, token_in, amount_in):
        """Ungated quote: (shares, swapIn, swapOut, zeroForOne) of zapIn at this block."""
        a0, a1 = self._single(ctx, vault, token_in, amount_in)
        return quote_zap(_vault_or_revert(self.sim, vault, ctx.ts), ctx.ts, a0, a1)


class PositionManager(Contract):
    """The CL vaults' position NFTs: token id = vault index * 1e6 + n (n-th position, a new one
    at every rebalance); the strategy owns the live one, earlier ones are burnt."""

    def _find(self, ctx, token_id):
        for v in self.sim.vaults.vaults_at(ctx.ts):
            if v.kind == "cl":
                vs = v.state_at(ctx.ts)
                if vs.nft_id == token_id:
                    return v, vs
        raise Revert("Invalid token ID")

    @method("ownerOf(uint256)", "address")
    def owner_of(self, ctx, token_id):
        return self._find(ctx, token_id)[0].strategy

    @method("positions(uint256)", "uint96", "address", "address", "address", "int24", "int24", "int24",
            "uint128", "uint256", "uint256", "uint128", "uint128")
    def positions(self, ctx, token_id):
        v, vs = self._find(ctx, token_id)
        return (0, ZERO_ADDRESS, v.token0.address, v.token1.address, v.pool.tick_spacing, vs.lower, vs.upper,
                vs.liq, 0, 0, 0, 0)


def vault_contracts(sim) -> list[Contract]:
    """Every vault-protocol contract of the chain (the shared ones exist from genesis)."""
    book = sim.vaults
    out: list[Contract] = []
    c = book.contracts
    for key, cls in (("vaultFactory", VaultFactory), ("zapper", Zapper), ("positionManager", PositionManager)):
        if key in c:
            out.append(cls(sim, c[key], sim.genesis_ts))
    for v in book.vaults:
        out.append(VaultContract(sim, v))
        out.append(StrategyContract(sim, v))
    return out


def gas_estimate(sim, to: str, data: bytes) -> int | None:
    """eth_estimateGas for vault and zapper calls (None for other targets)."""
    book = sim.vaults
    target = to.lower()
    v = book.vault(target)
    if v is None and target != book.contracts.get("zapper", "").lower():
        return None
    for contract_cls, names in ((VaultContract, ("deposit", "withdraw")),
                                (Zapper, ("zapIn", "zapInDual", "zapInNative"))):
        for sel, m in contract_cls.methods.items():
            name = m.signature.split("(")[0]
            if name in names and bytes(data[:4]) == sel:
                if v is None:  # the zapper: the vault is the first argument
                    v = book.vault("0x" + bytes(data[16:36]).hex())
                return GAS[name] + (GAS_CL_EXTRA if v is not None and v.kind == "cl" else 0)
    return None


__all__ = ["vault_contracts", "quote_zap", "deposit_gate", "gas_estimate", "FAULT_REASON"]
