-- /api/stats/bribes/totals: one row per epoch of the bribes deposited up to the snapshot, the 52
-- newest epochs, newest first. totalUsd sums the USD values at deposit time; it is null when a
-- deposit of the epoch has no USD value (a total that misses a part is unknown).
-- Parameters: {chain_id:UInt32}, {snapshot_at:DateTime64(3, 'UTC')}
SELECT
    toInt64(toUnixTimestamp(epoch))                                   AS epochStart,
    if(countIf(amount_usd IS NULL) > 0, NULL, arraySum(arraySort(groupArray(amount_usd)))) AS totalUsd,
    count()                                                           AS count
FROM bribe_events FINAL
WHERE chain_id = {chain_id:UInt32}
  AND block_timestamp <= {snapshot_at:DateTime64(3, 'UTC')}
GROUP BY epoch
ORDER BY epoch DESC
LIMIT 52
