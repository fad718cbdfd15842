-- One page of an auto-managed vault's events of {kinds} ('deposit', 'withdrawal', 'harvest',
-- 'rebalance') before {until}, newest first in chain order: (block_number, log_index, id)
-- descending, after the keyset position ({c_block}, {c_log}, {c_id}) when {after} is 1. A
-- harvest's reward token is named with its symbol and decimals as the chain's snapshot
-- {snapshot_at} lists it (NULL when it does not). Raw amounts as exact integer strings.
-- Parameters: {chain_id:UInt32}, {address:String}, {kinds:Array(String)},
-- {until:DateTime64(3, 'UTC')}, {snapshot_at:DateTime64(3, 'UTC')}, {after:UInt8},
-- {c_block:UInt64}, {c_log:UInt32}, {c_id:String}, {limit:UInt32}.
SELECT e.id AS id, e.kind AS kind, toInt64(toUnixTimestamp(e.block_timestamp)) AS at,
       e.block_number AS block_number, ifNull(e.log_index, 0) AS log_index, e.transaction_hash AS transaction_hash,
       e.user AS user, toString(e.shares_raw) AS shares_raw, toString(e.amount0_raw) AS amount0_raw,
       toString(e.amount1_raw) AS amount1_raw, e.amount_usd AS amount_usd, e.token_address AS token_address,
       t.symbol AS token_symbol, t.decimals AS token_decimals, toString(e.amount_raw) AS amount_raw,
       toString(e.fee_amount_raw) AS fee_amount_raw, e.fee_amount_usd AS fee_amount_usd,
       e.old_tick_lower AS old_tick_lower, e.old_tick_upper AS old_tick_upper,
       e.new_tick_lower AS new_tick_lower, e.new_tick_upper AS new_tick_upper, e.tick AS tick,
       toString(e.sqrt_price_x96) AS sqrt_price_x96,
       toString(e.amount0_before_raw) AS amount0_before_raw, toString(e.amount1_before_raw) AS amount1_before_raw,
       toString(e.amount0_after_raw) AS amount0_after_raw, toString(e.amount1_after_raw) AS amount1_after_raw,
       toString(e.fees0_raw) AS fees0_raw, toString(e.fees1_raw) AS fees1_raw,
       e.swap_zero_for_one AS swap_zero_for_one, toString(e.swap_amount_in_raw) AS swap_amount_in_raw,
       toString(e.swap_amount_out_raw) AS swap_amount_out_raw
FROM
(
    SELECT *
    FROM vault_events FINAL
    WHERE chain_id = {chain_id:UInt32} AND vault_address = {address:String} AND has({kinds:Array(String)}, kind)
      AND block_timestamp < {until:DateTime64(3, 'UTC')}
      AND (NOT {after:UInt8}
           OR (block_number, ifNull(log_index, 0), id) < ({c_block:UInt64}, {c_log:UInt32}, {c_id:String}))
    ORDER BY block_number DESC, ifNull(log_index, 0) DESC, id DESC
    LIMIT {limit:UInt32}
) AS e
LEFT JOIN
(
    SELECT token_address, symbol, decimals
    FROM token_snap15m FINAL
    WHERE chain_id = {chain_id:UInt32} AND snapshot_at = {snapshot_at:DateTime64(3, 'UTC')}
) AS t ON t.token_address = e.token_address
ORDER BY block_number DESC, log_index DESC, id DESC
SETTINGS join_use_nulls = 1
