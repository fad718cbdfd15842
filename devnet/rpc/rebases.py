"""Velodrome v2's RewardsDistributor (devnet/sim/rebases.py) at the book's `rewardsDistributor`,
read as of the call's block like every contract here: a week's figures exist once its checkpoint
(at the flip ending it) is at or before the block; `claimable` sums the veNFT's rebases of the
checkpointed weeks from its cursor (0 for a burnt veNFT); `timeCursorOf` is the first unclaimed
week (0 for a veNFT not minted yet)."""
from __future__ import annotations

from devnet.rpc.abi import Contract, method


class RewardsDistributor(Contract):
    def _book(self):
        return self.sim.gov.rebases

    @method("claimable(uint256)", "uint256")
    def claimable(self, ctx, token_id):
        return self._book().claimable(token_id, ctx.ts)

    @method("tokensPerWeek(uint256)", "uint256")
    def tokens_per_week(self, ctx, week):
        book = self._book()
        return book.tokens_per_week[week] if book.week_known(week, ctx.ts) else 0

    @method("veSupply(uint256)", "uint256")
    def ve_supply(self, ctx, week):
        book = self._book()
        return book.ve_supply[week] if book.week_known(week, ctx.ts) else 0

    @method("timeCursorOf(uint256)", "uint256")
    def time_cursor_of(self, ctx, token_id):
        return self._book().cursor_at(token_id, ctx.ts)

    @method("lastTokenTime()", "uint256")
    def last_token_time(self, ctx):
        return self._book().last_token_time(ctx.ts)

    @method("startTime()", "uint256")
    def start_time(self, ctx):
        return self.sim.gov.first_epoch

    @method("token()", "address")
    def token(self, ctx):
        return self.sim.core.address

    @method("ve()", "address")
    def ve(self, ctx):
        return self.sim.contracts["votingEscrow"]

    @method("minter()", "address")
    def minter(self, ctx):
        return self.sim.contracts["minter"]


__all__ = ["RewardsDistributor"]
