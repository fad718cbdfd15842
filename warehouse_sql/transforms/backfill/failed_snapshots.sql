-- Snapshot times in [from_ts, to_ts] for which the run already recorded its failure (with the
-- failing asset's cause): the run-failure sensor leaves them as they are.
-- Parameters: {chain_id:UInt32}, {run_id:String}, {from_ts:Int64}, {to_ts:Int64} (Unix seconds, inclusive)
SELECT DISTINCT toInt64(toUnixTimestamp(snapshot_at)) AS snapshot_ts
FROM snapshot_runs FINAL
WHERE chain_id = {chain_id:UInt32}
  AND run_id = {run_id:String}
  AND status = 'failed'
  AND snapshot_at >= toDateTime64({from_ts:Int64}, 3, 'UTC')
  AND snapshot_at <= toDateTime64({to_ts:Int64}, 3, 'UTC')
ORDER BY snapshot_ts
