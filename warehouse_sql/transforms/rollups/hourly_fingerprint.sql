-- Fingerprint of the hourly rows a daily rollup reads for [from_ts, to_ts): row counts and an
-- order-independent hash per table. It goes into the rollup's insert_deduplication_token, so
-- re-running a rollup over unchanged hours is dropped by the server instead of re-inserted.
-- Parameters: {chain_id:UInt32}, {from_ts:Int64}, {to_ts:Int64} (Unix seconds)
SELECT
    (
        SELECT concat(toString(count()), '-', toString(sum(cityHash64(pool_address, hour_start, volume_usd,
                                                                      fees_usd, tvl_usd_close, tx_count))))
        FROM pool_hourly FINAL
        WHERE chain_id = {chain_id:UInt32}
          AND hour_start >= toDateTime64({from_ts:Int64}, 3, 'UTC')
          AND hour_start <  toDateTime64({to_ts:Int64}, 3, 'UTC')
    ) AS pool_hourly,
    (
        SELECT concat(toString(count()), '-', toString(sum(cityHash64(hour_start, volume_usd, fees_usd, pool_count))))
        FROM protocol_hourly FINAL
        WHERE chain_id = {chain_id:UInt32}
          AND hour_start >= toDateTime64({from_ts:Int64}, 3, 'UTC')
          AND hour_start <  toDateTime64({to_ts:Int64}, 3, 'UTC')
    ) AS protocol_hourly
