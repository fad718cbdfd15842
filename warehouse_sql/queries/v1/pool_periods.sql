-- /v1/pools/{chainId}/{poolAddress}/history and /daily: the pool at the chain's published snapshot
-- (v1_pool_identity, migration 064: one row when listed, none otherwise) and its periods, period k
-- being [top - (k+1)P, top - kP) with P = {period_seconds}, k < {periods}, buckets only before
-- the chain's anchor {end}:
--   periods:     per k holding a pool bucket, (k, volume, fees, transactions, the latest bucket in
--                it with a close state as (hour, reserve0, reserve1, liquidity, sqrt price, tick),
--                its hour 0 when none); sums in ascending order, as v1_pool_rows sums them
--   chain_hours: per k, how many of the chain's hourly buckets (protocol_hourly) are stored: the
--                evidence that the pool's zero hours are zeros
--   prior:       the pool's latest bucket with a close state before the first period (hour 0: none)
--   prior_hours: the chain's buckets stored between that bucket and the first period, the
--                evidence that nothing changed the state in between
--   first_hour:  the pool's first bucket (the hour it was created, where the chain is indexed)
-- Parameters: {chain_id:UInt32}, {snapshot_at:DateTime64(3, 'UTC')}, {address:String} lower-case,
-- {curation:String}, {scope_all:UInt8}, {top:Int64}, {end:Int64} (Unix seconds), {period_seconds:UInt32},
-- {periods:UInt32}.
WITH
    {top:Int64} - {periods:UInt32} * {period_seconds:UInt32} AS window_start,
    least({top:Int64}, {end:Int64}) AS window_end,
    (
        SELECT tuple(toInt64(toUnixTimestamp(hour_start)), reserve0_raw, reserve1_raw, liquidity_raw,
                     sqrt_price_x96, tick)
        FROM pool_hourly FINAL
        WHERE chain_id = {chain_id:UInt32} AND pool_address = {address:String}
          AND hour_start < toDateTime64(window_start, 3, 'UTC')
          AND (reserve0_raw IS NOT NULL OR reserve1_raw IS NOT NULL OR sqrt_price_x96 IS NOT NULL)
        ORDER BY hour_start DESC
        LIMIT 1
    ) AS prior_state
SELECT
    p.pool_type        AS pool_type,
    p.servable         AS servable,
    p.token0_address   AS token0_address,
    p.token1_address   AS token1_address,
    p.token0_symbol    AS token0_symbol,
    p.token1_symbol    AS token1_symbol,
    p.token0_decimals  AS token0_decimals,
    p.token1_decimals  AS token1_decimals,
    (
        SELECT groupArray((k, volume_usd, fees_usd, tx_count, state))
        FROM
        (
            SELECT intDiv({top:Int64} - 1 - hour, {period_seconds:UInt32}) AS k,
                   arraySum(arraySort(groupArray(volume_usd))) AS volume_usd,
                   arraySum(arraySort(groupArray(fees_usd)))   AS fees_usd,
                   sum(tx_count)                               AS tx_count,
                   argMaxIf(tuple(hour, reserve0_raw, reserve1_raw, liquidity_raw, sqrt_price_x96, tick), hour,
                            reserve0_raw IS NOT NULL OR reserve1_raw IS NOT NULL OR sqrt_price_x96 IS NOT NULL) AS state
            FROM
            (
                SELECT toInt64(toUnixTimestamp(hour_start)) AS hour, volume_usd, fees_usd, tx_count,
                       reserve0_raw, reserve1_raw, liquidity_raw, sqrt_price_x96, tick
                FROM pool_hourly FINAL
                WHERE chain_id = {chain_id:UInt32} AND pool_address = {address:String}
                  AND hour_start >= toDateTime64(window_start, 3, 'UTC')
                  AND hour_start < toDateTime64(window_end, 3, 'UTC')
            )
            GROUP BY k
        )
    ) AS periods,
    (
        SELECT groupArray((k, hours))
        FROM
        (
            SELECT intDiv({top:Int64} - 1 - toInt64(toUnixTimestamp(hour_start)), {period_seconds:UInt32}) AS k,
                   count() AS hours
            FROM protocol_hourly FINAL
            WHERE chain_id = {chain_id:UInt32}
              AND hour_start >= toDateTime64(window_start, 3, 'UTC')
              AND hour_start < toDateTime64(window_end, 3, 'UTC')
            GROUP BY k
        )
    ) AS chain_hours,
    prior_state AS prior,
    (
        SELECT count()
        FROM protocol_hourly FINAL
        WHERE chain_id = {chain_id:UInt32}
          AND hour_start > toDateTime64(prior_state.1, 3, 'UTC')
          AND hour_start < toDateTime64(window_start, 3, 'UTC')
    ) AS prior_hours,
    (
        SELECT toInt64(toUnixTimestamp(min(hour_start)))
        FROM pool_hourly
        WHERE chain_id = {chain_id:UInt32} AND pool_address = {address:String}
    ) AS first_hour
FROM v1_pool_identity(chain_id = {chain_id:UInt32}, snapshot_at = {snapshot_at:DateTime64(3, 'UTC')},
                      address = {address:String}, curation = {curation:String}, scope_all = {scope_all:UInt8}) AS p
