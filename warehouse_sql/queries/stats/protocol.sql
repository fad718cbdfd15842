-- /api/stats/protocol: the protocol-wide observation of one snapshot (ProtocolSnapshot).
-- Parameters: {chain_id:UInt32}, {snapshot_at:DateTime64(3, 'UTC')} (from latest_snapshot.sql)
-- Raw UInt256 amounts are served as decimal strings plus a number scaled by 1e18 (core token);
-- flowWindowEnd and hours* feed the flowWindows object (see docs/adr/0001-units-and-scales.md).
SELECT
    snapshot_at                                   AS snapshotAt,
    block_number                                  AS blockNumber,
    tvl_usd                                       AS tvlUsd,
    tvl_v2_usd                                    AS tvlV2Usd,
    tvl_cl_usd                                    AS tvlV3Usd,
    pool_count                                    AS poolCount,
    volume_24h_usd                                AS volume24hUsd,
    fees_24h_usd                                  AS fees24hUsd,
    volume_7d_usd                                 AS volume7dUsd,
    fees_7d_usd                                   AS fees7dUsd,
    volume_30d_usd                                AS volume30dUsd,
    fees_30d_usd                                  AS fees30dUsd,
    flow_window_end                               AS flowWindowEnd,
    hours_24h                                     AS hours24h,
    hours_7d                                      AS hours7d,
    hours_30d                                     AS hours30d,
    active_gauge_count                            AS activeGaugeCount,
    toUnixTimestamp(epoch_start)                  AS epochStart,
    toFloat64(emissions_epoch_raw) / 1e18         AS emissionsThisEpoch,
    toString(emissions_epoch_raw)                 AS emissionsThisEpochRaw,
    toFloat64(ve_locked_raw) / 1e18               AS veTotalLocked,
    toString(ve_locked_raw)                       AS veTotalLockedRaw,
    toFloat64(ve_voting_power_raw) / 1e18         AS veVotingPower,
    toString(ve_voting_power_raw)                 AS veVotingPowerRaw,
    core_price_usd                                AS corePriceUsd
FROM protocol_snap15m FINAL
WHERE chain_id = {chain_id:UInt32}
  AND snapshot_at = {snapshot_at:DateTime64(3, 'UTC')}
LIMIT 1
