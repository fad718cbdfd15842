-- The latest successful snapshot of a chain: the one snapshot every snapshot-backed route reads.
-- Parameters: {chain_id:UInt32}
-- One row (none before the first successful run). FINAL: a run's row may be rewritten with a
-- newer finished_at before merges; the newest version of each run decides its status.
SELECT
    snapshot_at,
    run_id,
    block_number,
    sources,
    block_timestamp,
    finished_at
FROM snapshot_runs FINAL
WHERE chain_id = {chain_id:UInt32}
  AND status = 'success'
ORDER BY snapshot_at DESC, finished_at DESC
LIMIT 1
