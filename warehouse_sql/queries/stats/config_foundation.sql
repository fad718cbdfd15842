-- /api/stats/config foundation.veNftIds: the foundation's veNFT ids in the snapshot (no row when
-- the snapshot has no foundation row).
-- Parameters: {chain_id:UInt32}, {snapshot_at:DateTime64(3, 'UTC')}
SELECT venft_ids AS veNftIds
FROM foundation_snap15m FINAL
WHERE chain_id = {chain_id:UInt32}
  AND snapshot_at = {snapshot_at:DateTime64(3, 'UTC')}
LIMIT 1
