"""Every chain through the same pipeline: each chain's numbers equal its own ground truth, the young
chain has nothing before its first activity, the chain without CL pools has none, and the chain
whose subgraph lags is detected, reported and bounded by what its subgraph has indexed."""
from __future__ import annotations

import pytest

from orchestration_session import CHAINS, LAGGING, NO_CL, YOUNG
from ve_analytics.core.epochs import DAY, HOUR, QUARTER_HOUR

REL = 1e-9
AT = "toDateTime64({t:Int64}, 3, 'UTC')"


def close(a: float, b: float) -> bool:
    return abs(a - b) <= REL * max(abs(a), abs(b), 1e-12)


def coverage(stack, chain_id: int) -> dict[str, tuple[int, int]]:
    rows = stack.query("SELECT dataset, toInt64(toUnixTimestamp(min(first_at))), toInt64(toUnixTimestamp(max(last_at))) "
                       "FROM chain_coverage WHERE chain_id = {c:UInt32} GROUP BY dataset", c=chain_id)
    return {name: (first, last) for name, first, last in rows}


@pytest.mark.parametrize("chain_id", CHAINS)
def test_each_chain_publishes_its_own_snapshot_equal_to_its_truth(stack, chain_id):
    latest = stack.latest_success(chain_id)
    assert latest is not None and stack.backfill_summary["chains"][chain_id]["snapshots"] == 8
    tvl, pool_count, block, end, v24, f24, h24 = stack.query(
        "SELECT tvl_usd, pool_count, block_number, toInt64(toUnixTimestamp(flow_window_end)), volume_24h_usd, "
        f"fees_24h_usd, hours_24h FROM protocol_snap15m FINAL WHERE chain_id = {{c:UInt32}} AND snapshot_at = {AT}",
        c=chain_id, t=latest)[0]
    assert block == stack.devnet.sim(chain_id).block_at(latest)
    truth = stack.truth("state", chain_id, block=block)
    assert close(tvl, truth["tvlUsd"]) and pool_count == len(truth["pools"])
    pools = dict(stack.query(f"SELECT pool_address, tvl_usd FROM pool_snap15m FINAL WHERE chain_id = {{c:UInt32}} "
                             f"AND snapshot_at = {AT}", c=chain_id, t=latest))
    assert set(pools) == set(truth["pools"]) and all(close(pools[p], truth["pools"][p]["tvlUsd"]) for p in pools)
    prices = dict(stack.query(f"SELECT token_address, price_usd FROM token_snap15m FINAL WHERE chain_id = {{c:UInt32}} "
                              f"AND snapshot_at = {AT}", c=chain_id, t=latest))
    assert truth["tokens"] and all(close(prices[t], truth["tokens"][t]["priceUsd"]) for t in truth["tokens"])
    # the 24h window sums the chain's own hourly buckets, ending at its newest completed hour
    flows = stack.truth("flows", chain_id, **{"from": end - DAY, "to": end})
    assert h24 == 24 and flows["swapCount"] > 0
    assert close(v24, flows["volumeUsd"]) and close(f24, flows["feesUsd"])


@pytest.mark.parametrize("chain_id", CHAINS)
def test_each_chains_hourly_buckets_equal_its_truth(stack, chain_id):
    end = stack.latest_success(chain_id) // HOUR * HOUR - HOUR
    start = end - 30 * HOUR
    volume, fees = stack.query(
        "SELECT sum(volume_usd), sum(fees_usd) FROM protocol_hourly FINAL WHERE chain_id = {c:UInt32} "
        "AND hour_start >= toDateTime64({a:Int64}, 3, 'UTC') AND hour_start < toDateTime64({b:Int64}, 3, 'UTC')",
        c=chain_id, a=start, b=end)[0]
    truth = stack.truth("flows", chain_id, **{"from": start, "to": end})
    assert close(volume, truth["volumeUsd"]) and close(fees, truth["feesUsd"])


def test_the_young_chain_has_no_rows_before_its_first_activity(stack):
    deployment = stack.deployment(YOUNG)
    first_pool = min(p["createdAtTimestamp"] for p in deployment["pools"])
    assert first_pool > stack.deployment(56)["genesis"]["timestamp"]  # younger than the others' history
    first_hour = first_pool - first_pool % HOUR
    for table, column in (("protocol_hourly", "hour_start"), ("pool_hourly", "hour_start"),
                          ("pool_daily", "day"), ("protocol_snap15m", "snapshot_at")):
        earliest = stack.scalar(f"SELECT toInt64(toUnixTimestamp(min({column}))) FROM {table} FINAL "
                                "WHERE chain_id = {c:UInt32}", c=YOUNG)
        assert earliest >= first_pool - first_pool % DAY, table
    assert stack.scalar("SELECT toInt64(toUnixTimestamp(min(hour_start))) FROM protocol_hourly FINAL "
                        "WHERE chain_id = {c:UInt32}", c=YOUNG) == first_hour
    # its history partitions start at its deployment, and its coverage says where its market began
    assert coverage(stack, YOUNG)["market_activity"][0] == first_pool
    assert coverage(stack, YOUNG)["hourly"][0] == first_hour


