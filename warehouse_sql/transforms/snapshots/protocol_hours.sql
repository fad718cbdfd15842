-- Protocol hourly buckets with hour_start in [from_ts, to_ts), oldest first: the flow windows of
-- a range of snapshots are summed from these in one load.
-- Parameters: {chain_id:UInt32}, {from_ts:Int64}, {to_ts:Int64} (Unix seconds)
SELECT
    toInt64(toUnixTimestamp(hour_start)) AS hour_ts,
    volume_usd,
    fees_usd
FROM protocol_hourly FINAL
WHERE chain_id = {chain_id:UInt32}
  AND hour_start >= toDateTime64({from_ts:Int64}, 3, 'UTC')
  AND hour_start <  toDateTime64({to_ts:Int64}, 3, 'UTC')
ORDER BY hour_start
