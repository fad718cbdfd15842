-- /api/stats/pools/{poolId}/daily: one row per UTC day for the {days} days ending with the UTC
-- day of the snapshot, oldest first (PoolDailyRow), from pool_daily. A day without a row is
-- listed with NULL values, never zeros; partial is true only for the snapshot's own UTC day.
-- Parameters: {chain_id:UInt32}, {snapshot_at:DateTime64(3, 'UTC')}, {pool_id:String}, {days:UInt16}
SELECT
    calendar.day              AS date,
    d.volume_usd              AS volumeUsd,
    d.fees_usd                AS feesUsd,
    d.tvl_usd_close           AS tvlUsdClose,
    d.hours_covered           AS hoursCovered,
    toBool(calendar.day = toDate({snapshot_at:DateTime64(3, 'UTC')}, 'UTC')) AS partial
FROM
(
    SELECT toDate({snapshot_at:DateTime64(3, 'UTC')}, 'UTC') - number AS day
    FROM numbers({days:UInt16})
) AS calendar
LEFT JOIN
(
    SELECT
        day,
        toNullable(volume_usd)    AS volume_usd,
        toNullable(fees_usd)      AS fees_usd,
        tvl_usd_close,
        toNullable(hours_covered) AS hours_covered
    FROM pool_daily FINAL
    WHERE chain_id = {chain_id:UInt32}
      AND pool_address = {pool_id:String}
      AND day >  toDate({snapshot_at:DateTime64(3, 'UTC')}, 'UTC') - {days:UInt16}
      AND day <= toDate({snapshot_at:DateTime64(3, 'UTC')}, 'UTC')
) AS d ON d.day = calendar.day
ORDER BY calendar.day
