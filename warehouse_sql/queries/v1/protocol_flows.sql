-- Volume and fees of /v1/protocol windows: per requested span, the sum of its chain's hourly
-- buckets in [start, end) and how many buckets it found (a missing bucket is not a zero hour).
-- Parameters: {chain_ids:Array(UInt32)}, {starts:Array(Int64)}, {ends:Array(Int64)}: the i-th
-- span is chain_ids[i] over [starts[i], ends[i]) in Unix seconds.
-- One row per span with any bucket (`span` = i); a span without one has no row. Floats are
-- summed in ascending order: threads finish in any order, and the same snapshot must give the
-- same bits (its ETag promises the same bytes).
SELECT
    span,
    arraySum(arraySort(groupArray(volume_usd))) AS volume_usd,
    arraySum(arraySort(groupArray(fees_usd)))   AS fees_usd,
    count()           AS hours
FROM
(
    SELECT
        arrayJoin(arrayFilter(
            i -> {chain_ids:Array(UInt32)}[i] = chain_id
                 AND {starts:Array(Int64)}[i] <= hour AND hour < {ends:Array(Int64)}[i],
            arrayEnumerate({chain_ids:Array(UInt32)}))) AS span,
        volume_usd,
        fees_usd
    FROM
    (
        SELECT chain_id, toInt64(toUnixTimestamp(hour_start)) AS hour, volume_usd, fees_usd
        FROM protocol_hourly FINAL
        WHERE chain_id IN {chain_ids:Array(UInt32)}
          AND hour_start >= toDateTime64(arrayMin({starts:Array(Int64)}), 3, 'UTC')
          AND hour_start <  toDateTime64(arrayMax({ends:Array(Int64)}), 3, 'UTC')
    )
)
GROUP BY span
ORDER BY span
