-- /api/v1/vaults/{keyOrAddress}/history: one vault's hour or UTC-day rows for the last {days}
-- days ending at its newest row, oldest first. {period} ('hourly' | 'daily', validated by the
-- route) picks the table: both branches are planned, only the matching one returns rows.
-- State columns are as of the period's last block; nulls (unknown USD) stay null.
-- Parameters: {chain_id:UInt32}, {vault:String} (lower-case address), {period:String}, {days:UInt16}
WITH series AS
(
    SELECT period_start, total_supply_raw, amount0_raw, amount1_raw, tvl_usd, share_price_usd,
           harvested_usd, apr, deposits, withdrawals, partial
    FROM vault_hourly FINAL
    WHERE chain_id = {chain_id:UInt32} AND vault_address = {vault:String} AND {period:String} = 'hourly'
    UNION ALL
    SELECT period_start, total_supply_raw, amount0_raw, amount1_raw, tvl_usd, share_price_usd,
           harvested_usd, apr, deposits, withdrawals, partial
    FROM vault_daily FINAL
    WHERE chain_id = {chain_id:UInt32} AND vault_address = {vault:String} AND {period:String} = 'daily'
)
SELECT
    period_start                AS periodStart,
    toString(total_supply_raw)  AS totalSupplyRaw,
    toString(amount0_raw)       AS amount0Raw,
    toString(amount1_raw)       AS amount1Raw,
    tvl_usd                     AS tvlUsd,
    share_price_usd             AS sharePriceUsd,
    harvested_usd               AS harvestedUsd,
    apr                         AS apr,
    deposits                    AS deposits,
    withdrawals                 AS withdrawals,
    partial                     AS partial
FROM series
WHERE period_start > (SELECT max(period_start) FROM series) - toIntervalDay({days:UInt16})
ORDER BY period_start
