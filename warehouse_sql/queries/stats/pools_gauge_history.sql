-- /api/stats/pools/{poolId} `gauge` and `gaugeHistory`: the pool's gauge_snap15m rows in the
-- latest 672 successful snapshots up to the served one, oldest first (the handler takes the
-- served snapshot's row as `gauge`). APRs are fractions per year; raw amounts 1e18-scaled.
-- Parameters: {chain_id:UInt32}, {snapshot_at:DateTime64(3, 'UTC')}, {pool_id:String}
SELECT *
FROM
(
    SELECT
        snapshot_at                           AS snapshotAt,
        gauge_address                         AS address,
        is_alive                              AS isAlive,
        toUnixTimestamp(epoch_start)          AS epochStart,
        toFloat64(votes_raw) / 1e18           AS votes,
        toString(votes_raw)                   AS votesRaw,
        foundation_vote_share                 AS foundationVoteShare,
        toFloat64(emissions_epoch_raw) / 1e18 AS emissionsEpoch,
        toString(emissions_epoch_raw)         AS emissionsEpochRaw,
        bribes_epoch_usd                      AS bribesEpochUsd,
        fees_epoch_usd                        AS feesEpochUsd,
        emission_apr                          AS emission,
        fee_apr                               AS fee,
        bribe_apr                             AS bribe,
        total_apr                             AS total
    FROM gauge_snap15m FINAL
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
    ORDER BY snapshot_at DESC, is_alive DESC
    LIMIT 1 BY snapshot_at
    LIMIT 672
)
ORDER BY snapshotAt
