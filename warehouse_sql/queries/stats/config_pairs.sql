-- /api/stats/config trackedPairs: the pair keys of the pools in one snapshot, as
-- "<symbol0>-<symbol1>" in lower case, sorted and distinct.
-- Parameters: {chain_id:UInt32}, {snapshot_at:DateTime64(3, 'UTC')}
SELECT DISTINCT
    concat(lower(token0_symbol), '-', lower(token1_symbol)) AS pair
FROM pool_snap15m FINAL
WHERE chain_id = {chain_id:UInt32}
  AND snapshot_at = {snapshot_at:DateTime64(3, 'UTC')}
ORDER BY pair
