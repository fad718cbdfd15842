-- protocol_daily against protocol_hourly: for every stored day in [from_ts, to_ts), volume and
-- fees equal the sum of that day's hourly buckets within {rel_tol} relative, and hours_covered
-- equals the number of buckets.
-- Parameters: {chain_id:UInt32}, {from_ts:Int64}, {to_ts:Int64}, {rel_tol:Float64}
SELECT
    count()                                   AS checked,
    countIf(NOT ok)                           AS mismatched,
    max(rel_err)                              AS max_rel_err,
    arraySort(groupArrayIf(10)(toString(day), NOT ok)) AS examples
FROM
(
    SELECT
        d.day                                                                               AS day,
        abs(d.volume_usd - h.volume_sum) / greatest(abs(d.volume_usd), abs(h.volume_sum), 1e-12) AS rel_volume,
        abs(d.fees_usd - h.fees_sum) / greatest(abs(d.fees_usd), abs(h.fees_sum), 1e-12)         AS rel_fees,
        greatest(rel_volume, rel_fees)                                                      AS rel_err,
        rel_volume <= {rel_tol:Float64} AND rel_fees <= {rel_tol:Float64} AND d.hours_covered = h.hours AS ok
    FROM
    (
        SELECT day, volume_usd, fees_usd, hours_covered
        FROM protocol_daily FINAL
        WHERE chain_id = {chain_id:UInt32}
          AND day >= toDate(toDateTime64({from_ts:Int64}, 3, 'UTC'), 'UTC')
          AND day <  toDate(toDateTime64({to_ts:Int64}, 3, 'UTC'), 'UTC')
    ) AS d
    LEFT JOIN
    (
        SELECT toDate(hour_start, 'UTC') AS day, sum(volume_usd) AS volume_sum,
               sum(fees_usd) AS fees_sum, count() AS hours
        FROM protocol_hourly FINAL
        WHERE chain_id = {chain_id:UInt32}
          AND hour_start >= toDateTime64({from_ts:Int64}, 3, 'UTC')
          AND hour_start <  toDateTime64({to_ts:Int64}, 3, 'UTC')
        GROUP BY day
    ) AS h ON h.day = d.day
)
