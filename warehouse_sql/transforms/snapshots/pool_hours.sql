-- Pool hourly buckets with hour_start in [from_ts, to_ts), per pool oldest first: the per-pool
-- 24h flows of a range of snapshots are summed from these in one load.
-- Parameters: {chain_id:UInt32}, {from_ts:Int64}, {to_ts:Int64} (Unix seconds)
SELECT
    pool_address,
    toInt64(toUnixTimestamp(hour_start)) AS hour_ts,
    volume_usd,
    fees_usd
FROM pool_hourly FINAL
WHERE chain_id = {chain_id:UInt32}
  AND hour_start >= toDateTime64({from_ts:Int64}, 3, 'UTC')
  AND hour_start <  toDateTime64({to_ts:Int64}, 3, 'UTC')
ORDER BY pool_address, hour_start
