-- /v1/tokens/{chainId}/{tokenAddress}/trailing: the token's volume over trailing windows, from its
-- hourly valuations (token_hourly.volume_usd): per window, the sum over its hours in [start, end)
-- and how many hours have a volume (an hour without one is missing, not zero).
-- Parameters: {chain_id:UInt32}, {address:String} (lower-case), {starts:Array(Int64)} and
-- {ends:Array(Int64)}: the i-th window is [starts[i], ends[i]) in Unix seconds.
-- One row per window with any hour (`span` = i, from 1); a window without one has no row.
SELECT
    span,
    arraySum(arraySort(groupArray(volume))) AS volume_usd,
    count(volume)  AS hours
FROM
(
    SELECT
        arrayJoin(arrayFilter(i -> {starts:Array(Int64)}[i] <= hour AND hour < {ends:Array(Int64)}[i],
                              arrayEnumerate({starts:Array(Int64)}))) AS span,
        volume
    FROM
    (
        SELECT toInt64(toUnixTimestamp(hour_start)) AS hour, argMax(volume_usd, ingested_at) AS volume
        FROM token_hourly
        WHERE chain_id = {chain_id:UInt32} AND token_address = {address:String}
          AND hour_start >= toDateTime64(arrayMin({starts:Array(Int64)}), 3, 'UTC')
          AND hour_start <  toDateTime64(arrayMax({ends:Array(Int64)}), 3, 'UTC')
        GROUP BY hour_start
    )
)
WHERE volume IS NOT NULL
GROUP BY span
ORDER BY span
