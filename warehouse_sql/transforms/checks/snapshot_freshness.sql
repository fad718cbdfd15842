-- Freshness of published snapshots at {now_ts}: the newest successful snapshot_at (NULL when none),
-- its age, and `stale` = 1 when there is none or it is older than {stale_after:Int64} seconds.
-- FINAL: the newest version of each run row decides its status.
-- Parameters: {chain_id:UInt32}, {now_ts:Int64}, {stale_after:Int64}
SELECT
    last_success_ts,
    {now_ts:Int64} - last_success_ts                                              AS age_seconds,
    {stale_after:Int64}                                                           AS stale_after_seconds,
    toUInt8(last_success_ts IS NULL OR {now_ts:Int64} - last_success_ts > {stale_after:Int64}) AS stale,
    successes,
    failures                                                                      AS failed_attempts
FROM
(
    SELECT
        if(countIf(status = 'success') > 0,
           toInt64(toUnixTimestamp(maxIf(snapshot_at, status = 'success'))), NULL) AS last_success_ts,
        countIf(status = 'success')                                                 AS successes,
        countIf(status = 'failed')                                                  AS failures
    FROM snapshot_runs FINAL
    WHERE chain_id = {chain_id:UInt32}
)
