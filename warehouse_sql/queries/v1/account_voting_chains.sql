-- /v1/accounts/{address}/voting-positions, per selected chain at its published snapshot: whether
-- the chain's locks were read there (ve_snap15m's lock count equals the veNFTs venft_snap15m holds
-- for the snapshot: per-lock state is kept for the recent snapshots alone) and the veNFTs
-- {address:String} owns: their count, locked amount and voting power. One row per chain with a
-- ve_snap15m row at its snapshot.
-- Parameters: {address:String} (lower case), {chain_ids:Array(UInt32)},
-- {snapshot_ats:Array(DateTime64(3, 'UTC'))}.
WITH locks AS (
    SELECT chain_id, count() AS locks, countIf(owner = {address:String}) AS owned,
           sumIf(locked_raw, owner = {address:String}) AS locked, sumIf(voting_power_raw, owner = {address:String}) AS power,
           any(block_number) AS block_number
    FROM venft_snap15m FINAL
    WHERE chain_id IN {chain_ids:Array(UInt32)}
      AND snapshot_at = {snapshot_ats:Array(DateTime64(3, 'UTC'))}[indexOf({chain_ids:Array(UInt32)}, chain_id)]
      AND snapshot_at IN {snapshot_ats:Array(DateTime64(3, 'UTC'))}
    GROUP BY chain_id
)
SELECT ve.chain_id AS chain_id, ve.block_number AS block_number,
       ve.lock_count = ifNull(l.locks, 0)                     AS locks_read,
       ifNull(l.owned, 0)                                     AS owned,
       toString(ifNull(l.locked, 0))                          AS locked_raw,
       toString(ifNull(l.power, 0))                           AS voting_power_raw
FROM ve_snap15m AS ve FINAL
LEFT JOIN locks AS l ON l.chain_id = ve.chain_id
WHERE ve.chain_id IN {chain_ids:Array(UInt32)}
  AND ve.snapshot_at = {snapshot_ats:Array(DateTime64(3, 'UTC'))}[indexOf({chain_ids:Array(UInt32)}, ve.chain_id)]
  AND ve.snapshot_at IN {snapshot_ats:Array(DateTime64(3, 'UTC'))}
ORDER BY chain_id
SETTINGS join_use_nulls = 1
