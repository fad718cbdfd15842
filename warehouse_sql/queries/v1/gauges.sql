-- /v1/gauges and /v1/gauges/{chainId}/{gaugeAddress}: the gauges of the selected chains at each
-- chain's published snapshot (gauge_snap15m), with
--   the chain's total Voter weight at that snapshot (every gauge's, killed ones included),
--   the core token's price there (emission rate in USD),
--   the gauge's pool at the snapshot (pool_snap15m: type and tokens; none for a system gauge),
--   its timeline (gauge_events before the snapshot's time, oldest first),
--   the Voter weight that split this epoch's emissions (gauge_epochs; NULL until the epoch's
--   governance events are read).
-- Filters (empty, or -1 for a flag, select everything): {kind:String} 'pool' | 'system',
-- {alive:Int8}, {pool:String} with {pool_chain:UInt32} (0: any chain), {token:String} (a pool
-- token) with {token_chain:UInt32}, {address:String} (one gauge: the detail route).
-- Order: the sort value k_num ({sort:String}: votes, emissions, emissionsApr, totalApr), NULL
-- last in both directions (k_null), then chain ID and address ascending; {descending:UInt8}.
-- Keyset: {after:UInt8} = 0 on the first page, else the previous page's last (k_null, k_num as
-- its bits, chain_id, address) as {c_null:UInt8}, {c_num:UInt64}, {c_chain:UInt32}, {c_address:String}.
-- {limit:UInt32}: the page size plus one.
-- Parameters also: {chain_ids:Array(UInt32)}, {snapshot_ats:Array(DateTime64(3, 'UTC'))}.
WITH
    {snapshot_ats:Array(DateTime64(3, 'UTC'))}[indexOf({chain_ids:Array(UInt32)}, chain_id)] AS bound
SELECT *
FROM
(
    SELECT
        g.chain_id                                  AS chain_id,
        g.gauge_address                             AS address,
        g.gauge_kind                                AS gauge_kind,
        g.pool_address                              AS target,
        g.pool_address                              AS pool_address,
        g.is_alive                                  AS is_alive,
        toInt64(toUnixTimestamp(g.snapshot_at))     AS snapshot_ts,
        toInt64(toUnixTimestamp(g.epoch_start))     AS epoch_ts,
        toString(g.weight_raw)                      AS weight_raw,
        toString(t.chain_weight)                    AS chain_weight_raw,
        toString(g.emissions_epoch_raw)             AS emissions_raw,
        toString(g.reward_rate_raw)                 AS reward_rate_raw,
        c.price_usd                                 AS core_price_usd,
        g.emission_apr                              AS emission_apr,
        g.emission_apr_minimum                      AS emission_apr_minimum,
        g.emission_apr_five_spacing                 AS emission_apr_five_spacing,
        g.emission_apr_standard                     AS emission_apr_standard,
        g.fee_apr                                   AS fee_apr,
        g.bribe_apr                                 AS bribe_apr,
        g.total_apr                                 AS total_apr,
        g.bribes_epoch_usd                          AS bribes_epoch_usd,
        g.fees_epoch_usd                            AS fees_epoch_usd,
        p.pool_address IS NOT NULL                  AS pool_listed,
        p.pool_type                                 AS pool_type,
        p.token0_address                            AS token0_address,
        p.token0_symbol                             AS token0_symbol,
        p.token1_address                            AS token1_address,
        p.token1_symbol                             AS token1_symbol,
        e.timeline                                  AS timeline,
        toString(s.votes_at_start_raw)              AS votes_at_start_raw,
        multiIf({sort:String} = 'emissions', toFloat64(g.emissions_epoch_raw),
                {sort:String} = 'emissionsApr', g.emission_apr,
                {sort:String} = 'totalApr', g.total_apr,
                toFloat64(g.weight_raw))            AS sort_value,
        sort_value IS NULL                          AS k_null,
        if({descending:UInt8} = 1, -ifNull(sort_value, 0), ifNull(sort_value, 0)) AS k_num
    FROM
    (
        SELECT *
        FROM gauge_snap15m FINAL
        WHERE chain_id IN {chain_ids:Array(UInt32)} AND snapshot_at = bound
          AND snapshot_at IN {snapshot_ats:Array(DateTime64(3, 'UTC'))}
    ) AS g
    LEFT JOIN
    (
        SELECT chain_id, sum(ifNull(weight_raw, 0)) AS chain_weight
        FROM gauge_snap15m FINAL
        WHERE chain_id IN {chain_ids:Array(UInt32)} AND snapshot_at = bound
          AND snapshot_at IN {snapshot_ats:Array(DateTime64(3, 'UTC'))}
        GROUP BY chain_id
    ) AS t ON t.chain_id = g.chain_id
    LEFT JOIN
    (
        SELECT chain_id, price_usd
        FROM core_token_snap15m FINAL
        WHERE chain_id IN {chain_ids:Array(UInt32)} AND snapshot_at = bound
          AND snapshot_at IN {snapshot_ats:Array(DateTime64(3, 'UTC'))}
    ) AS c ON c.chain_id = g.chain_id
    LEFT JOIN
    (
        SELECT chain_id, pool_address, pool_type, token0_address, token0_symbol, token1_address, token1_symbol
        FROM pool_snap15m FINAL
        WHERE chain_id IN {chain_ids:Array(UInt32)} AND snapshot_at = bound
          AND snapshot_at IN {snapshot_ats:Array(DateTime64(3, 'UTC'))}
    ) AS p ON p.chain_id = g.chain_id AND p.pool_address = g.pool_address
    LEFT JOIN
    (
        SELECT chain_id, gauge_address,
               arraySort(x -> (x.2, x.1 != 'created'), groupArray((kind, toInt64(toUnixTimestamp(block_timestamp)),
                         block_number, transaction_hash))) AS timeline
        FROM gauge_events FINAL
        WHERE chain_id IN {chain_ids:Array(UInt32)} AND block_timestamp < bound
        GROUP BY chain_id, gauge_address
    ) AS e ON e.chain_id = g.chain_id AND e.gauge_address = g.gauge_address
    LEFT JOIN
    (
        SELECT chain_id, gauge_address, epoch, votes_at_start_raw
        FROM gauge_epochs FINAL
        WHERE chain_id IN {chain_ids:Array(UInt32)} AND epoch > bound - INTERVAL 8 DAY AND epoch <= bound
    ) AS s ON s.chain_id = g.chain_id AND s.gauge_address = g.gauge_address AND s.epoch = g.epoch_start
    WHERE ({kind:String} = '' OR g.gauge_kind = {kind:String})
      AND ({alive:Int8} = -1 OR g.is_alive = ({alive:Int8} = 1))
      AND ({pool:String} = '' OR (g.pool_address = {pool:String} AND {pool_chain:UInt32} IN (0, g.chain_id)))
      AND ({token:String} = '' OR ({token:String} IN (p.token0_address, p.token1_address)
                                   AND {token_chain:UInt32} IN (0, g.chain_id)))
      AND ({address:String} = '' OR g.gauge_address = {address:String})
)
WHERE {after:UInt8} = 0
   OR (k_null, k_num, chain_id, address)
      > ({c_null:UInt8}, reinterpretAsFloat64({c_num:UInt64}), {c_chain:UInt32}, {c_address:String})
ORDER BY k_null, k_num, chain_id, address
LIMIT {limit:UInt32}
SETTINGS join_use_nulls = 1
