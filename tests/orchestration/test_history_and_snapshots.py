"""History and snapshots materialized through Dagster, checked against the devnet's ground truth."""
from __future__ import annotations

from orchestration_session import HISTORY_DAYS
from ve_analytics.core.epochs import DAY, HOUR, QUARTER_HOUR, epoch_start, iso
from ve_analytics.core.partition_keys import day_key

REL = 1e-9


def close(a: float, b: float) -> bool:
    return abs(a - b) <= REL * max(abs(a), abs(b), 1e-12)


def test_backfill_takes_the_newest_snapshot_first_then_fills_in_behind(stack):
    from dagster import DagsterRunStatus

    from ve_analytics.orchestration.instance import dagster_instance

    s = stack.backfill_summary["chains"][56]
    days = HISTORY_DAYS + (stack.history_now % DAY >= HOUR)  # complete days + today once an hour of it has ended
    assert s["history_days"] == days and s["snapshots"] == 8 and not s["error"]
    # the recent history (every day here) in one run, the newest snapshot in one, then one backfill run
    (history_run,), (newest_run, *filled) = s["history_run_ids"], s["snapshot_run_ids"]
    assert len(filled) == 1 and len(s["backfill_ids"]) == 1
    assert any(line.startswith("chain 56: upstream at ") and "8 snapshots to take (newest first)" in line
               for line in stack.progress)
    assert any(f"chain 56 recent history 0/{days} days" in line for line in stack.progress)
    fresh = [line for line in stack.progress if line.startswith("fresh: the newest snapshot of chain(s) ")]
    assert len(fresh) == 1 and "1, 56, 4663, 5042 is published" in fresh[0]
    assert any("chain 56 snapshots 0/7 snapshots" in line for line in stack.progress)
    assert f"chain 56 done ({days} history days, 8 snapshots)" in stack.progress[-2]
    assert stack.progress[-1].startswith("backfill done in ")
    published = s["published"]
    with dagster_instance(stack.settings) as instance:
        history = instance.get_run_by_id(history_run)
        assert history.job_name == "history_job_56" and history.status == DagsterRunStatus.SUCCESS
        assert history.tags["ve/chain"] == "56" and history.tags["dagster/asset_partition_range_end"] == day_key(
            stack.history_now - HOUR)
        newest = instance.get_run_by_id(newest_run)
        assert newest.job_name == "snapshot_job_56" and newest.status == DagsterRunStatus.SUCCESS
        assert newest.tags["ve/snapshots_from"] == newest.tags["ve/snapshots_until"] == iso(published[-1])
        (backfill,) = [b for b in instance.get_backfills() if b.backfill_id == s["backfill_ids"][0]]
        assert backfill.partition_set_name == "snapshot_job_56_partition_set" and backfill.title.startswith("chain 56 ")
        # the backfill's runs inherit its bounds: the planned snapshots older than the newest
        assert (backfill.tags["ve/snapshots_from"], backfill.tags["ve/snapshots_until"]) == (
            iso(published[0]), iso(published[-2]))
        run = instance.get_run_by_id(filled[0])
        assert run.status == DagsterRunStatus.SUCCESS and run.tags["dagster/backfill"] == backfill.backfill_id
        # newest first: the fill's run was created after the newest snapshot's run had finished
        fill_created = instance.get_run_record_by_id(filled[0]).create_timestamp.timestamp()
        assert fill_created >= instance.get_run_record_by_id(newest_run).end_time


