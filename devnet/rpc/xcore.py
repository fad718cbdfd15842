"""xCORE contracts (devnet/sim/xcore.py), read as of the call's block like every contract here:
on 56 the escrow-share token (ERC20 + the ERC-4626 views) and its OFT adapter, elsewhere the
bridged representation (an ERC20 whose supply is what the adapter released to it)."""
from __future__ import annotations

from devnet.rpc.abi import Contract, Revert, method
from devnet.sim.xcore import CANONICAL, PENALTY_BPS, adapter_address


class _XcoreToken(Contract):
    def __init__(self, sim, view):
        super().__init__(sim, view.ledger.token, view.created_ts)
        self.view = view
        self.ledger = view.ledger

    @method("name()", "string")
    def name(self, ctx):
        return "Escrowed CORE"

    @method("symbol()", "string")
    def symbol(self, ctx):
        return "xCORE"

    @method("decimals()", "uint8")
    def decimals(self, ctx):
        return 18

    @method("totalSupply()", "uint256")
    def total_supply(self, ctx):
        return self.ledger.supply_at(ctx.ts)

    @method("balanceOf(address)", "uint256")
    def balance_of(self, ctx, owner):
        return self.ledger.balance_at(owner, ctx.ts)

    @method("allowance(address,address)", "uint256")
    def allowance(self, ctx, owner, spender):
        return 0


class XcoreCanonical(_XcoreToken):
    """Chain 56's token: backing (CORE) over supply (xCORE); exits pay shares x ratio less the penalty."""

    def _state(self, ctx) -> tuple[int, int]:
        ev = self.ledger.last_event(ctx.ts)
        return (ev["supply"], ev["backing"]) if ev else (0, 0)

    @method("asset()", "address")
    def asset(self, ctx):
        return self.sim.core.address

    @method("totalAssets()", "uint256")
    def total_assets(self, ctx):
        return self._state(ctx)[1]

    @method("convertToAssets(uint256)", "uint256")
    def convert_to_assets(self, ctx, shares):
        """shares x backing // supply (1:1 while empty); convertToAssets(1e18) is the raw ratio."""
        supply, backing = self._state(ctx)
        return shares * backing // supply if supply else shares

    @method("convertToShares(uint256)", "uint256")
    def convert_to_shares(self, ctx, assets):
        supply, backing = self._state(ctx)
        return assets * supply // backing if backing else assets

    @method("previewExit(uint256)", "uint256")
    def preview_exit(self, ctx, shares):
        """CORE an exit of `shares` pays now: gross less the penalty (both rounded down)."""
        supply, backing = self._state(ctx)
        if shares > supply:
            raise Revert("XCORE: shares exceed supply")
        gross = shares * backing // supply if supply else 0
        return gross - gross * PENALTY_BPS // 10_000

    @method("exitPenaltyBps()", "uint256")
    def exit_penalty_bps(self, ctx):
        return PENALTY_BPS

    @method("adapter()", "address")
    def adapter(self, ctx):
        return adapter_address()


class XcoreAdapter(Contract):
    """The OFT adapter on 56: it holds the shares bridged out until they come back."""

    def __init__(self, sim, view):
        super().__init__(sim, adapter_address(), view.created_ts)
        self.view = view

    @method("token()", "address")
    def token(self, ctx):
        return self.view.ledger.token

    @method("lockedAmount()", "uint256")
    def locked_amount(self, ctx):
        """The shares locked here (the token's balanceOf(adapter))."""
        return self.view.ledger.balance_at(self.address, ctx.ts)


def xcore_contracts(sim) -> list[Contract]:
    """The chain's xCORE contracts (none when the chain has no xCORE view)."""
    view = sim.xcore
    if view is None:
        return []
    if view.chain_id == CANONICAL:
        return [XcoreCanonical(sim, view), XcoreAdapter(sim, view)]
    return [_XcoreToken(sim, view)]


__all__ = ["XcoreAdapter", "XcoreCanonical", "xcore_contracts"]
