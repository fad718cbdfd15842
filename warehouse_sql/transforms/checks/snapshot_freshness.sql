-- Freshness of published snapshots: the newest successful snapshot_at (NULL when none) and how
-- many successful snapshots exist. FINAL: the newest version of each run row decides its status.
-- Parameters: {chain_id:UInt32}
SELECT
    if(countIf(status = 'success') > 0,
       toInt64(toUnixTimestamp(maxIf(snapshot_at, status = 'success'))), NULL) AS last_success_ts,
    countIf(status = 'success')                                                 AS successes,
    countIf(status = 'failed')                                                  AS failures
FROM snapshot_runs FINAL
WHERE chain_id = {chain_id:UInt32}
