-- The pools a chain indexed at one published snapshot: their type and tokens (category rules).
-- Parameters: {chain_id:UInt32}, {snapshot_ts:Int64} (Unix seconds)
SELECT lower(pool_address) AS address, pool_type, lower(token0_address) AS token0, lower(token1_address) AS token1
FROM pool_snap15m FINAL
WHERE chain_id = {chain_id:UInt32}
  AND snapshot_at = toDateTime64({snapshot_ts:Int64}, 3, 'UTC')
ORDER BY address
