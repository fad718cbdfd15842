"""The liquidity providers' positions as a wallet reads them (devnet/sim/liquidity.py): an
`LpSugar` contract after Velodrome's Sugar, whose `positions(limit, offset, account)` answers,
as of the call's block, the account's open positions in creation order (`offset` and `limit`
over them), each as Sugar's Position struct:

    (id, lp, liquidity, staked, amount0, amount1, staked0, staked1, unstaked_earned0,
     unstaked_earned1, emissions_earned, tick_lower, tick_upper, sqrt_ratio_lower,
     sqrt_ratio_upper, alm)

id: the NFT id (CL) or 0 (v2); lp: the pool; liquidity: CL liquidity or the wallet's LP (v2);
staked: 1/0 (CL) or the gauge's LP (v2); amount0/1: the unstaked tokens, staked0/1 the staked
ones (a staked CL position's amounts are all staked); unstaked_earned: trading fees not yet
collected; emissions_earned: core token not yet claimed; ticks and sqrt ratios 0 for v2; alm the
zero address (no position here is an auto-managed vault's)."""
from __future__ import annotations

from devnet.addresses import ZERO_ADDRESS
from devnet.amm.cl import get_sqrt_ratio_at_tick
from devnet.rpc.abi import Contract, method

POSITION = "(uint256,address,uint256,uint256,uint256,uint256,uint256,uint256,uint256,uint256,uint256,int24,int24,uint160,uint160,address)[]"


def position_struct(v: dict, pool_address: str) -> tuple:
    if v["kind"] == "cl":
        staked = v["staked"]
        amounts = (0, 0, v["amount0"], v["amount1"]) if staked else (v["amount0"], v["amount1"], 0, 0)
        return (v["tokenId"], pool_address, v["liquidity"], int(staked), *amounts, v["fees0"], v["fees1"],
                v["emissions"], v["tickLower"], v["tickUpper"], get_sqrt_ratio_at_tick(v["tickLower"]),
                get_sqrt_ratio_at_tick(v["tickUpper"]), ZERO_ADDRESS)
    return (0, pool_address, v["wallet"], v["stakedLp"], v["amount0"], v["amount1"], v["staked0"], v["staked1"],
            v["fees0"], v["fees1"], v["emissions"], 0, 0, 0, 0, ZERO_ADDRESS)


class LpSugar(Contract):
    @method("positions(uint256,uint256,address)", POSITION)
    def positions(self, ctx, limit, offset, account):
        views = self.sim.liquidity.positions_of(account, ctx.ts)[offset:offset + limit]
        return [position_struct(v, self.sim.pool_by_id[v["pool"]].address) for v in views]
