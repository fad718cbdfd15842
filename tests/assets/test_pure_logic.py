"""Pure logic behind the assets: window sums, hourly bucket completion, dedup tokens, ABI parsing."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest

from ve_analytics.assets.rows.hourly import STATE_COLUMNS, HourlyRead, PoolShape, hourly_columns
from ve_analytics.assets.snapshot_plan import window_snapshot_times
from ve_analytics.assets.writers import dedup_token, load_sql
from ve_analytics.core.epochs import DAY, HOUR
from ve_analytics.core.flows import HourlySeries, flow_end, protocol_flows
from ve_analytics.readers.chain import parse_signature

T0 = int(datetime(2026, 3, 5, tzinfo=timezone.utc).timestamp())  # a Thursday, 00:00 UTC


def test_flow_windows_end_at_newest_ended_bucket_and_count_buckets():
    hours = [T0 + i * HOUR for i in range(48)]
    series = HourlySeries(hours, [1.0] * 48, [0.1] * 48)
    snapshot = T0 + 47 * HOUR + 45 * 60  # 47:45 -> bucket 47:00 has not ended
    end = flow_end(series, snapshot)
    assert end == T0 + 47 * HOUR
    flows = protocol_flows(series, end)
    assert flows["24h"].hours == 24 and flows["24h"].volume_usd == 24.0
    assert flows["7d"].hours == 47 and flows["7d"].volume_usd == 47.0  # only what is present
    assert flows["30d"].fees_usd == pytest.approx(4.7)


def test_missing_buckets_are_null_not_zero():
    series = HourlySeries([], [], [])
    assert flow_end(series, T0) is None
    assert all(w.volume_usd is None and w.fees_usd is None and w.hours == 0 for w in protocol_flows(series, None).values())
    gap = HourlySeries([T0], [5.0], [0.5])
    assert gap.window(T0 + DAY, T0 + 2 * DAY).volume_usd is None


def test_hourly_columns_write_every_pool_every_ended_hour_with_real_zeros():
    read = HourlyRead(
        block=100,
        cutoff=T0 + 3 * HOUR,  # three hours have ended
        pools={"0xa": T0 - DAY, "0xb": T0 + HOUR + 1800},  # 0xb created during hour 1
        data=[
            {"id": "a-0", "periodStartUnix": T0, "pool": {"id": "0xA"}, "volumeUSD": "10.5", "feesUSD": "0.1", "tvlUSD": "1000", "txCount": "3"},
            {"id": "b-2", "periodStartUnix": T0 + 2 * HOUR, "pool": {"id": "0xb"}, "volumeUSD": "2", "feesUSD": "0.02", "tvlUSD": "50", "txCount": "1"},
        ],
    )
    pools, protocol = hourly_columns(56, T0, read)
    got = list(zip(pools["pool_address"], [int(h.timestamp()) for h in pools["hour_start"]], pools["volume_usd"], pools["tvl_usd_close"]))
    assert got == [
        ("0xa", T0, 10.5, 1000.0),
        ("0xa", T0 + HOUR, 0.0, None),  # no hour data: zero volume, unknown close
        ("0xb", T0 + HOUR, 0.0, None),  # created mid-hour: it existed during the hour
        ("0xa", T0 + 2 * HOUR, 0.0, None),
        ("0xb", T0 + 2 * HOUR, 2.0, 50.0),
    ]
    assert [int(h.timestamp()) for h in protocol["hour_start"]] == [T0, T0 + HOUR, T0 + 2 * HOUR]
    assert protocol["volume_usd"] == [10.5, 0.0, 2.0] and protocol["pool_count"] == [1, 2, 2]


def test_hourly_columns_carry_each_hours_close_state_exactly():
    """The hour's PoolHourData state becomes exact columns (raw holdings from the decimal reserves,
    CL liquidity, sqrt price and tick); an hour without hour data has none (it carries); a V2
    pool has no CL fields; a reserve finer than the token's decimals is unknown, not rounded."""
    state = {"liquidity": "123456789012345678901234567890", "sqrtPrice": str(2**96 * 3), "tick": "-21973",
             "reserve0": "1.000000000000000001", "reserve1": "2500.5"}
    read = HourlyRead(
        block=100, cutoff=T0 + 2 * HOUR, pools={"0xc": T0 - DAY, "0xv": T0 - DAY},
        data=[
            {"id": "c-0", "periodStartUnix": T0, "pool": {"id": "0xc"}, "volumeUSD": "1", "feesUSD": "0", "txCount": "1", **state},
            {"id": "v-0", "periodStartUnix": T0, "pool": {"id": "0xv"}, "volumeUSD": "1", "feesUSD": "0", "txCount": "1",
             **state, "reserve1": "2500.1234567"},
        ],
        shapes={"0xc": PoolShape(True, 18, 6), "0xv": PoolShape(False, 18, 6)},
    )
    pools, _ = hourly_columns(56, T0, read)
    got = list(zip(pools["pool_address"], *(pools[c] for c in STATE_COLUMNS)))
    assert got == [
        ("0xc", 10**18 + 1, 2_500_500_000, 123456789012345678901234567890, 2**96 * 3, -21973),
        ("0xv", 10**18 + 1, None, None, None, None),
        ("0xc", None, None, None, None, None),
        ("0xv", None, None, None, None, None),
    ]


def test_hourly_columns_never_write_an_hour_that_has_not_ended():
    read = HourlyRead(block=1, cutoff=T0, pools={"0xa": T0 - DAY}, data=[])
    pools, protocol = hourly_columns(56, T0, read)
    assert pools["hour_start"] == [] and protocol["hour_start"] == []


def test_dedup_token_follows_asset_range_and_payload():
    cols = {"a": [1, 2], "b": ["x", "y"]}
    t = dedup_token("pool_hourly", "2026-03-05..2026-03-06", "pool_hourly", cols)
    assert t == dedup_token("pool_hourly", "2026-03-05..2026-03-06", "pool_hourly", dict(cols))
    assert t != dedup_token("pool_hourly", "2026-03-05..2026-03-07", "pool_hourly", cols)
    assert t != dedup_token("pool_hourly", "2026-03-05..2026-03-06", "pool_hourly", {"a": [1, 3], "b": ["x", "y"]})


def test_snapshot_times_are_partition_ends():
    assert window_snapshot_times(T0, T0 + 3600) == [T0 + 900, T0 + 1800, T0 + 2700, T0 + 3600]


def test_signature_parsing():
    assert parse_signature("pools(uint256)(address)") == ("pools(uint256)", ["uint256"], ["address"])
    assert parse_signature("length()") == ("length()", [], None)
    assert parse_signature("f((address,bool),bytes)") == ("f((address,bool),bytes)", ["(address,bool)", "bytes"], None)


def test_sql_files_use_typed_parameters_only():
    for name in ("rollups/pool_daily.sql", "rollups/protocol_daily.sql", "snapshots/pool_hours.sql"):
        text = load_sql(name)
        assert "{chain_id:UInt32}" in text and "{from_ts:Int64}" in text
    with pytest.raises(ValueError):
        load_sql("../migrations/001_snapshot_runs.sql")
