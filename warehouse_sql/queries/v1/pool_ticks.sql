-- /v1/pools/{chainId}/{poolAddress}/ticks: one page of a pool's initialized ticks at the chain's
-- pinned snapshot (ADR 0014). One row when the snapshot lists the pool, none otherwise:
--   its type and whether it is servable in the scope under the curation (v1_pool_identity,
--   migration 062);
--   the snapshot's tick marker (pool_tick_snap15m; materialized = 0 without one) with the
--   invariants verified at capture;
--   before_range: the sum of liquidityNet below {tick_lower} (the active liquidity left of the
--   range), read only when {with_before:UInt8} = 1 (a first page; later pages carry it);
--   the page: ticks in [{start}, {tick_upper}) ascending, at most {take} (the page size plus one:
--   the extra row says a next page exists). A key range of pool_tick_sets: page 50 reads what
--   page 1 does.
-- Parameters: {chain_id:UInt32}, {snapshot_at:DateTime64(3, 'UTC')}, {address:String} lower-case,
-- {curation:String} digest, {scope_all:UInt8}, {tick_lower:Int32}, {tick_upper:Int32},
-- {start:Int32}, {take:UInt32}, {with_before:UInt8}.
WITH marker AS
(
    SELECT *
    FROM pool_tick_snap15m FINAL
    WHERE chain_id = {chain_id:UInt32}
      AND snapshot_at = {snapshot_at:DateTime64(3, 'UTC')}
      AND pool_address = {address:String}
    LIMIT 1
),
table AS
(
    SELECT tick, liquidity_net, liquidity_gross
    FROM pool_tick_sets FINAL
    WHERE chain_id = {chain_id:UInt32}
      AND pool_address = {address:String}
      AND set_id = (SELECT any(set_id) FROM marker)
)
SELECT
    p.pool_type                                                      AS pool_type,
    p.servable                                                       AS servable,
    m.pool_address != ''                                             AS materialized,
    m.block_number                                                   AS tick_block,
    m.tick_count                                                     AS tick_count,
    m.current_tick                                                   AS current_tick,
    toString(m.liquidity_raw)                                        AS liquidity_raw,
    toString(m.net_sum)                                              AS net_sum,
    toString(m.running_at_current)                                   AS running_at_current,
    toString(m.min_running)                                          AS min_running,
    m.verified                                                       AS verified,
    m.problem                                                        AS problem,
    (SELECT toString(sum(toInt256(liquidity_net))) FROM table
     WHERE {with_before:UInt8} = 1 AND tick < {tick_lower:Int32})   AS before_range,
    (SELECT groupArray((tick, toString(liquidity_net), toString(liquidity_gross)))
     FROM (SELECT * FROM table WHERE tick >= {start:Int32} AND tick < {tick_upper:Int32}
           ORDER BY tick LIMIT {take:UInt32}))                       AS page
FROM v1_pool_identity(chain_id = {chain_id:UInt32}, snapshot_at = {snapshot_at:DateTime64(3, 'UTC')},
                      address = {address:String}, curation = {curation:String}, scope_all = {scope_all:UInt8}) AS p
LEFT JOIN marker AS m ON m.pool_address = p.address
