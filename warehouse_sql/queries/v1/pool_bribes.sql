-- /v1/pools/{chainId}/{poolAddress}/bribes: the pool at the chain's published snapshot
-- (v1_pool_identity, migration 062: one row when listed, none otherwise), the hour of its first
-- bucket (pool_hourly: its first epoch), how far the chain's governance events are indexed
-- (chain_coverage 'events'), and the notified funding of its gauges per epoch and token in
-- [{epoch_from}, {epoch_to}): deposits before the snapshot's time (block_timestamp < snapshot_at),
-- raw amounts summed exactly (UInt256), USD at deposit time summed where known (usd_missing
-- counts the deposits without it), the gauges funded.
-- Parameters: {chain_id:UInt32}, {snapshot_at:DateTime64(3, 'UTC')}, {address:String} lower-case,
-- {curation:String}, {scope_all:UInt8}, {epoch_from:Int64}, {epoch_to:Int64} (Unix seconds).
SELECT
    p.pool_type AS pool_type,
    p.servable  AS servable,
    (SELECT if(count() > 0, toInt64(toUnixTimestamp(min(hour_start))), NULL)
     FROM pool_hourly FINAL
     WHERE chain_id = {chain_id:UInt32} AND pool_address = {address:String}) AS first_hour,
    (SELECT if(count() > 0, toInt64(toUnixTimestamp(min(first_at))), NULL)
     FROM chain_coverage WHERE chain_id = {chain_id:UInt32} AND dataset = 'events') AS events_from,
    (SELECT if(count() > 0, toInt64(toUnixTimestamp(max(last_at))), NULL)
     FROM chain_coverage WHERE chain_id = {chain_id:UInt32} AND dataset = 'events') AS events_through,
    (
        SELECT groupArray((epoch_ts, token_address, token_symbol, token_decimals, amount_raw, usd, usd_missing,
                           deposits, gauges))
        FROM
        (
            SELECT toInt64(toUnixTimestamp(epoch))            AS epoch_ts,
                   token_address,
                   any(token_symbol)                          AS token_symbol,
                   any(token_decimals)                        AS token_decimals,
                   toString(sum(amount_raw))                  AS amount_raw,
                   arraySum(arraySort(groupArray(assumeNotNull(amount_usd)))) AS usd,
                   countIf(amount_usd IS NULL)                AS usd_missing,
                   count()                                    AS deposits,
                   arraySort(groupUniqArray(gauge_address))   AS gauges
            FROM bribe_events FINAL
            WHERE chain_id = {chain_id:UInt32}
              AND epoch >= toDateTime64({epoch_from:Int64}, 3, 'UTC')
              AND epoch < toDateTime64({epoch_to:Int64}, 3, 'UTC')
              AND pool_address = {address:String}
              AND block_timestamp < {snapshot_at:DateTime64(3, 'UTC')}
            GROUP BY epoch_ts, token_address
            ORDER BY epoch_ts DESC, token_address
        )
    ) AS funding
FROM v1_pool_identity(chain_id = {chain_id:UInt32}, snapshot_at = {snapshot_at:DateTime64(3, 'UTC')},
                      address = {address:String}, curation = {curation:String}, scope_all = {scope_all:UInt8}) AS p
