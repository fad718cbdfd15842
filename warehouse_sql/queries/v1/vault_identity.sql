-- One auto-managed vault of a chain as its latest vault_snap15m row at or before the chain's
-- published snapshot {snapshot_at} (its kind, pool, tokens with symbols and decimals, share
-- decimals), and how far the chain's vault events are read (chain_coverage 'vault_events': first
-- and last second; NULL when never read). No row: the vault has no snapshot row by then (not
-- deployed, or not a vault of the chain's book).
-- Parameters: {chain_id:UInt32}, {address:String} (lower-case), {snapshot_at:DateTime64(3, 'UTC')}.
SELECT vault_address, vault_key, kind, pool_address,
       token0_address, token0_symbol, token0_decimals, token1_address, token1_symbol, token1_decimals,
       share_decimals,
       (SELECT toInt64(toUnixTimestamp(min(first_at))) FROM chain_coverage
        WHERE chain_id = {chain_id:UInt32} AND dataset = 'vault_events' HAVING count() > 0) AS events_from,
       (SELECT toInt64(toUnixTimestamp(max(last_at))) FROM chain_coverage
        WHERE chain_id = {chain_id:UInt32} AND dataset = 'vault_events' HAVING count() > 0) AS events_through
FROM vault_snap15m FINAL
WHERE chain_id = {chain_id:UInt32} AND vault_address = {address:String} AND snapshot_at <= {snapshot_at:DateTime64(3, 'UTC')}
ORDER BY snapshot_at DESC
LIMIT 1
