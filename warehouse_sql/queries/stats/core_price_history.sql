-- /api/stats/core `priceHistory`: the core token's price at every successful snapshot in
-- (snapshot_at - 7 days, snapshot_at], oldest first (at most 672 points).
-- Parameters: {chain_id:UInt32}, {snapshot_at:DateTime64(3, 'UTC')}
SELECT
    snapshot_at  AS snapshotAt,
    price_usd    AS priceUsd,
    block_number AS blockNumber
FROM core_token_snap15m FINAL
WHERE chain_id = {chain_id:UInt32}
  AND snapshot_at >  {snapshot_at:DateTime64(3, 'UTC')} - toIntervalDay(7)
  AND snapshot_at <= {snapshot_at:DateTime64(3, 'UTC')}
  AND snapshot_at IN
  (
      SELECT snapshot_at
      FROM snapshot_runs FINAL
      WHERE chain_id = {chain_id:UInt32}
        AND status = 'success'
        AND snapshot_at >  {snapshot_at:DateTime64(3, 'UTC')} - toIntervalDay(7)
        AND snapshot_at <= {snapshot_at:DateTime64(3, 'UTC')}
  )
ORDER BY snapshot_at
