-- Snapshot times in [from_ts, to_ts] that already have a successful run: a re-run of the
-- backfill skips them (pass force to re-materialize anyway).
-- Parameters: {chain_id:UInt32}, {from_ts:Int64}, {to_ts:Int64} (Unix seconds, inclusive)
SELECT DISTINCT toInt64(toUnixTimestamp(snapshot_at)) AS snapshot_ts
FROM snapshot_runs FINAL
WHERE chain_id = {chain_id:UInt32}
  AND status = 'success'
  AND snapshot_at >= toDateTime64({from_ts:Int64}, 3, 'UTC')
  AND snapshot_at <= toDateTime64({to_ts:Int64}, 3, 'UTC')
ORDER BY snapshot_ts
