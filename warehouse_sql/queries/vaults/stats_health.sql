-- /api/v1/health: the latest successful stats snapshot (time and block), one row or none.
-- Parameters: {chain_id:UInt32}
SELECT snapshot_at AS snapshotAt, block_number AS blockNumber
FROM snapshot_runs FINAL
WHERE chain_id = {chain_id:UInt32} AND status = 'success'
ORDER BY snapshot_at DESC, finished_at DESC
LIMIT 1
