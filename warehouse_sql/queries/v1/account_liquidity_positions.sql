-- /v1/accounts/{address}/liquidity-positions: the open positions of {address:String} at each selected
-- chain's published snapshot, in (chain_id, position_id) order after the keyset position when
-- {after} is 1, each with its pool as that snapshot lists it (type, tokens, gauge, current tick;
-- NULL when the snapshot does not list the pool):
--   'cl' and 'v2': liquidity_position_snap15m (LpSugar.positions read at the snapshot block);
--   'vault' ('vault:<address>'): the address's shares of an auto-managed vault, the sum of its indexed
--     deposits and withdrawals at or before the snapshot's time (the shares move no other way in
--     this release), and their part of the vault's totals at the snapshot (vault_snap15m: shares x
--     amount / supply, rounded down as a withdrawal previews); the vault's range for a CL vault.
-- {kind:String}: 'v2', 'cl', 'vault' or '' (all). Raw integers as text.
-- Parameters: {address:String} (lower case), {chain_ids:Array(UInt32)},
-- {snapshot_ats:Array(DateTime64(3, 'UTC'))}, {kind:String}, {after:UInt8}, {c_chain:UInt32},
-- {c_position:String}, {limit:UInt32} (a page and one more row).
WITH
    {chain_ids:Array(UInt32)} AS chain_ids,
    {snapshot_ats:Array(DateTime64(3, 'UTC'))} AS snapshot_ats,
lp AS (
    SELECT chain_id, position_id, kind, pool_address, token_id, liquidity_raw, staked_raw, amount0_raw, amount1_raw,
           staked0_raw, staked1_raw, fees0_raw, fees1_raw, emissions_raw, tick_lower, tick_upper, block_number,
           block_timestamp, CAST(NULL, 'Nullable(UInt8)') AS share_decimals
    FROM liquidity_position_snap15m FINAL
    WHERE account = {address:String}
      AND chain_id IN chain_ids
      AND snapshot_at = snapshot_ats[indexOf(chain_ids, chain_id)]
      AND snapshot_at IN snapshot_ats  -- the key's range (the pair above is exact)
      AND {kind:String} IN ('', kind)
      AND (NOT {after:UInt8} OR (chain_id, position_id) > ({c_chain:UInt32}, {c_position:String}))
    ORDER BY chain_id, position_id
    LIMIT {limit:UInt32}
),
moves AS (
    SELECT chain_id, vault_address,
           toInt256(sumIf(shares_raw, kind = 'deposit')) - toInt256(sumIf(shares_raw, kind = 'withdrawal')) AS shares
    FROM vault_events FINAL
    WHERE {kind:String} IN ('', 'vault')
      AND chain_id IN chain_ids
      AND user = {address:String}
      AND kind IN ('deposit', 'withdrawal')
      AND block_timestamp <= snapshot_ats[indexOf(chain_ids, chain_id)]
    GROUP BY chain_id, vault_address
    HAVING shares > 0
),
vaults AS (
    SELECT s.chain_id AS chain_id, concat('vault:', s.vault_address) AS position_id, 'vault' AS kind,
           s.pool_address AS pool_address, CAST(NULL, 'Nullable(UInt256)') AS token_id,
           toUInt256(m.shares) AS liquidity_raw, toUInt256(0) AS staked_raw,
           if(s.total_supply_raw = 0, toUInt256(0), intDiv(toUInt256(m.shares) * s.amount0_raw, s.total_supply_raw))
               AS amount0_raw,
           if(s.total_supply_raw = 0, toUInt256(0), intDiv(toUInt256(m.shares) * s.amount1_raw, s.total_supply_raw))
               AS amount1_raw,
           toUInt256(0) AS staked0_raw, toUInt256(0) AS staked1_raw, toUInt256(0) AS fees0_raw, toUInt256(0) AS fees1_raw,
           toUInt256(0) AS emissions_raw, s.tick_lower AS tick_lower, s.tick_upper AS tick_upper,
           s.block_number AS block_number, ifNull(r.block_timestamp, s.snapshot_at) AS block_timestamp,
           toNullable(s.share_decimals) AS share_decimals
    FROM vault_snap15m AS s FINAL
    INNER JOIN moves AS m ON m.chain_id = s.chain_id AND m.vault_address = s.vault_address
    LEFT JOIN  -- the snapshot block's time (vault_snap15m keeps its number only)
    (
        SELECT chain_id, snapshot_at, block_timestamp FROM liquidity_position_reads FINAL
        WHERE chain_id IN chain_ids AND snapshot_at IN snapshot_ats
    ) AS r ON r.chain_id = s.chain_id AND r.snapshot_at = s.snapshot_at
    WHERE s.chain_id IN chain_ids
      AND s.snapshot_at = snapshot_ats[indexOf(chain_ids, s.chain_id)]
      AND s.snapshot_at IN snapshot_ats
      AND (NOT {after:UInt8} OR (s.chain_id, position_id) > ({c_chain:UInt32}, {c_position:String}))
),
positions AS (
    SELECT * FROM (SELECT * FROM lp UNION ALL SELECT * FROM vaults)
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
       p.share_decimals AS share_decimals,
       s.pool_type AS pool_type, s.token0_address AS token0_address, s.token1_address AS token1_address,
       s.token0_symbol AS token0_symbol, s.token1_symbol AS token1_symbol,
       s.token0_decimals AS token0_decimals, s.token1_decimals AS token1_decimals,
       s.gauge_address AS gauge_address, s.tick AS pool_tick
FROM positions AS p
LEFT JOIN
(
    SELECT chain_id, pool_address, pool_type, token0_address, token1_address, token0_symbol,
           token1_symbol, token0_decimals, token1_decimals, gauge_address, tick
    FROM pool_snap15m FINAL
    WHERE chain_id IN chain_ids
      AND snapshot_at = snapshot_ats[indexOf(chain_ids, chain_id)]
      AND snapshot_at IN snapshot_ats  -- every pool of the snapshots (tens): filtering by the page's would read it twice
) AS s ON s.chain_id = p.chain_id AND s.pool_address = p.pool_address
ORDER BY chain_id, position_id
SETTINGS join_use_nulls = 1
