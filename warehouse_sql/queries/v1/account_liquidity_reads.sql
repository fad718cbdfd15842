-- The selected chains whose providers' positions were read at their published snapshot
-- (liquidity_position_reads): there an address without a position row has none, elsewhere its
-- positions (and their unclaimed emissions) are unknown.
-- Parameters: {chain_ids:Array(UInt32)}, {snapshot_ats:Array(DateTime64(3, 'UTC'))}.
SELECT DISTINCT chain_id
FROM liquidity_position_reads FINAL
WHERE chain_id IN {chain_ids:Array(UInt32)}
  AND snapshot_at = {snapshot_ats:Array(DateTime64(3, 'UTC'))}[indexOf({chain_ids:Array(UInt32)}, chain_id)]
  AND snapshot_at IN {snapshot_ats:Array(DateTime64(3, 'UTC'))}
