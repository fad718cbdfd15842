-- /api/stats/pools: pool snapshots (PoolSnapshot) of one snapshot, filtered, sorted, limited.
-- Also the `current` of /api/stats/pools/{poolId} ({pool} set) and /api/stats/dynamic-fees
-- ({fee_kind} = 'dynamic_or_custom': CL pools with a dynamic or custom fee).
-- Parameters: {chain_id:UInt32}, {snapshot_at:DateTime64(3, 'UTC')}, {sort:String} (tvl |
-- volume24h | fees24h | apr | gaugeApr, descending, unknown last), {type:String} (all | v2 | v3),
-- {limit:UInt16}, {pair_a:String}, {pair_b:String} (lower-case symbols, either order; '' = any),
-- {token:String} (lower-case address on either side; '' = any), {min_tvl:Float64} (< 0 = no
-- filter; otherwise pools with unknown TVL are dropped too), {incentivized:Int8} (-1 = any,
-- 1 = only incentivized, 0 = only not), {pool:String} ('' = any), {fee_kind:String}.
-- feeApr = fees24h * 365 / TVL (NULL when either is unknown or TVL is 0). The gauge figures come
-- from gauge_snap15m at the same (chain_id, snapshot_at, pool_address): NULL until it is filled.
-- incentivized: the pool's gauge is alive and, when its emissions are known, receives some this
-- epoch (gauges emit the core token).
SELECT
    p.pool_address                                        AS address,
    p.pool_type                                           AS type,
    if(p.pool_type = 'cl', 'v3', 'v2')                    AS version,
    p.token0_address                                      AS token0Address,
    p.token0_symbol                                       AS token0Symbol,
    p.token0_decimals                                     AS token0Decimals,
    p.token1_address                                      AS token1Address,
    p.token1_symbol                                       AS token1Symbol,
    p.token1_decimals                                     AS token1Decimals,
    p.fee_pips                                            AS feePips,
    p.is_dynamic_fee                                      AS isDynamicFee,
    p.is_custom_fee                                       AS isCustomFee,
    p.tick_spacing                                        AS tickSpacing,
    p.tvl_usd                                             AS tvlUsd,
    p.volume_24h_usd                                      AS volume24hUsd,
    p.fees_24h_usd                                        AS fees24hUsd,
    if(p.tvl_usd > 0, p.fees_24h_usd * 365 / p.tvl_usd, NULL) AS feeApr,
    p.hours_24h                                           AS hours24h,
    pr.flow_window_end                                    AS flowWindowEnd,
    p.gauge_address                                       AS gaugeAddress,
    p.gauge_alive                                         AS gaugeAlive,
    toBool(g.gauge_address IS NOT NULL)                   AS hasGaugeSnapshot,
    g.emission_apr                                        AS aprEmission,
    g.fee_apr                                             AS aprFee,
    g.bribe_apr                                           AS aprBribe,
    g.total_apr                                           AS gaugeApr,
    toBool(coalesce(p.gauge_alive, false) AND (g.emissions_epoch_raw IS NULL OR g.emissions_epoch_raw > 0)) AS incentivized
FROM
(
    SELECT *
    FROM pool_snap15m FINAL
    WHERE chain_id = {chain_id:UInt32}
      AND snapshot_at = {snapshot_at:DateTime64(3, 'UTC')}
) AS p
LEFT JOIN
(
    -- toNullable: a pool without a gauge row joins to NULL rather than to '' / false
    SELECT chain_id, snapshot_at, pool_address, toNullable(gauge_address) AS gauge_address,
           emission_apr, fee_apr, bribe_apr, total_apr, emissions_epoch_raw
    FROM gauge_snap15m FINAL
    WHERE chain_id = {chain_id:UInt32}
      AND snapshot_at = {snapshot_at:DateTime64(3, 'UTC')}
    ORDER BY is_alive DESC, gauge_address
    LIMIT 1 BY pool_address
) AS g ON g.chain_id = p.chain_id AND g.snapshot_at = p.snapshot_at AND g.pool_address = p.pool_address
LEFT JOIN
(
    SELECT chain_id, snapshot_at, flow_window_end
    FROM protocol_snap15m FINAL
    WHERE chain_id = {chain_id:UInt32}
      AND snapshot_at = {snapshot_at:DateTime64(3, 'UTC')}
) AS pr ON pr.chain_id = p.chain_id AND pr.snapshot_at = p.snapshot_at
WHERE ({type:String} = 'all' OR ({type:String} = 'v3') = (p.pool_type = 'cl'))
  AND ({pool:String} = '' OR p.pool_address = {pool:String})
  AND ({token:String} = '' OR p.token0_address = {token:String} OR p.token1_address = {token:String})
  AND ({pair_a:String} = ''
       OR (lower(p.token0_symbol) = {pair_a:String} AND lower(p.token1_symbol) = {pair_b:String})
       OR (lower(p.token0_symbol) = {pair_b:String} AND lower(p.token1_symbol) = {pair_a:String}))
  AND ({min_tvl:Float64} < 0 OR ifNull(p.tvl_usd >= {min_tvl:Float64}, false))
  AND ({incentivized:Int8} < 0 OR incentivized = ({incentivized:Int8} = 1))
  AND ({fee_kind:String} = '' OR (p.pool_type = 'cl' AND (p.is_dynamic_fee OR p.is_custom_fee)))
ORDER BY
    multiIf({sort:String} = 'volume24h', volume24hUsd,
            {sort:String} = 'fees24h', fees24hUsd,
            {sort:String} = 'apr', feeApr,
            {sort:String} = 'gaugeApr', gaugeApr,
            tvlUsd) DESC NULLS LAST,
    address
LIMIT {limit:UInt16}
