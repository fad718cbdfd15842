-- The newest protocol hourly bucket that had ended by {at_ts}: the earliest possible flow-window
-- end of a snapshot range starting at {at_ts}. One row; hour_ts is NULL when there is none.
-- Parameters: {chain_id:UInt32}, {at_ts:Int64} (Unix seconds)
SELECT
    if(count() > 0, toInt64(toUnixTimestamp(max(hour_start))), NULL) AS hour_ts
FROM protocol_hourly FINAL
WHERE chain_id = {chain_id:UInt32}
  AND hour_start <= toDateTime64({at_ts:Int64} - 3600, 3, 'UTC')
