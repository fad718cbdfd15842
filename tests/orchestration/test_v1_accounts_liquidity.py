"""Liquidity positions over the session's backfilled chains, against the devnet's providers
(devnet/sim/liquidity.py): the rows stored at each chain's newest snapshot are every open position
of every provider there, with the amounts, fees and emissions of the devnet's truth at the block."""
from __future__ import annotations

from devnet.sim import liquidity_truth
from orchestration_session import CHAINS


def test_stored_positions_are_the_devnets_at_the_newest_snapshot(stack):
    newest = stack.query("SELECT chain_id, max(snapshot_at), argMax(block_number, snapshot_at), "
                         "argMax(positions, snapshot_at) FROM liquidity_position_reads FINAL GROUP BY chain_id")
    assert {r[0] for r in newest} == set(CHAINS)
    for cid, at, block, count in newest:
        sim = stack.devnet.sim(cid)
        stored = stack.query(
            "SELECT account, position_id, toString(liquidity_raw), toString(staked_raw), toString(amount0_raw), "
            "toString(amount1_raw), toString(staked0_raw), toString(staked1_raw), toString(fees0_raw), "
            "toString(fees1_raw), toString(emissions_raw), tick_lower, tick_upper FROM liquidity_position_snap15m FINAL "
            "WHERE chain_id = {c:UInt32} AND snapshot_at = {t:DateTime64(3, 'UTC')}", c=cid, t=at)
        assert len(stored) == count > 0
        want = {}
        for owner in sim.liquidity.providers:
            for p in liquidity_truth.account_liquidity(sim, owner, block)["positions"]:
                key = (owner, f"cl:{p['tokenId']}" if p["kind"] == "cl" else f"v2:{p['pool'].lower()}")
                if p["kind"] == "cl":
                    a = (p["amount0"], p["amount1"], "0", "0") if not p["staked"] else ("0", "0", p["amount0"], p["amount1"])
                    want[key] = (p["liquidity"], str(int(p["staked"])), *a, p["fees0"], p["fees1"], p["emissions"],
                                 p["tickLower"], p["tickUpper"])
                else:
                    want[key] = (p["lp"], p["stakedLp"], p["amount0"], p["amount1"], p["staked0"], p["staked1"],
                                 p["fees0"], p["fees1"], p["emissions"], None, None)
        assert {(r[0], r[1]): tuple(r[2:]) for r in stored} == want, cid
