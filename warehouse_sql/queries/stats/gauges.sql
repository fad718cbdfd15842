-- /api/stats/gauges and /api/stats/gauges/{gaugeAddress}: gauge rows with their pool (type, token
-- symbols, TVL), the epoch's votes and the foundation's share, emissions and the APR breakdown, in
-- the newest {points} successful snapshots up to the snapshot; newest snapshot first, most-voted
-- first within one. The list binds points = 1 and no gauge; the detail binds one gauge and 672
-- points (about 7 days), serves the first row as `current` (when it is the snapshot's own) and
-- all of them, oldest first, as the APR `history`.
-- Parameters: {chain_id:UInt32}, {snapshot_at:DateTime64(3, 'UTC')}, {gauge_address:String} ('' = every
-- gauge), {points:UInt16}
-- Pool fields are null when the snapshot has no row for the gauge's pool.
WITH snapshots AS
(
    SELECT DISTINCT snapshot_at
    FROM snapshot_runs FINAL
    WHERE chain_id = {chain_id:UInt32} AND status = 'success' AND snapshot_at <= {snapshot_at:DateTime64(3, 'UTC')}
    ORDER BY snapshot_at DESC
    LIMIT {points:UInt16}
)
SELECT
    g.snapshot_at                                     AS snapshotAt,
    g.gauge_address                                   AS gaugeAddress,
    g.pool_address                                    AS poolAddress,
    if(p.pool_address = '', NULL, p.pool_type)        AS poolType,
    if(p.pool_address = '', NULL, p.token0_symbol)    AS token0Symbol,
    if(p.pool_address = '', NULL, p.token1_symbol)    AS token1Symbol,
    if(p.pool_address = '', NULL, p.tvl_usd)          AS tvlUsd,
    g.is_alive                                        AS isAlive,
    toInt64(toUnixTimestamp(g.epoch_start))           AS epochStart,
    toString(g.votes_raw)                             AS votesRaw,
    toFloat64(g.votes_raw) / 1e18                     AS votes,
    toString(g.foundation_votes_raw)                  AS foundationVotesRaw,
    g.foundation_vote_share                           AS foundationVoteShare,
    toString(g.emissions_epoch_raw)                   AS emissionsEpochRaw,
    toFloat64(g.emissions_epoch_raw) / 1e18           AS emissionsEpoch,
    g.bribes_epoch_usd                                AS bribesEpochUsd,
    g.fees_epoch_usd                                  AS feesEpochUsd,
    g.emission_apr                                    AS aprEmission,
    g.fee_apr                                         AS aprFee,
    g.bribe_apr                                       AS aprBribe,
    g.total_apr                                       AS aprTotal
FROM gauge_snap15m AS g FINAL
LEFT JOIN
(
    SELECT snapshot_at, pool_address, pool_type, token0_symbol, token1_symbol, tvl_usd
    FROM pool_snap15m FINAL
    WHERE chain_id = {chain_id:UInt32} AND snapshot_at IN snapshots
) AS p ON p.snapshot_at = g.snapshot_at AND p.pool_address = g.pool_address
WHERE g.chain_id = {chain_id:UInt32}
  AND g.snapshot_at IN snapshots
  AND ({gauge_address:String} = '' OR g.gauge_address = {gauge_address:String})
ORDER BY g.snapshot_at DESC, g.votes_raw DESC, g.gauge_address ASC
