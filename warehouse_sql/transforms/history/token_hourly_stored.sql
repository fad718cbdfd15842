-- The token_hourly rows already stored for a chain's hours in [from_ts, to_ts), latest version per
-- (token, hour) as v1_price_observations reads them: a token_hourly run compares its new values
-- with these to keep or raise each row's revision (ADR 0011).
-- Parameters: {chain_id:UInt32}, {from_ts:Int64}, {to_ts:Int64} (Unix seconds)
SELECT token_address,
       toInt64(toUnixTimestamp(hour_start))  AS hour_ts,
       argMax(price_usd_close, ingested_at)  AS price,
       argMax(generation, ingested_at)       AS generation,
       argMax(revision, ingested_at)         AS revision
FROM token_hourly
WHERE chain_id = {chain_id:UInt32}
  AND hour_start >= toDateTime64({from_ts:Int64}, 3, 'UTC')
  AND hour_start <  toDateTime64({to_ts:Int64}, 3, 'UTC')
GROUP BY token_address, hour_start
