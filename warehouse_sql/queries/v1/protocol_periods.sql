-- /v1/protocol/history and /daily: each chain's periods, newest first, as (chain, k) where period
-- k of a chain is [top - (k+1)P, top - kP) with P = {period_seconds}, k < {periods}:
--   flows: the chain's hourly buckets of the period before its anchor (end), summed and counted;
--   TVL:   its latest published snapshot in (top - (k+1)P, top - kP], at or before the snapshot
--          the answer rests on (a state observation with its own time).
-- Parameters: {chain_ids:Array(UInt32)}, {tops:Array(Int64)}, {ends:Array(Int64)},
-- {snapshot_ats:Array(DateTime64(3, 'UTC'))} (the i-th of each the i-th chain's), {period_seconds:UInt32},
-- {periods:UInt32}. One row per (chain, k) with a bucket or a snapshot; periods without either are
-- gaps the handler lists itself.
SELECT
    chain_id,
    k,
    f.volume_usd                                AS volume_usd,
    f.fees_usd                                  AS fees_usd,
    f.hours                                     AS hours,
    t.tvl_usd                                   AS tvl_usd,
    toInt64(toUnixTimestamp(t.tvl_at))          AS tvl_at
FROM
(
    SELECT chain_id, intDiv(top - 1 - hour, {period_seconds:UInt32}) AS k,
           arraySum(arraySort(groupArray(volume_usd))) AS volume_usd,
           arraySum(arraySort(groupArray(fees_usd))) AS fees_usd, count() AS hours
    FROM
    (
        SELECT chain_id, toInt64(toUnixTimestamp(hour_start)) AS hour, volume_usd, fees_usd,
               {tops:Array(Int64)}[indexOf({chain_ids:Array(UInt32)}, chain_id)] AS top,
               {ends:Array(Int64)}[indexOf({chain_ids:Array(UInt32)}, chain_id)] AS anchor
        FROM protocol_hourly FINAL
        WHERE chain_id IN {chain_ids:Array(UInt32)}
          AND hour_start >= toDateTime64(arrayMin({tops:Array(Int64)}) - {periods:UInt32} * {period_seconds:UInt32}, 3, 'UTC')
          AND hour_start <  toDateTime64(arrayMax({ends:Array(Int64)}), 3, 'UTC')
    )
    WHERE hour < anchor AND hour >= top - {periods:UInt32} * {period_seconds:UInt32}
    GROUP BY chain_id, k
) AS f
FULL OUTER JOIN
(
    SELECT chain_id, intDiv(top - at, {period_seconds:UInt32}) AS k,
           argMax(tvl_usd, at) AS tvl_usd, max(snapshot_at) AS tvl_at
    FROM
    (
        SELECT chain_id, snapshot_at, toInt64(toUnixTimestamp(snapshot_at)) AS at, tvl_usd,
               {tops:Array(Int64)}[indexOf({chain_ids:Array(UInt32)}, chain_id)] AS top,
               {snapshot_ats:Array(DateTime64(3, 'UTC'))}[indexOf({chain_ids:Array(UInt32)}, chain_id)] AS bound
        FROM protocol_snap15m FINAL
        WHERE chain_id IN {chain_ids:Array(UInt32)}
          AND snapshot_at > toDateTime64(arrayMin({tops:Array(Int64)}) - {periods:UInt32} * {period_seconds:UInt32}, 3, 'UTC')
          AND snapshot_at <= toDateTime64(arrayMax({tops:Array(Int64)}), 3, 'UTC')
          AND (chain_id, snapshot_at) IN
          (
              SELECT chain_id, snapshot_at FROM snapshot_runs FINAL
              WHERE chain_id IN {chain_ids:Array(UInt32)} AND status = 'success'
          )
    )
    WHERE snapshot_at <= bound AND at <= top AND at > top - {periods:UInt32} * {period_seconds:UInt32}
    GROUP BY chain_id, k
) AS t USING (chain_id, k)
ORDER BY chain_id, k
SETTINGS join_use_nulls = 1