def test_every_ended_hour_of_the_history_has_a_protocol_bucket_and_no_more(stack):
    now = stack.history_now
    first_day = now - now % DAY - HISTORY_DAYS * DAY
    hours = [r[0] for r in stack.query(
        "SELECT toInt64(toUnixTimestamp(hour_start)) FROM protocol_hourly FINAL WHERE chain_id = 56 ORDER BY 1")]
    assert hours == list(range(first_day, now - now % HOUR, HOUR))  # every ended hour, none running
    per_day = dict(stack.query(
        "SELECT toDate(hour_start), count() FROM protocol_hourly FINAL WHERE chain_id = 56 GROUP BY 1"))
    counts = [count for _, count in sorted(per_day.items())]
    assert counts[:HISTORY_DAYS] == [24] * HISTORY_DAYS  # complete days
    assert counts[HISTORY_DAYS:] == ([(now % DAY) // HOUR] if now % DAY >= HOUR else [])  # today: its ended hours
    # every pool existing in an hour has its bucket (zeros included)
    pools = len(stack.truth("state", block=stack.devnet.sim().block_at(first_day + HOUR))["pools"])
    assert stack.scalar("SELECT pool_count FROM protocol_hourly FINAL WHERE chain_id = 56 "
                        "AND hour_start = toDateTime64({h:Int64}, 3, 'UTC')", h=first_day) == pools


def test_hourly_and_daily_sums_equal_ground_truth(stack):
    now = stack.history_now
    today = now - now % DAY
    for day in (today - HISTORY_DAYS * DAY, today - DAY):
        truth = stack.truth("flows", **{"from": day, "to": day + DAY})
        volume, fees = stack.query(
            "SELECT sum(volume_usd), sum(fees_usd) FROM protocol_hourly FINAL WHERE chain_id = 56 "
            "AND hour_start >= toDateTime64({a:Int64}, 3, 'UTC') AND hour_start < toDateTime64({b:Int64}, 3, 'UTC')",
            a=day, b=day + DAY)[0]
        assert truth["swapCount"] > 0
        assert close(volume, truth["volumeUsd"]) and close(fees, truth["feesUsd"])
        daily = stack.query("SELECT volume_usd, fees_usd, hours_covered FROM protocol_daily FINAL "
                            "WHERE chain_id = 56 AND day = toDate(toDateTime64({a:Int64}, 3, 'UTC'))", a=day)[0]
        assert close(daily[0], truth["volumeUsd"]) and close(daily[1], truth["feesUsd"]) and daily[2] == 24
    # an arbitrary 30-hour window across days, and one pool
    end = now - now % HOUR - 5 * HOUR
    truth = stack.truth("flows", **{"from": end - 30 * HOUR, "to": end})
    got = stack.scalar("SELECT sum(volume_usd) FROM protocol_hourly FINAL WHERE chain_id = 56 "
                       "AND hour_start >= toDateTime64({a:Int64}, 3, 'UTC') "
                       "AND hour_start < toDateTime64({b:Int64}, 3, 'UTC')", a=end - 30 * HOUR, b=end)
    assert close(got, truth["volumeUsd"])
    pool = stack.query("SELECT pool_address FROM pool_daily FINAL WHERE chain_id = 56 ORDER BY volume_usd DESC LIMIT 1")[0][0]
    day = today - 2 * DAY
    truth = stack.truth("flows", **{"from": day, "to": day + DAY, "pool": pool})
    got = stack.query("SELECT volume_usd, fees_usd FROM pool_daily FINAL WHERE pool_address = {p:String} "
                      "AND day = toDate(toDateTime64({a:Int64}, 3, 'UTC'))", p=pool, a=day)[0]
    assert close(got[0], truth["volumeUsd"]) and close(got[1], truth["feesUsd"])


def test_snapshots_match_ground_truth_at_their_block(stack):
    latest = stack.latest_success()
    assert latest == (stack.history_now - 1) // QUARTER_HOUR * QUARTER_HOUR
    row = stack.query(
        "SELECT block_number, toInt64(toUnixTimestamp(block_timestamp)), tvl_usd, tvl_v2_usd, tvl_cl_usd, pool_count, "
        "active_gauge_count, toString(emissions_epoch_raw), toString(ve_locked_raw), toString(ve_voting_power_raw), "
        "core_price_usd, toInt64(toUnixTimestamp(epoch_start)) FROM protocol_snap15m FINAL "
        "WHERE chain_id = 56 AND snapshot_at = toDateTime64({t:Int64}, 3, 'UTC')", t=latest)[0]
    block, block_ts, tvl, v2, cl, pool_count, gauges, weekly, locked, power, price, epoch = row
    assert block_ts <= latest < block_ts + 3 and block == stack.devnet.sim().block_at(latest)
    truth = stack.truth("state", block=block)
    assert close(tvl, truth["tvlUsd"]) and close(v2, truth["tvlV2Usd"]) and close(cl, truth["tvlClUsd"])
    assert pool_count == len(truth["pools"])
    assert gauges == truth["activeGaugeCount"]
    assert (weekly, locked, power) == (truth["weeklyEmissions"], truth["veSupply"], truth["veVotingPower"])
    assert close(price, truth["corePriceUsd"]) and epoch == epoch_start(latest)
    pools = dict(stack.query("SELECT pool_address, tvl_usd FROM pool_snap15m FINAL "
                             "WHERE chain_id = 56 AND snapshot_at = toDateTime64({t:Int64}, 3, 'UTC')", t=latest))
    assert set(pools) == set(truth["pools"])
    assert all(close(pools[p], truth["pools"][p]["tvlUsd"]) for p in pools)
    tokens = dict(stack.query("SELECT token_address, price_usd FROM token_snap15m FINAL "
                              "WHERE chain_id = 56 AND snapshot_at = toDateTime64({t:Int64}, 3, 'UTC')", t=latest))
    assert all(close(tokens[t], truth["tokens"][t]["priceUsd"]) for t in truth["tokens"])


def test_snapshot_flow_windows_end_at_the_newest_hour_and_equal_truth(stack):
    latest = stack.latest_success()
    end, v24, f24, h24, v7, h7, h30 = stack.query(
        "SELECT toInt64(toUnixTimestamp(flow_window_end)), volume_24h_usd, fees_24h_usd, hours_24h, volume_7d_usd, "
        "hours_7d, hours_30d FROM protocol_snap15m FINAL WHERE chain_id = 56 AND snapshot_at = toDateTime64({t:Int64}, 3, 'UTC')",
        t=latest)[0]
    assert end == stack.history_now - stack.history_now % HOUR  # newest bucket in the warehouse
    assert h24 == 24 and h7 == min(7 * 24, h30) and h30 == (end - (end - end % DAY - HISTORY_DAYS * DAY)) // HOUR
    truth = stack.truth("flows", **{"from": end - DAY, "to": end})
    assert close(v24, truth["volumeUsd"]) and close(f24, truth["feesUsd"])
    truth7 = stack.truth("flows", **{"from": end - 7 * DAY, "to": end})
    assert close(v7, truth7["volumeUsd"])
    pool, pv, ph = stack.query("SELECT pool_address, volume_24h_usd, hours_24h FROM pool_snap15m FINAL "
                               "WHERE chain_id = 56 AND snapshot_at = toDateTime64({t:Int64}, 3, 'UTC') ORDER BY volume_24h_usd DESC LIMIT 1",
                               t=latest)[0]
    truth = stack.truth("flows", **{"from": end - DAY, "to": end, "pool": pool})
    assert ph == 24 and close(pv, truth["volumeUsd"])


def test_every_published_snapshot_has_its_rows_and_run_record(stack):
    rows = stack.query(
        "SELECT toInt64(toUnixTimestamp(snapshot_at)), run_id, block_number, rows_written, sources, error "
        "FROM snapshot_runs FINAL WHERE chain_id = 56 AND status = 'success' ORDER BY snapshot_at")
    times = [r[0] for r in rows]
    summary = stack.backfill_summary["chains"][56]
    assert times == summary["published"]
    for t, run_id, block, written, sources, error in rows:
        assert run_id in summary["snapshot_run_ids"] and block > 0 and error == ""
        assert sources == ["subgraph", "chain-rpc"]
        assert written["protocol_snap15m"] == 1 and written["pool_snap15m"] > 0 and written["token_snap15m"] > 0


def test_asset_checks_pass(stack):
    from dagster import DagsterEventType

    from ve_analytics.orchestration.instance import dagster_instance

    summary = stack.backfill_summary["chains"][56]
    runs = [*summary["history_run_ids"], *summary["snapshot_run_ids"]]
    with dagster_instance(stack.settings) as instance:
        evaluations = [
            e.dagster_event.event_specific_data
            for run_id in runs
            for e in instance.all_logs(run_id, of_type=DagsterEventType.ASSET_CHECK_EVALUATION)
        ]
    by_name = {ev.check_name: ev for ev in evaluations}
    assert set(by_name) == {
        "hourly_buckets_complete", "protocol_daily_reconciles_with_hourly", "protocol_snapshot_fresh",
        "published_snapshot_row_counts", "protocol_tvl_reconciles_with_pools", "governance_snapshots_consistent",
        "core_token_factsheet_consistent", "governance_events_in_their_epochs",
        "vault_snapshots_consistent", "vault_hourly_buckets_final",
    }
    failed = {name: ev.metadata for name, ev in by_name.items() if not ev.passed}
    assert not failed

