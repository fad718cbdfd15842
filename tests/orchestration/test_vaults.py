"""Vault snapshots and vault history materialized through Dagster, against the devnet's truth and
its subgraph. History comparisons cover the complete days before the backfill's day: those are
final whatever later runs of the session re-read (later tests move the devnet clock)."""
from __future__ import annotations

from collections import Counter
from decimal import Decimal

from orchestration_session import HISTORY_DAYS
from ve_analytics.core.epochs import DAY
from ve_analytics.readers.graphql import SubgraphClient

REL = 1e-9


def close(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= REL * max(abs(a), abs(b), 1e-12)


def covered(stack) -> tuple[int, int, int]:
    """(first day, end of the complete days, block at that end) of the backfilled history."""
    now = stack.history_now
    today = now - now % DAY
    return today - HISTORY_DAYS * DAY, today, stack.devnet.sim().block_at(today - 1)


def test_every_published_snapshot_has_each_vault_equal_to_truth(stack):
    published = [r[0] for r in stack.query(
        "SELECT DISTINCT toInt64(toUnixTimestamp(snapshot_at)) FROM snapshot_runs FINAL "
        "WHERE chain_id = 56 AND status = 'success' ORDER BY 1")]
    assert len(published) >= 8
    configured = {v.address.lower(): v for v in stack.settings.vaults(56)}
    for at in published:
        rows = stack.query(
            "SELECT vault_address, vault_key, kind, block_number, toString(total_supply_raw), toString(amount0_raw), "
            "toString(amount1_raw), tvl_usd, share_price_usd, is_calm, strategy_paused, global_pause, tick, "
            "tick_lower, tick_upper, needs_rebalance, slippage_bps, pool_address, strategy_address, token0_address, "
            "toInt64(toUnixTimestamp(last_rebalance)), reward_fee_bps, fee_recipient, toString(sqrt_price_x96) "
            "FROM vault_snap15m FINAL WHERE chain_id = 56 AND snapshot_at = toDateTime64({t:Int64}, 3, 'UTC')", t=at)
        by_vault = {r[0]: r for r in rows}
        assert len(rows) == len(by_vault) == len(configured)
        block = rows[0][3]
        assert {r[3] for r in rows} == {block}
        truth = stack.truth("vaults", block=block)
        assert {v["address"].lower() for v in truth["vaults"]} == set(by_vault)
        for v in truth["vaults"]:
            (_, key, kind, _, supply, a0, a1, tvl, share_price, calm, s_paused, g_paused, tick, lower, upper,
             needs, slippage, pool, strategy, token0, last_rebalance, fee_bps, recipient,
             sqrt_price) = by_vault[v["address"].lower()]
            assert (key, kind) == (v["key"], v["kind"]) == (configured[v["address"].lower()].key,
                                                            configured[v["address"].lower()].kind)
            assert (supply, a0, a1) == (v["totalSupply"], v["amount0"], v["amount1"])
            assert (calm, s_paused, g_paused) == (v["isCalm"], v["strategyPaused"], v["globalPause"])
            assert (tick, lower, upper) == (v["tick"], v["tickLower"], v["tickUpper"])
            assert needs == v["needsRebalance"] and slippage == v["slippageBps"]
            assert (pool, strategy, token0) == (v["pool"].lower(), v["strategy"].lower(), v["token0"].lower())
            assert last_rebalance == (v["lastRebalance"] or None)
            assert (fee_bps, recipient, sqrt_price) == (v["rewardFeeBps"], v["feeRecipient"].lower(), v["sqrtPriceX96"])
            assert close(tvl, v["tvlUsd"]) and close(share_price, v["sharePriceUsd"])


def test_vault_events_equal_the_truth_interactions_and_subgraph(stack):
    first, end, block = covered(stack)
    users = [u["user"] for u in stack.truth("vault-users", block=block)["users"]]
    assert len(users) > 5
    expected: Counter = Counter()
    shares: dict[tuple[str, str], int] = {}
    for user in users:
        for p in stack.truth("vault-positions", user=user, block=block)["positions"]:
            vault = p["vault"].lower()
            shares[(user, vault)] = int(p["shares"])
            for i in p["interactions"]:
                assert first <= i["timestamp"] < end  # the devnet's history starts on the first backfilled day
                expected[(vault, i["type"], user, i["transactionHash"].lower(), i["shares"], i["amount0"],
                          i["amount1"], i["blockNumber"])] += 1
    rows = stack.query(
        "SELECT vault_address, kind, user, transaction_hash, toString(shares_raw), toString(amount0_raw), "
        "toString(amount1_raw), block_number, amount_usd FROM vault_events FINAL WHERE chain_id = 56 "
        "AND kind IN ('deposit', 'withdrawal') AND block_timestamp < toDateTime64({e:Int64}, 3, 'UTC')", e=end)
    assert Counter(r[:8] for r in rows) == expected
    assert all(r[8] is not None and r[8] > 0 for r in rows)
    # per user and vault: deposited minus withdrawn shares = the truth balance (the history is whole)
    net = dict(((u, v), int(n)) for u, v, n in stack.query(
        "SELECT user, vault_address, toString(toInt256(ifNull(sumIf(shares_raw, kind = 'deposit'), 0)) "
        "- toInt256(ifNull(sumIf(shares_raw, kind = 'withdrawal'), 0))) "
        "FROM vault_events FINAL WHERE chain_id = 56 AND kind IN ('deposit', 'withdrawal') "
        "AND block_timestamp < toDateTime64({e:Int64}, 3, 'UTC') GROUP BY user, vault_address", e=end))
    assert net == shares
    # harvests and rebalances equal the subgraph's of the covered days
    with SubgraphClient(stack.devnet.subgraph_url()) as sg:
        where = {"timestamp_gte": first, "timestamp_lt": end}
        harvests = sg.paginate("vaultHarvests", "id vault { id } token { id decimals } amount amountUSD", where=where)
        rebalances = sg.paginate("vaultRebalances", "id vault { id } oldTickLower oldTickUpper newTickLower "
                                 "newTickUpper tick", where=where)
    assert harvests and rebalances
    got_h = {r[0]: r[1:] for r in stack.query(
        "SELECT id, vault_address, token_address, toString(amount_raw), amount_usd FROM vault_events FINAL "
        "WHERE chain_id = 56 AND kind = 'harvest' AND block_timestamp < toDateTime64({e:Int64}, 3, 'UTC')", e=end)}
    assert set(got_h) == {h["id"].lower() for h in harvests}
    for h in harvests:
        vault, token, amount, usd = got_h[h["id"].lower()]
        raw = Decimal(h["amount"]).scaleb(int(h["token"]["decimals"]))
        assert (vault, token, amount) == (h["vault"]["id"].lower(), h["token"]["id"].lower(), str(int(raw)))
        assert close(usd, float(h["amountUSD"]))
    got_r = {r[0]: r[1:] for r in stack.query(
        "SELECT id, vault_address, old_tick_lower, old_tick_upper, new_tick_lower, new_tick_upper, tick "
        "FROM vault_events FINAL WHERE chain_id = 56 AND kind = 'rebalance' "
        "AND block_timestamp < toDateTime64({e:Int64}, 3, 'UTC')", e=end)}
    assert got_r == {r["id"].lower(): (r["vault"]["id"].lower(), r["oldTickLower"], r["oldTickUpper"],
                                       r["newTickLower"], r["newTickUpper"], r["tick"]) for r in rebalances}


def test_reward_fees_and_range_resets_equal_the_devnets_events(stack):
    """Each harvest's reward fee and each range reset's amounts before and after, collected fees,
    price and swap, as raw integers, equal the devnet's own account of the vault's events."""
    first, end, block = covered(stack)
    cols = ("kind, vault_address, transaction_hash, log_index, toString(amount_raw), toString(fee_amount_raw), "
            "fee_amount_usd, toString(amount0_before_raw), toString(amount1_before_raw), toString(amount0_after_raw), "
            "toString(amount1_after_raw), toString(fees0_raw), toString(fees1_raw), toString(sqrt_price_x96), "
            "swap_zero_for_one, toString(swap_amount_in_raw), toString(swap_amount_out_raw)")
    got = {(r[1], r[2], r[3]): r for r in stack.query(
        f"SELECT {cols} FROM vault_events FINAL WHERE chain_id = 56 AND kind IN ('harvest', 'rebalance') "
        "AND block_timestamp < toDateTime64({e:Int64}, 3, 'UTC')", e=end)}
    seen, fees = Counter(), 0
    for vault in stack.settings.vaults(56):
        truth = stack.truth("vault-events", vault=vault.address, block=block)
        for e in truth["events"]:
            if e["type"] not in ("harvest", "rebalance") or not first <= e["timestamp"] < end:
                continue
            r = got[(vault.address.lower(), e["transactionHash"].lower(), e["logIndex"])]
            seen[e["type"]] += 1
            if e["type"] == "harvest":
                assert (r[0], r[4], r[5]) == ("harvest", e["amount"], e["feeAmount"])
                assert int(e["feeAmount"]) == int(e["amount"]) * truth["rewardFeeBps"] // 10000
                assert close(r[6], e["feeAmountUSD"])
                fees += int(e["feeAmount"]) > 0
            else:
                assert r[0] == "rebalance" and r[7:] == (
                    e["amount0Before"], e["amount1Before"], e["amount0After"], e["amount1After"], e["fees0"],
                    e["fees1"], e["sqrtPriceX96"], e["swapZeroForOne"], e["swapAmountIn"], e["swapAmountOut"])
    assert seen["harvest"] > 5 and seen["rebalance"] > 0 and fees > 0
    assert sum(seen.values()) == len(got)


def test_vault_hourly_and_daily_rows_equal_the_subgraph(stack):
    first, end, block = covered(stack)
    fields = "periodStartUnix vault { id token0 { decimals } token1 { decimals } } totalSupply amount0 amount1 tvlUSD " \
             "sharePriceUSD harvestedUSD apr"
    with SubgraphClient(stack.devnet.subgraph_url()) as sg:
        hours = sg.paginate("vaultHourDatas", fields, where={"periodStartUnix_gte": first, "periodStartUnix_lt": end},
                            block=block)
        days = sg.paginate("vaultDayDatas", fields, where={"periodStartUnix_gte": first, "periodStartUnix_lt": end},
                           block=block)
    assert len(hours) > 3 * 24 and len(days) >= 3 * len(stack.settings.vaults(56))
    flows = Counter((v, k, t - t % 3600) for v, k, t in stack.query(
        "SELECT vault_address, kind, toInt64(toUnixTimestamp(block_timestamp)) FROM vault_events FINAL "
        "WHERE chain_id = 56 AND kind IN ('deposit', 'withdrawal')"))
    for table, expected, length in (("vault_hourly", hours, 3600), ("vault_daily", days, DAY)):
        rows = {(r[0], r[1]): r[2:] for r in stack.query(
            f"SELECT vault_address, toInt64(toUnixTimestamp(period_start)), toString(total_supply_raw), "
            f"toString(amount0_raw), toString(amount1_raw), tvl_usd, share_price_usd, harvested_usd, apr, deposits, "
            f"withdrawals, partial FROM {table} FINAL WHERE chain_id = 56 "
            f"AND period_start < toDateTime64({{e:Int64}}, 3, 'UTC')", e=end)}
        assert len(rows) == len(expected)
        for d in expected:
            vault, start = d["vault"]["id"].lower(), int(d["periodStartUnix"])
            supply, a0, a1, tvl, price, harvested, apr, deposits, withdrawals, partial = rows[(vault, start)]
            raw0 = int(Decimal(d["amount0"]).scaleb(int(d["vault"]["token0"]["decimals"])))
            raw1 = int(Decimal(d["amount1"]).scaleb(int(d["vault"]["token1"]["decimals"])))
            assert (supply, a0, a1) == (d["totalSupply"], str(raw0), str(raw1))
            assert close(tvl, float(d["tvlUSD"])) and close(price, float(d["sharePriceUSD"]))
            assert close(harvested, float(d["harvestedUSD"])) and close(apr, float(d["apr"]))
            count = lambda kind: sum(n for (v, k, h), n in flows.items()  # noqa: E731
                                     if v == vault and k == kind and start <= h < start + length)
            assert (deposits, withdrawals) == (count("deposit"), count("withdrawal"))
            assert partial is False
    # nothing for an hour that had not ended; the running day, once read, is partial
    assert stack.scalar("SELECT countIf(partial) FROM vault_hourly FINAL WHERE chain_id = 56") == 0
    if stack.history_now % DAY >= 3600:  # the backfill read today once an hour of it had ended
        latest_day = stack.scalar("SELECT toInt64(toUnixTimestamp(max(period_start))) FROM vault_daily FINAL "
                                  "WHERE chain_id = 56")
        assert latest_day == end
    assert stack.scalar("SELECT countIf(NOT partial) FROM vault_daily FINAL WHERE chain_id = 56 "
                        "AND period_start >= toDateTime64({e:Int64}, 3, 'UTC')", e=end) == 0
