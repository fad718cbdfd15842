-- Freshness of a chain's snapshots: the latest successful snapshot and the latest attempt.
-- Parameters: {chain_id:UInt32}
-- Always one row; last_success_at / last_run_at are NULL when there is no such run.
SELECT
    if(countIf(status = 'success') > 0, maxIf(snapshot_at, status = 'success'), NULL) AS last_success_at,
    if(count() > 0, max(snapshot_at), NULL)                                          AS last_run_at,
    argMax(status, (snapshot_at, finished_at))                                       AS last_run_status,
    argMax(run_id, (snapshot_at, finished_at))                                       AS last_run_id
FROM snapshot_runs FINAL
WHERE chain_id = {chain_id:UInt32}
