-- Pool hourly buckets with TVL close for hour_start in [from_ts, to_ts): the KPI asset sums
-- epoch-to-date flows and compares them with the previous epoch from one load per run.
-- Parameters: {chain_id:UInt32}, {from_ts:Int64}, {to_ts:Int64} (Unix seconds)
SELECT
    pool_address,
    toInt64(toUnixTimestamp(hour_start)) AS hour_ts,
    volume_usd,
    fees_usd,
    tvl_usd_close
FROM pool_hourly FINAL
WHERE chain_id = {chain_id:UInt32}
  AND hour_start >= toDateTime64({from_ts:Int64}, 3, 'UTC')
  AND hour_start <  toDateTime64({to_ts:Int64}, 3, 'UTC')
ORDER BY pool_address, hour_start
