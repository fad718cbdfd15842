-- /api/stats/core: the core token's factsheet row of one snapshot (core_token_snap15m) with the
-- protocol figures of the same snapshot the valuation ratios divide by.
-- Parameters: {chain_id:UInt32}, {snapshot_at:DateTime64(3, 'UTC')}
-- Ratios (NULL when an input is unknown or a divisor is 0):
--   marketCapToTvl            = market cap / protocol TVL (all pools)
--   marketCapToLiquidity      = market cap / TVL of the pools containing the core token
--   feesAnnualizedToMarketCap = protocol 24h fees x 365 / market cap
--   volume24hToLiquidity      = 24h volume of the core token's pools / their TVL (turnover)
SELECT
    c.snapshot_at                         AS snapshotAt,
    c.block_number                        AS blockNumber,
    c.token_address                       AS address,
    c.symbol                              AS symbol,
    c.decimals                            AS decimals,
    c.price_usd                           AS priceUsd,
    c.derived_eth                         AS derivedEth,
    c.price_source                        AS priceSource,
    c.price_reference_pool                AS referencePool,
    toString(c.total_supply_raw)          AS totalSupplyRaw,
    toFloat64(c.total_supply_raw) / pow(10, c.decimals) AS totalSupply,
    c.market_cap_usd                      AS marketCapUsd,
    c.liquidity_usd                       AS liquidityUsd,
    c.pool_count                          AS poolCount,
    c.flow_window_end                     AS flowWindowEnd,
    c.volume_24h_usd                      AS volume24hUsd,
    c.fees_24h_usd                        AS fees24hUsd,
    c.hours_24h                           AS hours24h,
    c.volume_day_usd                      AS volumeDayUsd,
    c.fees_day_usd                        AS feesDayUsd,
    c.hours_day                           AS hoursDay,
    c.volume_7d_usd                       AS volume7dUsd,
    c.fees_7d_usd                         AS fees7dUsd,
    c.hours_7d                            AS hours7d,
    c.volume_30d_usd                      AS volume30dUsd,
    c.fees_30d_usd                        AS fees30dUsd,
    c.hours_30d                           AS hours30d,
    c.volume_lifetime_usd                 AS volumeLifetimeUsd,
    c.fees_lifetime_usd                   AS feesLifetimeUsd,
    pr.tvl_usd                            AS protocolTvlUsd,
    pr.fees_24h_usd                       AS protocolFees24hUsd,
    if(pr.tvl_usd > 0, c.market_cap_usd / pr.tvl_usd, NULL)               AS marketCapToTvl,
    if(c.liquidity_usd > 0, c.market_cap_usd / c.liquidity_usd, NULL)     AS marketCapToLiquidity,
    if(c.market_cap_usd > 0, pr.fees_24h_usd * 365 / c.market_cap_usd, NULL) AS feesAnnualizedToMarketCap,
    if(c.liquidity_usd > 0, c.volume_24h_usd / c.liquidity_usd, NULL)     AS volume24hToLiquidity
FROM
(
    SELECT *
    FROM core_token_snap15m FINAL
    WHERE chain_id = {chain_id:UInt32}
      AND snapshot_at = {snapshot_at:DateTime64(3, 'UTC')}
) AS c
LEFT JOIN
(
    SELECT chain_id, snapshot_at, tvl_usd, fees_24h_usd
    FROM protocol_snap15m FINAL
    WHERE chain_id = {chain_id:UInt32}
      AND snapshot_at = {snapshot_at:DateTime64(3, 'UTC')}
) AS pr ON pr.chain_id = c.chain_id AND pr.snapshot_at = c.snapshot_at
LIMIT 1
