-- /api/stats/core `daily`: volume and fees per UTC day of the pools containing the core token
-- (the pools of the served snapshot), 90 days ending with the snapshot's UTC day, oldest first.
-- A day without any pool_daily row is NULL; partial is true only for the snapshot's own day.
-- Parameters: {chain_id:UInt32}, {snapshot_at:DateTime64(3, 'UTC')}, {token:String}
SELECT
    calendar.day              AS date,
    d.volume_usd              AS volumeUsd,
    d.fees_usd                AS feesUsd,
    toBool(calendar.day = toDate({snapshot_at:DateTime64(3, 'UTC')}, 'UTC')) AS partial
FROM
(
    SELECT toDate({snapshot_at:DateTime64(3, 'UTC')}, 'UTC') - number AS day
    FROM numbers(90)
) AS calendar
LEFT JOIN
(
    SELECT day, toNullable(arraySum(arraySort(groupArray(volume_usd)))) AS volume_usd,
           toNullable(arraySum(arraySort(groupArray(fees_usd)))) AS fees_usd
    FROM pool_daily FINAL
    WHERE chain_id = {chain_id:UInt32}
      AND day >  toDate({snapshot_at:DateTime64(3, 'UTC')}, 'UTC') - 90
      AND day <= toDate({snapshot_at:DateTime64(3, 'UTC')}, 'UTC')
      AND pool_address IN
      (
          SELECT pool_address
          FROM pool_snap15m FINAL
          WHERE chain_id = {chain_id:UInt32}
            AND snapshot_at = {snapshot_at:DateTime64(3, 'UTC')}
            AND (token0_address = {token:String} OR token1_address = {token:String})
      )
    GROUP BY day
) AS d ON d.day = calendar.day
ORDER BY calendar.day
