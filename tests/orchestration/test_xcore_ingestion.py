"""xCORE ingestion over the session's chains (56 holds the token, 4663 a bridged representation; 1
and 5042 have none): every published snapshot's xcore_snap15m row equals the devnet's truth at its
block; xcore_events per epoch and kind are the truth's events, with the ratio, supply and backing
after them; the `xcore` coverage reaches each chain's latest snapshot block, and a snapshot run
extends it to its own block without a history run."""
from __future__ import annotations

from collections import defaultdict

from ve_analytics.orchestration.backfill import run_snapshot

CANONICAL, REPRESENTATION = 56, 4663
QUARTER_HOUR = 900


def coverage(stack, cid: int) -> tuple[int, int] | None:
    rows = stack.query("SELECT toInt64(toUnixTimestamp(min(first_at))), toInt64(toUnixTimestamp(max(last_at))) "
                       "FROM chain_coverage WHERE chain_id = {c:UInt32} AND dataset = 'xcore' HAVING count() > 0",
                       c=cid)
    return tuple(rows[0]) if rows else None


def snapshot_block_time(stack, cid: int, at: int) -> int:
    return stack.scalar("SELECT toInt64(toUnixTimestamp(block_timestamp)) FROM xcore_snap15m FINAL "
                        "WHERE chain_id = {c:UInt32} AND toInt64(toUnixTimestamp(snapshot_at)) = {t:Int64}",
                        c=cid, t=at)


def test_snapshot_rows_equal_the_truth_at_their_blocks(stack):
    rows = stack.query(
        "SELECT chain_id, toInt64(toUnixTimestamp(s.snapshot_at)), toInt64(toUnixTimestamp(block_timestamp)), role, "
        "token_address, token_symbol, token_decimals, asset_address, adapter_address, toString(supply_raw), "
        "toString(backing_raw), toString(ratio_raw), toString(adapter_locked_raw), exit_penalty_bps "
        "FROM xcore_snap15m AS s FINAL "
        "WHERE (chain_id, snapshot_at) IN (SELECT chain_id, snapshot_at FROM snapshot_runs FINAL "
        "                                  WHERE status = 'success') ORDER BY chain_id, s.snapshot_at")
    by_chain: dict[int, list] = defaultdict(list)
    for r in rows:
        by_chain[r[0]].append(r)
    assert set(by_chain) == {CANONICAL, REPRESENTATION}  # only the chains whose book names the token
    published = {t for t, in stack.query("SELECT toInt64(toUnixTimestamp(snapshot_at)) FROM snapshot_runs FINAL "
                                         "WHERE chain_id = 56 AND status = 'success'")}
    assert {r[1] for r in by_chain[CANONICAL]} == published and len(published) >= 8
    core = stack.deployment(CANONICAL)["contracts"]["coreToken"].lower()
    for r in by_chain[CANONICAL]:
        _, _, ts, role, token, symbol, decimals, asset, adapter, supply, backing, ratio, locked, penalty = r
        truth = stack.truth("xcore", at=ts)
        assert (role, token, decimals, asset, adapter) == ("canonical", truth["token"], 18, core, truth["adapter"])
        assert symbol and (supply, backing, ratio, locked) == (
            truth["canonicalSupply"], truth["backing"], truth["ratio"], truth["adapterLocked"])
        assert penalty == truth["exitPenaltyBps"]
    assert int(by_chain[CANONICAL][-1][11]) > 10 ** 18  # rebases raised the rate
    for r in by_chain[REPRESENTATION]:
        _, _, ts, role, token, symbol, decimals, asset, adapter, supply, backing, ratio, locked, penalty = r
        mine = stack.truth("xcore", at=f"{CANONICAL}:{ts},{REPRESENTATION}:{ts}")["chains"][str(REPRESENTATION)]
        assert (role, token, decimals, asset, adapter, supply) == ("representation", mine["token"], 18, "", "",
                                                                   mine["supply"])
        assert (backing, ratio, locked, penalty) == (None, None, None, None)


