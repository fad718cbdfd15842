-- /v1/accounts/{address}/liquidity-positions: the open positions of {address:String} at each selected
-- chain's published snapshot (liquidity_position_snap15m: LpSugar.positions read at the snapshot
-- block), in (chain_id, position_id) order after the keyset position when {after} is 1, each with
-- its pool as that snapshot lists it (type, tokens, gauge, current tick; NULL when the snapshot does
-- not list the pool). {kind:String}: 'v2', 'cl' or '' (both). Raw integers as text.
-- Parameters: {address:String} (lower case), {chain_ids:Array(UInt32)},
-- {snapshot_ats:Array(DateTime64(3, 'UTC'))}, {kind:String}, {after:UInt8}, {c_chain:UInt32},
-- {c_position:String}, {limit:UInt32} (a page and one more row).
WITH positions AS (
    SELECT chain_id, snapshot_at, position_id, kind, pool_address, token_id, liquidity_raw, staked_raw,
           amount0_raw, amount1_raw, staked0_raw, staked1_raw, fees0_raw, fees1_raw, emissions_raw,
           tick_lower, tick_upper, block_number, block_timestamp
    FROM liquidity_position_snap15m FINAL
    WHERE account = {address:String}
      AND chain_id IN {chain_ids:Array(UInt32)}
      AND snapshot_at = {snapshot_ats:Array(DateTime64(3, 'UTC'))}[indexOf({chain_ids:Array(UInt32)}, chain_id)]
      AND snapshot_at IN {snapshot_ats:Array(DateTime64(3, 'UTC'))}  -- the key's range (the pair above is exact)
      AND ({kind:String} = '' OR kind = {kind:String})
      AND (NOT {after:UInt8} OR (chain_id, position_id) > ({c_chain:UInt32}, {c_position:String}))
    ORDER BY chain_id, position_id
    LIMIT {limit:UInt32}
)
SELECT p.chain_id AS chain_id, p.position_id AS position_id, p.kind AS kind, p.pool_address AS pool_address,
       toString(p.token_id) AS token_id, toString(p.liquidity_raw) AS liquidity_raw,
       toString(p.staked_raw) AS staked_raw, toString(p.amount0_raw) AS amount0_raw,
       toString(p.amount1_raw) AS amount1_raw, toString(p.staked0_raw) AS staked0_raw,
       toString(p.staked1_raw) AS staked1_raw, toString(p.fees0_raw) AS fees0_raw, toString(p.fees1_raw) AS fees1_raw,
       toString(p.emissions_raw) AS emissions_raw, p.tick_lower AS tick_lower, p.tick_upper AS tick_upper,
       p.block_number AS block_number, toInt64(toUnixTimestamp(p.block_timestamp)) AS observed_at,
       s.pool_type AS pool_type, s.token0_address AS token0_address, s.token1_address AS token1_address,
       s.token0_symbol AS token0_symbol, s.token1_symbol AS token1_symbol,
       s.token0_decimals AS token0_decimals, s.token1_decimals AS token1_decimals,
       s.gauge_address AS gauge_address, s.tick AS pool_tick
FROM positions AS p
LEFT JOIN
(
    SELECT chain_id, snapshot_at, pool_address, pool_type, token0_address, token1_address, token0_symbol,
           token1_symbol, token0_decimals, token1_decimals, gauge_address, tick
    FROM pool_snap15m FINAL
    WHERE chain_id IN {chain_ids:Array(UInt32)}
      AND snapshot_at = {snapshot_ats:Array(DateTime64(3, 'UTC'))}[indexOf({chain_ids:Array(UInt32)}, chain_id)]
      AND snapshot_at IN {snapshot_ats:Array(DateTime64(3, 'UTC'))}
      AND (chain_id, pool_address) IN (SELECT chain_id, pool_address FROM positions)
) AS s ON s.chain_id = p.chain_id AND s.pool_address = p.pool_address
ORDER BY chain_id, position_id
SETTINGS join_use_nulls = 1
