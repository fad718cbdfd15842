-- /v1/auto-manage/vaults and its detail: per auto-managed vault of the selected chains (the i-th of
-- {snapshots} is the published snapshot of the i-th of {chain_ids}), what the answer needs beside
-- its live read (ADR 0018):
--   its latest vault_snap15m row at or before its chain's snapshot, within the 7 days before it:
--   its last indexed state (the answer when the live read fails; no row: not indexed);
--   price0 / price1: its tokens' prices at the chain's snapshot (token_snap15m), as /api/v1 values;
--   the estimated APR's inputs over the vault's indexed hours (vault_hourly) in the 7 days before
--   the last one that ended by the snapshot: their span [apr_from, apr_to), their count, gross
--   harvested USD (harvests at their time), mean TVL, hours whose TVL or harvest has no USD value,
--   and the reward fee the strategy took from the harvests of that span (vault_events), with the
--   count of fees taken without a USD value.
-- {address} '' selects every vault, else that one (lower-case).
-- Parameters: {chain_ids:Array(UInt32)}, {snapshots:Array(DateTime64(3, 'UTC'))}, {address:String}.
WITH
latest AS
(
    SELECT chain_id, vault_address, toInt64(toUnixTimestamp(snapshot_at)) AS snapshot_unix, block_number,
           toInt64(toUnixTimestamp(arrayElement({snapshots:Array(DateTime64(3, 'UTC'))},
                                                indexOf({chain_ids:Array(UInt32)}, chain_id)))) AS bound,
           vault_key, kind, pool_address, gauge_address,
           strategy_address, token0_address, token1_address, token0_symbol, token1_symbol, token0_decimals,
           token1_decimals, share_decimals, toString(total_supply_raw) AS total_supply_raw,
           toString(amount0_raw) AS amount0_raw, toString(amount1_raw) AS amount1_raw, tvl_usd, share_price_usd,
           token0_price_usd, token1_price_usd, is_calm, strategy_paused, global_pause, tick, tick_lower, tick_upper,
           toString(sqrt_price_x96) AS sqrt_price_x96, needs_rebalance,
           toInt64(toUnixTimestamp(last_rebalance)) AS last_rebalance, toInt64(toUnixTimestamp(last_harvest)) AS last_harvest,
           reward_fee_bps, fee_recipient
    FROM vault_snap15m FINAL
    WHERE chain_id IN {chain_ids:Array(UInt32)}
      AND ({address:String} = '' OR vault_address = {address:String})
      AND snapshot_at <= arrayElement({snapshots:Array(DateTime64(3, 'UTC'))}, indexOf({chain_ids:Array(UInt32)}, chain_id))
      AND snapshot_at > arrayElement({snapshots:Array(DateTime64(3, 'UTC'))}, indexOf({chain_ids:Array(UInt32)}, chain_id)) - INTERVAL 7 DAY
    ORDER BY chain_id, vault_address, snapshot_at DESC
    LIMIT 1 BY chain_id, vault_address
),
prices AS
(
    SELECT chain_id AS p_chain, lower(token_address) AS token, any(price_usd) AS price_usd
    FROM token_snap15m FINAL
    WHERE chain_id IN {chain_ids:Array(UInt32)}
      AND snapshot_at = arrayElement({snapshots:Array(DateTime64(3, 'UTC'))}, indexOf({chain_ids:Array(UInt32)}, chain_id))
    GROUP BY p_chain, token
),
ended AS
(
    SELECT chain_id, vault_address, period_start, harvested_usd, tvl_usd,
           max(period_start) OVER (PARTITION BY chain_id, vault_address) AS last_hour
    FROM vault_hourly FINAL
    WHERE chain_id IN {chain_ids:Array(UInt32)}
      AND ({address:String} = '' OR vault_address = {address:String})
      AND period_start + INTERVAL 1 HOUR
          <= arrayElement({snapshots:Array(DateTime64(3, 'UTC'))}, indexOf({chain_ids:Array(UInt32)}, chain_id))
      AND period_start >= arrayElement({snapshots:Array(DateTime64(3, 'UTC'))}, indexOf({chain_ids:Array(UInt32)}, chain_id)) - INTERVAL 14 DAY
),
hours AS
(
    SELECT chain_id AS h_chain, vault_address AS h_vault, min(period_start) AS apr_from, max(period_start) + INTERVAL 1 HOUR AS apr_to,
           count() AS apr_hours,
           -- summed in period order: the same answer whatever the threads (a float sum's order shows)
           arraySum(arrayMap(x -> x.2, arraySort(groupArray((period_start, ifNull(harvested_usd, 0.)))))) AS gross_usd,
           arraySum(arrayMap(x -> x.2, arraySort(groupArray((period_start, ifNull(tvl_usd, 0.)))))) / count() AS mean_tvl,
           countIf(harvested_usd IS NULL OR tvl_usd IS NULL) AS unpriced_hours
    FROM ended
    WHERE period_start > last_hour - INTERVAL 168 HOUR
    GROUP BY h_chain, h_vault
),
fees AS
(
    SELECT e.chain_id AS f_chain, e.vault_address AS f_vault, arraySum(arrayMap(x -> x.3, arraySort(groupArray((e.block_timestamp, e.id, ifNull(e.fee_amount_usd, 0.)))))) AS fee_usd,
           countIf(e.fee_amount_usd IS NULL AND e.fee_amount_raw > 0) AS fees_unpriced
    FROM vault_events AS e FINAL
    INNER JOIN hours AS h ON h.h_chain = e.chain_id AND h.h_vault = e.vault_address
    WHERE e.chain_id IN {chain_ids:Array(UInt32)} AND e.kind = 'harvest'
      AND e.block_timestamp >= h.apr_from AND e.block_timestamp < h.apr_to
    GROUP BY f_chain, f_vault
)
SELECT l.*, p0.price_usd AS price0, p1.price_usd AS price1,
       toInt64(toUnixTimestamp(h.apr_from)) AS apr_from, toInt64(toUnixTimestamp(h.apr_to)) AS apr_to,
       h.apr_hours AS apr_hours, h.gross_usd AS harvested_usd, h.mean_tvl AS mean_tvl_usd,
       h.unpriced_hours AS unpriced_hours, f.fee_usd AS fee_usd, f.fees_unpriced AS fees_unpriced
FROM latest AS l
LEFT JOIN prices AS p0 ON p0.p_chain = l.chain_id AND p0.token = l.token0_address
LEFT JOIN prices AS p1 ON p1.p_chain = l.chain_id AND p1.token = l.token1_address
LEFT JOIN hours AS h ON h.h_chain = l.chain_id AND h.h_vault = l.vault_address
LEFT JOIN fees AS f ON f.f_chain = l.chain_id AND f.f_vault = l.vault_address
SETTINGS join_use_nulls = 1
