-- /v1/pools/{chainId}/{poolAddress}: the pool's /v1/pools row (v1_pool_rows, migrations 052 and
-- 059: one pool, any servable curation status), in the requested scope, and its state at the
-- chain's pinned snapshot (pool_snap15m): exact holdings (migration 058), range state (migration
-- 042), reserves.
-- Parameters: chain_ids, snapshot_ats, ends, ok24, ok7, curation, apr_profile, scope_all,
-- underflow as in pools.sql (one chain); {address:String} lower-case.
-- No row: the snapshot does not list the pool, the curation blocks it, or it is outside the scope.
-- Raw integers (UInt256) are served as text: exact in JSON.
SELECT r.*,
       s.reserve0                    AS reserve0,
       s.reserve1                    AS reserve1,
       toString(s.reserve0_raw)      AS reserve0_raw,
       toString(s.reserve1_raw)      AS reserve1_raw,
       toString(s.liquidity_raw)     AS liquidity_raw,
       toString(s.sqrt_price_x96)    AS sqrt_price_x96,
       s.tick                        AS tick
FROM
(
    SELECT *
    FROM v1_pool_rows(
        chain_ids = {chain_ids:Array(UInt32)}, snapshot_ats = {snapshot_ats:Array(DateTime64(3, 'UTC'))},
        ends = {ends:Array(Int64)}, ok24 = {ok24:Array(UInt8)}, ok7 = {ok7:Array(UInt8)},
        curation = {curation:String}, apr_profile = {apr_profile:String}, status = '',
        scope_all = {scope_all:UInt8}, curated = -1, featured = -1, incentivized = -1, live_gauge = -1,
        dynamic_fee = -1, custom_fee = -1, pool_types = [], categories = [], category_all = 0, token_tags = [],
        token_tag_all = 0, min_tvl = [], max_tvl = [], min_fee_apr = [], min_emissions_apr = [], token = '',
        token_chain = 0, q = '', sort = 'tvl', descending = 1, underflow = {underflow:UInt64},
        address = {address:String})
) AS r
LEFT JOIN
(
    SELECT pool_address, reserve0, reserve1, reserve0_raw, reserve1_raw, liquidity_raw, sqrt_price_x96, tick
    FROM pool_snap15m FINAL
    WHERE chain_id IN {chain_ids:Array(UInt32)}
      AND snapshot_at IN {snapshot_ats:Array(DateTime64(3, 'UTC'))}
      AND pool_address = {address:String}
) AS s ON s.pool_address = r.address
