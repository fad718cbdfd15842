-- /v1/epochs/{chainId}/{epochStart}: every gauge's aggregate of the epoch as last read
-- (gauge_epochs), most votes first, with its pool's tokens at the chain's published snapshot
-- (pool_snap15m; none for a system gauge or a pool not in the snapshot).
-- Parameters: {chain_id:UInt32}, {snapshot_at:DateTime64(3, 'UTC')}, {epoch:Int64} (Unix seconds).
SELECT
    e.gauge_address                                 AS address,
    e.gauge_kind                                    AS gauge_kind,
    e.target                                        AS target,
    e.pool_address                                  AS pool_address,
    e.is_alive                                      AS is_alive,
    e.is_partial                                    AS is_partial,
    toString(e.votes_raw)                           AS votes_raw,
    toString(e.votes_at_start_raw)                  AS votes_at_start_raw,
    toString(e.emissions_raw)                       AS emissions_raw,
    toString(e.reward_rate_raw)                     AS reward_rate_raw,
    toString(e.emitted_raw)                         AS emitted_raw,
    e.fees_usd                                      AS fees_usd,
    e.bribes_usd                                    AS bribes_usd,
    e.bribe_count                                   AS bribe_count,
    e.unpriced_bribe_count                          AS unpriced_bribe_count,
    toInt64(toUnixTimestamp(e.read_at))             AS read_at,
    p.pool_address IS NOT NULL                      AS pool_listed,
    p.token0_symbol                                 AS token0_symbol,
    p.token1_symbol                                 AS token1_symbol
FROM
(
    SELECT * FROM gauge_epochs FINAL
    WHERE chain_id = {chain_id:UInt32} AND epoch = toDateTime64({epoch:Int64}, 3, 'UTC')
) AS e
LEFT JOIN
(
    SELECT pool_address, token0_symbol, token1_symbol FROM pool_snap15m FINAL
    WHERE chain_id = {chain_id:UInt32} AND snapshot_at = {snapshot_at:DateTime64(3, 'UTC')}
) AS p ON p.pool_address = e.pool_address
ORDER BY e.votes_raw DESC, e.gauge_address
SETTINGS join_use_nulls = 1
