-- The latest successful snapshot of every chain: what each API worker's snapshot pointer holds
-- (api/snapshots.py), refreshed in the background instead of asked per request.
-- No parameters. One row per chain with a successful snapshot. FINAL: a run's row may be
-- rewritten with a newer finished_at before merges; the newest version of each run decides.
-- (Aliases differ from the column names: an alias would shadow the column inside argMax.)
SELECT
    chain_id,
    argMax(snapshot_at, (snapshot_at, finished_at))  AS latest_at,
    argMax(run_id, (snapshot_at, finished_at))       AS latest_run_id,
    argMax(block_number, (snapshot_at, finished_at)) AS latest_block,
    argMax(sources, (snapshot_at, finished_at))      AS latest_sources,
    argMax(block_timestamp, (snapshot_at, finished_at)) AS latest_block_time,
    argMax(finished_at, (snapshot_at, finished_at))  AS latest_finished_at
FROM snapshot_runs FINAL
WHERE status = 'success'
GROUP BY chain_id
ORDER BY chain_id
