-- /api/stats/foundation/votes (and the vote list of /api/stats/epochs/{epochStart}): the
-- foundation veNFTs' allocations from ONE representative snapshot per epoch: the latest successful
-- snapshot inside the epoch (up to the current snapshot) that holds foundation vote rows.
-- Parameters: {chain_id:UInt32}, {snapshot_at:DateTime64(3, 'UTC')}, {epoch:Int64} (-1 = every
-- epoch), {latest_only:Bool} (only the newest such epoch)
WITH reps AS
(
    SELECT epoch_start, max(snapshot_at) AS rep
    FROM foundation_vote_snap15m FINAL
    WHERE chain_id = {chain_id:UInt32}
      AND snapshot_at <= {snapshot_at:DateTime64(3, 'UTC')}
      AND ({epoch:Int64} < 0 OR epoch_start = toDateTime64({epoch:Int64}, 3, 'UTC'))
      AND snapshot_at IN
      (
          SELECT snapshot_at FROM snapshot_runs FINAL
          WHERE chain_id = {chain_id:UInt32} AND status = 'success' AND snapshot_at <= {snapshot_at:DateTime64(3, 'UTC')}
      )
    GROUP BY epoch_start
)
SELECT
    v.venft_id                                    AS veNftId,
    toInt64(toUnixTimestamp(v.epoch_start))       AS epoch,
    v.pool_address                                AS poolAddress,
    v.gauge_address                               AS gaugeAddress,
    toString(v.weight_raw)                        AS weightRaw,
    toFloat64(v.weight_raw) / 1e18                AS weight,
    toDateTime(v.voted_at, 'UTC')                 AS votedAt,
    toDateTime(v.snapshot_at, 'UTC')              AS snapshotAt
FROM foundation_vote_snap15m AS v FINAL
WHERE v.chain_id = {chain_id:UInt32}
  AND (v.epoch_start, v.snapshot_at) IN (SELECT epoch_start, rep FROM reps)
  AND (NOT {latest_only:Bool} OR v.epoch_start = (SELECT max(epoch_start) FROM reps))
ORDER BY epoch DESC, veNftId ASC, poolAddress ASC