def test_the_chain_without_cl_pools_has_none(stack):
    book = stack.settings.chain(NO_CL)
    assert not book.supports("clPools") and book.supports("v2Pools")
    types = {r[0] for r in stack.query("SELECT DISTINCT pool_type FROM pool_snap15m FINAL WHERE chain_id = {c:UInt32}",
                                       c=NO_CL)}
    assert types and not any("cl" in t.lower() for t in types)
    assert stack.scalar("SELECT max(tvl_cl_usd) FROM protocol_snap15m FINAL WHERE chain_id = {c:UInt32}", c=NO_CL) == 0


def test_vault_assets_exist_only_on_chains_with_vaults(stack):
    with_vaults = {r[0] for r in stack.query("SELECT DISTINCT chain_id FROM vault_snap15m FINAL")}
    assert with_vaults == {cid for cid in CHAINS if stack.settings.chain(cid).has_vaults} == {56, YOUNG, LAGGING}


def test_the_lagging_subgraph_bounds_its_chain_and_is_reported(stack):
    from ve_analytics.orchestration.backfill import run_snapshot
    from ve_analytics.readers.graphql import SubgraphError

    cov = coverage(stack, LAGGING)
    lag = cov["chain_head"][1] - cov["subgraph"][1]
    assert 35 * HOUR <= lag <= 37 * HOUR  # the devnet's 36 hours, seen by the chain's runs
    assert stack.latest_success(LAGGING) <= cov["subgraph"][1]  # nothing past what the subgraph indexed
    assert stack.latest_success(LAGGING) < stack.latest_success(56) - 35 * HOUR
    # a snapshot the subgraph has not indexed fails at once, is recorded, and publishes nothing
    target = stack.latest_success(56) - QUARTER_HOUR
    with pytest.raises(SubgraphError, match="subgraph is lagging"):
        run_snapshot(stack.settings, target, chain_id=LAGGING)
    statuses = stack.query(f"SELECT status, error FROM snapshot_runs FINAL WHERE chain_id = {{c:UInt32}} "
                           f"AND snapshot_at = {AT}", c=LAGGING, t=target)
    assert statuses and {s for s, _ in statuses} == {"failed"} and "lagging" in statuses[0][1]
    assert coverage(stack, LAGGING)["snapshots"][1] == stack.latest_success(LAGGING)


def test_coverage_records_each_chains_observation_ranges(stack):
    for cid in CHAINS:
        cov = coverage(stack, cid)
        published = [r[0] for r in stack.query(
            "SELECT toInt64(toUnixTimestamp(snapshot_at)) FROM snapshot_runs FINAL WHERE chain_id = {c:UInt32} "
            "AND status = 'success' ORDER BY 1", c=cid)]
        assert cov["snapshots"] == (published[0], published[-1]), cid
        hours = stack.query("SELECT toInt64(toUnixTimestamp(min(hour_start))), toInt64(toUnixTimestamp(max(hour_start))) "
                            "FROM protocol_hourly FINAL WHERE chain_id = {c:UInt32}", c=cid)[0]
        assert cov["hourly"] == hours, cid
        assert cov["market_activity"][0] == min(p["createdAtTimestamp"] for p in stack.deployment(cid)["pools"]), cid


@pytest.mark.parametrize("chain_id", CHAINS)
def test_token_hourly_valuations_are_each_tokens_price_at_the_hours_close(stack, chain_id):
    hour = stack.latest_success(chain_id) // HOUR * HOUR - 3 * HOUR
    prices = dict(stack.query("SELECT token_address, price_usd_close FROM token_hourly FINAL WHERE chain_id = {c:UInt32} "
                              "AND hour_start = toDateTime64({h:Int64}, 3, 'UTC')", c=chain_id, h=hour))
    truth = stack.truth("state", chain_id, block=stack.devnet.sim(chain_id).block_at(hour + HOUR - 1))
    assert set(prices) == set(truth["tokens"])
    assert all(close(prices[t], truth["tokens"][t]["priceUsd"]) for t in prices)
    # back to the chain's first activity, and not before
    first = stack.scalar("SELECT toInt64(toUnixTimestamp(min(hour_start))) FROM token_hourly FINAL "
                         "WHERE chain_id = {c:UInt32}", c=chain_id)
    first_pool = min(p["createdAtTimestamp"] for p in stack.deployment(chain_id)["pools"])
    assert first == first_pool - first_pool % HOUR
