-- protocol_daily from protocol_hourly: per UTC day in [from_ts, to_ts), the day's volume and fees
-- and how many hourly buckets were present (24 for a complete day).
-- Parameters: {chain_id:UInt32}, {from_ts:Int64}, {to_ts:Int64} (Unix seconds, day-aligned)
INSERT INTO protocol_daily (chain_id, day, volume_usd, fees_usd, hours_covered)
SELECT
    chain_id,
    toDate(hour_start, 'UTC')                 AS day,
    sum(volume_usd)                           AS volume_usd,
    sum(fees_usd)                             AS fees_usd,
    toUInt8(count())                          AS hours_covered
FROM protocol_hourly FINAL
WHERE chain_id = {chain_id:UInt32}
  AND hour_start >= toDateTime64({from_ts:Int64}, 3, 'UTC')
  AND hour_start <  toDateTime64({to_ts:Int64}, 3, 'UTC')
GROUP BY chain_id, day
