-- pool_daily from pool_hourly: per pool and UTC day in [from_ts, to_ts), the day's volume and
-- fees, the close TVL of the last bucket that has one, and how many hourly buckets were present.
-- Parameters: {chain_id:UInt32}, {from_ts:Int64}, {to_ts:Int64} (Unix seconds, day-aligned)
INSERT INTO pool_daily (chain_id, pool_address, day, volume_usd, fees_usd, tvl_usd_close, hours_covered)
SELECT
    chain_id,
    pool_address,
    toDate(hour_start, 'UTC')                 AS day,
    sum(volume_usd)                           AS volume_usd,
    sum(fees_usd)                             AS fees_usd,
    argMax(tvl_usd_close, hour_start)         AS tvl_usd_close,  -- argMax skips NULL closes
    toUInt8(count())                          AS hours_covered
FROM pool_hourly FINAL
WHERE chain_id = {chain_id:UInt32}
  AND hour_start >= toDateTime64({from_ts:Int64}, 3, 'UTC')
  AND hour_start <  toDateTime64({to_ts:Int64}, 3, 'UTC')
GROUP BY chain_id, pool_address, day
