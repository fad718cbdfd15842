-- /api/stats/votes (and /api/stats/foundation/votes with foundation_only): vote allocations
-- (veNFT, pool, weight, epoch) cast up to the snapshot, newest epoch first.
-- Parameters: {chain_id:UInt32}, {snapshot_at:DateTime64(3, 'UTC')}, {epoch:Int64} (-1 = every
-- epoch), {venft_id:Int64} (-1 = every veNFT), {pool:String} ('' = every pool),
-- {latest_only:Bool} (each veNFT's most recent voting epoch only, among the epochs the epoch filter
-- keeps; the pool and veNFT filters then apply to that allocation), {foundation_only:Bool}
-- weight = weight_raw / 1e18 (voting power allocated to the pool).
SELECT
    venft_id                                  AS veNftId,
    toInt64(toUnixTimestamp(epoch))           AS epoch,
    pool_address                              AS poolAddress,
    gauge_address                             AS gaugeAddress,
    toString(weight_raw)                      AS weightRaw,
    toFloat64(weight_raw) / 1e18              AS weight,
    owner                                     AS owner,
    is_foundation                             AS isFoundation,
    toDateTime(block_timestamp, 'UTC')        AS votedAt,
    block_number                              AS blockNumber
FROM vote_events FINAL
WHERE chain_id = {chain_id:UInt32}
  AND block_timestamp <= {snapshot_at:DateTime64(3, 'UTC')}
  AND ({epoch:Int64} < 0 OR epoch = toDateTime64({epoch:Int64}, 3, 'UTC'))
  AND ({venft_id:Int64} < 0 OR venft_id = {venft_id:Int64})
  AND ({pool:String} = '' OR pool_address = {pool:String})
  AND (NOT {foundation_only:Bool} OR is_foundation)
  AND (NOT {latest_only:Bool} OR (venft_id, epoch) IN (
        SELECT venft_id, max(epoch)
        FROM vote_events FINAL
        WHERE chain_id = {chain_id:UInt32}
          AND block_timestamp <= {snapshot_at:DateTime64(3, 'UTC')}
          AND ({epoch:Int64} < 0 OR epoch = toDateTime64({epoch:Int64}, 3, 'UTC'))
        GROUP BY venft_id))
ORDER BY epoch DESC, veNftId ASC, poolAddress ASC
