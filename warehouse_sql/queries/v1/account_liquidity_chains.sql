-- /v1/accounts/{address}/liquidity-positions, per selected chain at its published snapshot: whether
-- its positions were read there (liquidity_position_reads; per-position state is kept for the recent
-- snapshots alone) and, over every open position of {address:String} there (all pages), per token the
-- raw sums of what sits in the wallet (v2 LP) or unstaked (CL), what is staked in the gauge, what its
-- auto-managed vault shares hold, the trading fees not yet collected and the unclaimed emissions
-- (`part`: 'unstaked', 'staked', 'vaults', 'fees', 'emissions', the last in the chain's core token;
-- the positions as account_liquidity_positions.sql reads them), with the token's symbol and decimals at the
-- snapshot: one row per (chain, part, token) with a nonzero sum, and per chain one `part` 'positions'
-- row whose raw is the address's position count there (none: no position). Then one `part` 'read'
-- row per chain read at its snapshot, with its block; and
-- one `part` 'core' row per chain: its core token (the emissions') with its symbol and decimals
-- (NULL when the snapshot does not list it).
-- {kind:String}: 'v2', 'cl', 'vault' or '' (all). Raw sums as text.
-- Parameters: {address:String} (lower case), {chain_ids:Array(UInt32)},
-- {snapshot_ats:Array(DateTime64(3, 'UTC'))}, {core_tokens:Array(String)} (per chain, lower case), {kind:String}.
WITH pools AS (
    SELECT chain_id, pool_address, token0_address, token1_address
    FROM pool_snap15m FINAL
    WHERE chain_id IN {chain_ids:Array(UInt32)}
      AND snapshot_at = {snapshot_ats:Array(DateTime64(3, 'UTC'))}[indexOf({chain_ids:Array(UInt32)}, chain_id)]
      AND snapshot_at IN {snapshot_ats:Array(DateTime64(3, 'UTC'))}
),
lp AS (
    SELECT p.chain_id AS chain_id, s.token0_address AS token0, s.token1_address AS token1,
           p.amount0_raw AS a0, p.amount1_raw AS a1, p.staked0_raw AS s0, p.staked1_raw AS s1,
           toUInt256(0) AS v0, toUInt256(0) AS v1, p.fees0_raw AS f0, p.fees1_raw AS f1, p.emissions_raw AS em
    FROM liquidity_position_snap15m AS p FINAL
    LEFT JOIN pools AS s ON s.chain_id = p.chain_id AND s.pool_address = p.pool_address
    WHERE p.account = {address:String}
      AND p.chain_id IN {chain_ids:Array(UInt32)}
      AND p.snapshot_at = {snapshot_ats:Array(DateTime64(3, 'UTC'))}[indexOf({chain_ids:Array(UInt32)}, p.chain_id)]
      AND p.snapshot_at IN {snapshot_ats:Array(DateTime64(3, 'UTC'))}
      AND {kind:String} IN ('', p.kind)
),
moves AS (  -- the address's vault shares, as account_liquidity_positions.sql sums them
    SELECT chain_id, vault_address,
           toInt256(sumIf(shares_raw, kind = 'deposit')) - toInt256(sumIf(shares_raw, kind = 'withdrawal')) AS shares
    FROM vault_events FINAL
    WHERE {kind:String} IN ('', 'vault')
      AND chain_id IN {chain_ids:Array(UInt32)}
      AND user = {address:String}
      AND kind IN ('deposit', 'withdrawal')
      AND block_timestamp <= {snapshot_ats:Array(DateTime64(3, 'UTC'))}[indexOf({chain_ids:Array(UInt32)}, chain_id)]
    GROUP BY chain_id, vault_address
    HAVING shares > 0
),
vaults AS (
    SELECT s.chain_id AS chain_id, s.token0_address AS token0, s.token1_address AS token1,
           toUInt256(0) AS a0, toUInt256(0) AS a1, toUInt256(0) AS s0, toUInt256(0) AS s1,
           if(s.total_supply_raw = 0, toUInt256(0), intDiv(toUInt256(m.shares) * s.amount0_raw, s.total_supply_raw)) AS v0,
           if(s.total_supply_raw = 0, toUInt256(0), intDiv(toUInt256(m.shares) * s.amount1_raw, s.total_supply_raw)) AS v1,
           toUInt256(0) AS f0, toUInt256(0) AS f1, toUInt256(0) AS em
    FROM vault_snap15m AS s FINAL
    INNER JOIN moves AS m ON m.chain_id = s.chain_id AND m.vault_address = s.vault_address
    WHERE s.chain_id IN {chain_ids:Array(UInt32)}
      AND s.snapshot_at = {snapshot_ats:Array(DateTime64(3, 'UTC'))}[indexOf({chain_ids:Array(UInt32)}, s.chain_id)]
      AND s.snapshot_at IN {snapshot_ats:Array(DateTime64(3, 'UTC'))}
),
mine AS (
    SELECT *, {core_tokens:Array(String)}[indexOf({chain_ids:Array(UInt32)}, chain_id)] AS core
    FROM (SELECT * FROM lp UNION ALL SELECT * FROM vaults)
),
sums AS (  -- one pass over the positions: each part per token, and their count (part 'positions')
    SELECT chain_id, leg.1 AS part, ifNull(leg.2, '') AS token, sum(leg.3) AS raw
    FROM mine
    ARRAY JOIN [('unstaked', token0, a0), ('unstaked', token1, a1), ('staked', token0, s0), ('staked', token1, s1),
                ('vaults', token0, v0), ('vaults', token1, v1), ('fees', token0, f0), ('fees', token1, f1),
                ('emissions', core, em), ('positions', '', toUInt256(1))] AS leg
    GROUP BY chain_id, part, token
    HAVING raw > 0
),
cores AS (
    SELECT arrayJoin(arrayZip({chain_ids:Array(UInt32)}, {core_tokens:Array(String)})) AS ct, ct.1 AS chain_id,
           ct.2 AS token
),
tokens AS (  -- every token of the snapshots (tens per chain): filtering by the sums' would read them again
    SELECT chain_id, token_address, symbol, decimals
    FROM token_snap15m FINAL
    WHERE chain_id IN {chain_ids:Array(UInt32)}
      AND snapshot_at = {snapshot_ats:Array(DateTime64(3, 'UTC'))}[indexOf({chain_ids:Array(UInt32)}, chain_id)]
      AND snapshot_at IN {snapshot_ats:Array(DateTime64(3, 'UTC'))}
)
SELECT u.chain_id AS chain_id, u.part AS part, u.token AS token, toString(u.raw) AS raw,
       t.symbol AS symbol, t.decimals AS decimals, toUInt64(0) AS block_number
FROM sums AS u
LEFT JOIN tokens AS t ON t.chain_id = u.chain_id AND t.token_address = u.token
UNION ALL
SELECT r.chain_id AS chain_id, 'read' AS part, '' AS token, '0' AS raw, NULL AS symbol, NULL AS decimals,
       r.block_number AS block_number
FROM liquidity_position_reads AS r FINAL
WHERE r.chain_id IN {chain_ids:Array(UInt32)}
  AND r.snapshot_at = {snapshot_ats:Array(DateTime64(3, 'UTC'))}[indexOf({chain_ids:Array(UInt32)}, r.chain_id)]
UNION ALL
SELECT k.chain_id AS chain_id, 'core' AS part, k.token AS token, '0' AS raw, t.symbol AS symbol, t.decimals AS decimals,
       toUInt64(0) AS block_number
FROM cores AS k
LEFT JOIN tokens AS t ON t.chain_id = k.chain_id AND t.token_address = k.token
SETTINGS join_use_nulls = 1
