-- Row counts of published snapshots in [from_ts, to_ts]: each successful snapshot_at must have
-- exactly one protocol row and as many pool rows as the protocol row's pool_count.
-- Parameters: {chain_id:UInt32}, {from_ts:Int64}, {to_ts:Int64} (Unix seconds, inclusive)
SELECT
    count()                                                        AS published,
    countIf(protocol_rows != 1)                                    AS bad_protocol_rows,
    countIf(pool_rows != pool_count)                               AS bad_pool_rows,
    arraySort(groupArrayIf(10)(snapshot_ts, protocol_rows != 1 OR pool_rows != pool_count)) AS examples
FROM
(
    SELECT
        toInt64(toUnixTimestamp(r.snapshot_at)) AS snapshot_ts,
        p.protocol_rows                         AS protocol_rows,
        p.pool_count                            AS pool_count,
        pl.pool_rows                            AS pool_rows
    FROM
    (
        SELECT DISTINCT snapshot_at
        FROM snapshot_runs FINAL
        WHERE chain_id = {chain_id:UInt32}
          AND status = 'success'
          AND snapshot_at >= toDateTime64({from_ts:Int64}, 3, 'UTC')
          AND snapshot_at <= toDateTime64({to_ts:Int64}, 3, 'UTC')
    ) AS r
    LEFT JOIN
    (
        SELECT snapshot_at, count() AS protocol_rows, any(pool_count) AS pool_count
        FROM protocol_snap15m FINAL
        WHERE chain_id = {chain_id:UInt32}
          AND snapshot_at >= toDateTime64({from_ts:Int64}, 3, 'UTC')
          AND snapshot_at <= toDateTime64({to_ts:Int64}, 3, 'UTC')
        GROUP BY snapshot_at
    ) AS p ON p.snapshot_at = r.snapshot_at
    LEFT JOIN
    (
        SELECT snapshot_at, count() AS pool_rows
        FROM pool_snap15m FINAL
        WHERE chain_id = {chain_id:UInt32}
          AND snapshot_at >= toDateTime64({from_ts:Int64}, 3, 'UTC')
          AND snapshot_at <= toDateTime64({to_ts:Int64}, 3, 'UTC')
        GROUP BY snapshot_at
    ) AS pl ON pl.snapshot_at = r.snapshot_at
)
