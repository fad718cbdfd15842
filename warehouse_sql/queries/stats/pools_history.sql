-- /api/stats/pools/{poolId} `history`: the pool in the latest 672 successful snapshots up to
-- the served one (about 7 days), oldest first. Failed runs never appear.
-- Parameters: {chain_id:UInt32}, {snapshot_at:DateTime64(3, 'UTC')}, {pool_id:String}
SELECT *
FROM
(
    SELECT
        snapshot_at                                           AS snapshotAt,
        tvl_usd                                               AS tvlUsd,
        volume_24h_usd                                        AS volume24hUsd,
        fees_24h_usd                                          AS fees24hUsd,
        if(tvl_usd > 0, fees_24h_usd * 365 / tvl_usd, NULL)   AS feeApr,
        fee_pips                                              AS feePips
    FROM pool_snap15m FINAL
    WHERE chain_id = {chain_id:UInt32}
      AND pool_address = {pool_id:String}
      AND snapshot_at <= {snapshot_at:DateTime64(3, 'UTC')}
      AND snapshot_at IN
      (
          SELECT snapshot_at
          FROM snapshot_runs FINAL
          WHERE chain_id = {chain_id:UInt32}
            AND status = 'success'
            AND snapshot_at <= {snapshot_at:DateTime64(3, 'UTC')}
      )
    ORDER BY snapshot_at DESC
    LIMIT 672
)
ORDER BY snapshotAt
