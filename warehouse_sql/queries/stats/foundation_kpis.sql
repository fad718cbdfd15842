-- /api/stats/foundation/kpis, /api/stats/gauges/{gaugeAddress}/kpis and the KPI list of
-- /api/stats/epochs/{epochStart}: foundation KPI rows from ONE representative snapshot per epoch
-- (the latest successful snapshot inside the epoch, up to the current one, that has KPI rows),
-- newest epoch first, then by the foundation's votes.
-- Parameters: {chain_id:UInt32}, {snapshot_at:DateTime64(3, 'UTC')}, {epoch:Int64} (-1 = every
-- epoch), {pool:String} ('' = every pool), {gauge_address:String} ('' = every gauge),
-- {latest_only:Bool} (only the newest such epoch), {limit:UInt32}
WITH reps AS
(
    SELECT epoch_start, max(snapshot_at) AS rep
    FROM kpi_snap15m FINAL
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
    toInt64(toUnixTimestamp(k.epoch_start))       AS epoch,
    toDateTime(k.snapshot_at, 'UTC')              AS snapshotAt,
    k.gauge_address                               AS gaugeAddress,
    k.pool_address                                AS poolAddress,
    toString(k.foundation_votes_raw)              AS voteWeightRaw,
    toFloat64(k.foundation_votes_raw) / 1e18      AS voteWeight,
    k.vote_share                                  AS voteShare,
    k.bribe_cost_usd                              AS bribeCostUsd,
    toString(k.emissions_directed_raw)            AS emissionsDirectedRaw,
    toFloat64(k.emissions_directed_raw) / 1e18    AS emissionsDirected,
    k.emissions_directed_usd                      AS emissionsDirectedUsd,
    k.tvl_usd                                     AS tvlUsd,
    k.tvl_prev_usd                                AS tvlPrevUsd,
    k.tvl_delta                                   AS tvlDelta,
    k.volume_usd                                  AS volumeUsd,
    k.volume_prev_usd                             AS volumePrevUsd,
    k.volume_delta                                AS volumeDelta,
    k.fees_usd                                    AS feesUsd,
    k.fees_prev_usd                               AS feesPrevUsd,
    k.fees_delta                                  AS feesDelta,
    k.value_per_bribe_usd                         AS valuePerBribeUsd,
    k.classification                              AS classification,
    k.methodology_version                         AS methodologyVersion
FROM kpi_snap15m AS k FINAL
WHERE k.chain_id = {chain_id:UInt32}
  AND (k.epoch_start, k.snapshot_at) IN (SELECT epoch_start, rep FROM reps)
  AND (NOT {latest_only:Bool} OR k.epoch_start = (SELECT max(epoch_start) FROM reps))
  AND ({pool:String} = '' OR k.pool_address = {pool:String})
  AND ({gauge_address:String} = '' OR k.gauge_address = {gauge_address:String})
ORDER BY epoch DESC, k.foundation_votes_raw DESC, gaugeAddress ASC
LIMIT {limit:UInt32}
