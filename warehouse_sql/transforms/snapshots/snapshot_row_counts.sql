-- What the snapshot assets stored for each snapshot_at in [from_ts, to_ts]: the protocol row's
-- block and pool_count, and the row count of each snapshot table. Publication reads this to
-- verify completeness and to record rows_written; one row per snapshot_at with a protocol row.
-- Parameters: {chain_id:UInt32}, {from_ts:Int64}, {to_ts:Int64} (Unix seconds, inclusive)
SELECT
    toInt64(toUnixTimestamp(p.snapshot_at))     AS snapshot_ts,
    p.block_number                              AS block_number,
    toInt64(toUnixTimestamp(p.block_timestamp)) AS block_ts,
    p.pool_count                                AS pool_count,
    p.protocol_rows                             AS protocol_rows,
    pl.pool_rows                                AS pool_rows,
    t.token_rows                                AS token_rows
FROM
(
    SELECT snapshot_at, any(block_number) AS block_number, any(block_timestamp) AS block_timestamp,
           any(pool_count) AS pool_count, count() AS protocol_rows
    FROM protocol_snap15m FINAL
    WHERE chain_id = {chain_id:UInt32}
      AND snapshot_at >= toDateTime64({from_ts:Int64}, 3, 'UTC')
      AND snapshot_at <= toDateTime64({to_ts:Int64}, 3, 'UTC')
    GROUP BY snapshot_at
) AS p
LEFT JOIN
(
    SELECT snapshot_at, count() AS pool_rows
    FROM pool_snap15m FINAL
    WHERE chain_id = {chain_id:UInt32}
      AND snapshot_at >= toDateTime64({from_ts:Int64}, 3, 'UTC')
      AND snapshot_at <= toDateTime64({to_ts:Int64}, 3, 'UTC')
    GROUP BY snapshot_at
) AS pl ON pl.snapshot_at = p.snapshot_at
LEFT JOIN
(
    SELECT snapshot_at, count() AS token_rows
    FROM token_snap15m FINAL
    WHERE chain_id = {chain_id:UInt32}
      AND snapshot_at >= toDateTime64({from_ts:Int64}, 3, 'UTC')
      AND snapshot_at <= toDateTime64({to_ts:Int64}, 3, 'UTC')
    GROUP BY snapshot_at
) AS t ON t.snapshot_at = p.snapshot_at
ORDER BY p.snapshot_at
