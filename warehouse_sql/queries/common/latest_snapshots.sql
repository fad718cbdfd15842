-- The latest successful snapshot of every chain: what each API worker's snapshot pointer holds
-- (api/snapshots.py), refreshed in the background instead of asked per request; and the boundary
-- of the chain's newest failed attempt when it is later than that snapshot (NULL otherwise): the
-- chain's latest refresh failed, its answers rest on an older snapshot (state `failed` in /v1).
-- No parameters. One row per chain with a successful snapshot. FINAL: a run's row may be
-- rewritten with a newer finished_at before merges; the newest version of each run decides.
-- (Aliases differ from the column names: an alias would shadow the column inside argMax.)
SELECT
    chain_id,
    argMaxIf(snapshot_at, (snapshot_at, finished_at), status = 'success')     AS latest_at,
    argMaxIf(run_id, (snapshot_at, finished_at), status = 'success')          AS latest_run_id,
    argMaxIf(block_number, (snapshot_at, finished_at), status = 'success')    AS latest_block,
    argMaxIf(sources, (snapshot_at, finished_at), status = 'success')         AS latest_sources,
    argMaxIf(block_timestamp, (snapshot_at, finished_at), status = 'success') AS latest_block_time,
    argMaxIf(finished_at, (snapshot_at, finished_at), status = 'success')     AS latest_finished_at,
    if(maxIf(snapshot_at, status = 'failed') > latest_at, toNullable(maxIf(snapshot_at, status = 'failed')), NULL)
                                                                              AS failed_at
FROM snapshot_runs FINAL
GROUP BY chain_id
HAVING countIf(status = 'success') > 0
ORDER BY chain_id
