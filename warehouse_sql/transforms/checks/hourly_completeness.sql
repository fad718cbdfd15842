-- Completeness of the hourly buckets: every complete UTC day after the first stored one has 24
-- protocol buckets, no bucket is for an hour that had not ended by {now_ts}, and each protocol
-- bucket's pool_count equals the number of pool buckets of that hour.
-- Parameters: {chain_id:UInt32}, {now_ts:Int64} (Unix seconds)
SELECT
    (SELECT count() FROM protocol_hourly FINAL WHERE chain_id = {chain_id:UInt32})   AS buckets,
    countIf(complete)                                                                AS complete_days,
    countIf(complete AND hours != 24)                                                AS incomplete_days,
    arraySort(groupArrayIf(10)(toString(day), complete AND hours != 24))            AS incomplete_examples,
    (SELECT count() FROM protocol_hourly FINAL
     WHERE chain_id = {chain_id:UInt32}
       AND hour_start + INTERVAL 1 HOUR > toDateTime64({now_ts:Int64}, 3, 'UTC'))    AS future_buckets,
    (SELECT count() FROM
        (SELECT hour_start, any(pool_count) AS pool_count FROM protocol_hourly FINAL
         WHERE chain_id = {chain_id:UInt32} GROUP BY hour_start) AS ph
        LEFT JOIN
        (SELECT hour_start, count() AS pools FROM pool_hourly FINAL
         WHERE chain_id = {chain_id:UInt32} GROUP BY hour_start) AS pp
        ON pp.hour_start = ph.hour_start
     WHERE ph.pool_count != pp.pools)                                                AS pool_count_mismatches
FROM
(
    SELECT
        day,
        hours,
        day > min(day) OVER () AND toDateTime(day, 'UTC') + INTERVAL 1 DAY <= max(last_end) OVER () AS complete
    FROM
    (
        SELECT toDate(hour_start, 'UTC') AS day, count() AS hours,
               max(hour_start) + INTERVAL 1 HOUR AS last_end
        FROM protocol_hourly FINAL
        WHERE chain_id = {chain_id:UInt32}
        GROUP BY day
    )
)
