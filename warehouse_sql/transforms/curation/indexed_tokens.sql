-- The tokens a chain indexed at one published snapshot, with the metadata a token list carries.
-- Parameters: {chain_id:UInt32}, {snapshot_ts:Int64} (Unix seconds)
SELECT lower(token_address) AS address, symbol, name, decimals
FROM token_snap15m FINAL
WHERE chain_id = {chain_id:UInt32}
  AND snapshot_at = toDateTime64({snapshot_ts:Int64}, 3, 'UTC')
ORDER BY address
