-- Freshness of each chain's snapshots: the latest successful snapshot (with the time of the block
-- it read and when it was published) and the latest attempt (its status, run and error, cut to
-- 300 characters).
-- Parameters: {chain_ids:Array(UInt32)}
-- One row per chain of chain_ids with any run, by chain id; the last_success_* columns are NULL
-- when the chain has no successful run. A chain without any run has no row.
SELECT
    chain_id,
    if(countIf(status = 'success') > 0, maxIf(snapshot_at, status = 'success'), NULL) AS last_success_at,
    if(countIf(status = 'success') > 0,
       argMaxIf(block_timestamp, (snapshot_at, finished_at), status = 'success'), NULL) AS last_success_block_time,
    if(countIf(status = 'success') > 0,
       argMaxIf(finished_at, (snapshot_at, finished_at), status = 'success'), NULL)     AS last_success_published_at,
    max(snapshot_at)                                                                  AS last_run_at,
    argMax(status, (snapshot_at, finished_at))                                        AS last_run_status,
    argMax(run_id, (snapshot_at, finished_at))                                        AS last_run_id,
    substringUTF8(argMax(error, (snapshot_at, finished_at)), 1, 300)                  AS last_run_error
FROM snapshot_runs FINAL
WHERE chain_id IN {chain_ids:Array(UInt32)}
GROUP BY chain_id
ORDER BY chain_id
