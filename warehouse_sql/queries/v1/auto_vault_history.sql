-- /v1/auto-manage/vaults/{chainId}/{vault}/history: the vault's hour rows ({hourly} 1: vault_hourly)
-- or UTC day rows ({hourly} 0: vault_daily, the running day partial) with period_start in
-- [{from}, {to}), oldest first, and the start of its first indexed hour (first_hour; NULL when
-- none: the periods before it are before the vault existed when the chain's history covers them).
-- Raw amounts as exact integer strings.
-- Parameters: {chain_id:UInt32}, {address:String} (lower-case), {hourly:UInt8},
-- {from:DateTime64(3, 'UTC')}, {to:DateTime64(3, 'UTC')}.
SELECT toInt64(toUnixTimestamp(period_start)) AS start, toString(total_supply_raw) AS total_supply_raw,
       toString(amount0_raw) AS amount0_raw, toString(amount1_raw) AS amount1_raw, tvl_usd, share_price_usd,
       harvested_usd, deposits, withdrawals, partial,
       (SELECT toInt64(toUnixTimestamp(min(period_start))) FROM vault_hourly
        WHERE chain_id = {chain_id:UInt32} AND vault_address = {address:String} HAVING count() > 0) AS first_hour
FROM
(
    SELECT * FROM vault_hourly FINAL
    WHERE {hourly:UInt8} = 1 AND chain_id = {chain_id:UInt32} AND vault_address = {address:String}
      AND period_start >= {from:DateTime64(3, 'UTC')} AND period_start < {to:DateTime64(3, 'UTC')}
    UNION ALL
    SELECT * FROM vault_daily FINAL
    WHERE {hourly:UInt8} = 0 AND chain_id = {chain_id:UInt32} AND vault_address = {address:String}
      AND period_start >= {from:DateTime64(3, 'UTC')} AND period_start < {to:DateTime64(3, 'UTC')}
)
ORDER BY start