def test_events_per_epoch_and_kind_are_the_truths(stack):
    first, through = coverage(stack, CANONICAL)
    epochs = stack.truth("xcore/epochs", through=through)["epochs"]
    assert first <= epochs[0]["epoch"] + 7 * 86400  # covered from before the token's first event
    rows = stack.query(
        "SELECT toInt64(toUnixTimestamp(epoch_start)) AS e, kind, count(), toString(sum(ifNull(amount_raw, 0))), "
        "toString(sum(shares_raw)) FROM xcore_events FINAL "
        "WHERE chain_id = 56 AND toInt64(toUnixTimestamp(block_timestamp)) <= {t:Int64} GROUP BY e, kind", t=through)
    got = {(e, kind): (n, int(amount), int(shares)) for e, kind, n, amount, shares in rows}
    ends = {e: (str(r), str(s), str(b)) for e, r, s, b in stack.query(
        "SELECT toInt64(toUnixTimestamp(epoch_start)) AS e, argMax(new_ratio_raw, (block_number, log_index)), "
        "argMax(supply_raw, (block_number, log_index)), argMax(backing_raw, (block_number, log_index)) "
        "FROM xcore_events FINAL WHERE chain_id = 56 AND toInt64(toUnixTimestamp(block_timestamp)) <= {t:Int64} "
        "GROUP BY e", t=through)}
    # the warehouse holds events in exactly the truth's epochs, the newest the one holding `through`
    # (one epoch only when the history is younger than its last Thursday)
    assert sorted({e for e, _ in got}) == [epoch["epoch"] for epoch in epochs if any(epoch["counts"].values())]
    assert epochs[-1]["epoch"] == through - through % (7 * 86400)  # Unix time 0 was a Thursday
    for epoch in epochs:
        e, counts, amounts = epoch["epoch"], epoch["counts"], epoch["amounts"]
        for kind, n in counts.items():
            assert got.get((e, kind), (0, 0, 0))[0] == n, (e, kind)
        assert got.get((e, "deposit"), (0, 0, 0))[1] == int(amounts["deposited"])
        assert got.get((e, "exit"), (0, 0, 0))[1:] == (int(amounts["exitPaid"]), int(amounts["exitedShares"]))
        if sum(counts.values()):
            assert ends[e] == (epoch["rateAtEnd"], epoch["supplyAtEnd"], epoch["backingAtEnd"])
    assert sum(n for n, _, _ in got.values()) == sum(sum(e["counts"].values()) for e in epochs)


def test_a_representations_events_rebuild_its_supply(stack):
    _, through = coverage(stack, REPRESENTATION)
    truth = stack.truth("xcore/accounts", chain_id=REPRESENTATION, at=through)
    minted, burnt, last, kinds = stack.query(
        "SELECT toString(sumIf(shares_raw, kind = 'bridgeIn')), toString(sumIf(shares_raw, kind = 'bridgeOut')), "
        "toString(argMax(supply_raw, (block_number, log_index))), groupUniqArray(kind) FROM xcore_events FINAL "
        "WHERE chain_id = 4663 AND toInt64(toUnixTimestamp(block_timestamp)) <= {t:Int64}", t=through)[0]
    assert sorted(kinds) == ["bridgeIn", "bridgeOut"]
    assert int(minted) - int(burnt) == int(last) == int(truth["supply"]) > 0


def test_coverage_reaches_each_chains_latest_snapshot_block(stack):
    for cid in (CANONICAL, REPRESENTATION):
        block_ts = snapshot_block_time(stack, cid, stack.latest_success(cid))
        assert coverage(stack, cid)[1] >= block_ts
    for cid in (1, 5042):  # no token: nothing read, nothing recorded
        assert coverage(stack, cid) is None
        assert stack.scalar("SELECT count() FROM xcore_events WHERE chain_id = {c:UInt32}", c=cid) == 0


def test_a_snapshot_run_extends_the_events_to_its_block(stack):
    before = coverage(stack, CANONICAL)[1]
    # the next boundary after both the latest snapshot and (by more than a block) the recorded events
    target = (max(stack.latest_success(CANONICAL), before + 60) // QUARTER_HOUR + 1) * QUARTER_HOUR
    if stack.devnet_now() < target + 60:
        stack.advance_clock(target + 60 - stack.devnet_now())
    run_snapshot(stack.settings, target, chain_id=CANONICAL)
    block_ts = snapshot_block_time(stack, CANONICAL, target)
    assert before < block_ts <= coverage(stack, CANONICAL)[1]  # no history run in between
    epochs = stack.truth("xcore/epochs", through=block_ts)["epochs"]
    indexed = stack.scalar("SELECT count() FROM xcore_events FINAL WHERE chain_id = 56 "
                           "AND toInt64(toUnixTimestamp(block_timestamp)) <= {t:Int64}", t=block_ts)
    assert indexed == sum(sum(e["counts"].values()) for e in epochs)
    supply = stack.scalar("SELECT toString(argMax(supply_raw, (block_number, log_index))) FROM xcore_events FINAL "
                          "WHERE chain_id = 56 AND toInt64(toUnixTimestamp(block_timestamp)) <= {t:Int64}", t=block_ts)
    assert supply == stack.truth("xcore", at=block_ts)["supply"]
