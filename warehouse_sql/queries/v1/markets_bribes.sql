-- /v1/markets/bribes: the bribe market of one epoch {epoch:Int64} (Unix seconds of its start) on
-- the selected chains: per gauge with votes in effect or bribes notified in the epoch, its epoch
-- aggregate as last read (gauge_epochs: votes, bribes USD at deposit time, trading fees accrued to
-- its fee reward USD at each swap's time, whether read before the epoch ended, when), with its
-- pool's tokens at the chain's published snapshot (pool_snap15m; none for a system gauge).
-- Parameters: {chain_ids:Array(UInt32)}, {snapshot_ats:Array(DateTime64(3, 'UTC'))} (the i-th the
-- i-th chain's), {epoch:Int64}.
WITH {snapshot_ats:Array(DateTime64(3, 'UTC'))}[indexOf({chain_ids:Array(UInt32)}, chain_id)] AS bound
SELECT
    e.chain_id                               AS chain_id,
    e.gauge_address                          AS address,
    e.gauge_kind                             AS gauge_kind,
    e.target                                 AS target,
    e.pool_address                           AS pool_address,
    e.is_alive                               AS is_alive,
    e.is_partial                             AS is_partial,
    toString(e.votes_raw)                    AS votes_raw,
    e.votes_raw > 0                          AS has_votes,
    e.bribes_usd                             AS bribes_usd,
    e.bribe_count                            AS bribe_count,
    e.unpriced_bribe_count                   AS unpriced_bribe_count,
    e.fees_usd                               AS fees_usd,
    toInt64(toUnixTimestamp(e.read_at))      AS read_at,
    p.pool_address IS NOT NULL               AS pool_listed,
    p.token0_symbol                          AS token0_symbol,
    p.token1_symbol                          AS token1_symbol
FROM
(
    SELECT * FROM gauge_epochs FINAL
    WHERE chain_id IN {chain_ids:Array(UInt32)} AND epoch = toDateTime64({epoch:Int64}, 3, 'UTC')
      AND (votes_raw > 0 OR bribe_count > 0)
) AS e
LEFT JOIN
(
    SELECT chain_id, pool_address, token0_symbol, token1_symbol FROM pool_snap15m FINAL
    WHERE chain_id IN {chain_ids:Array(UInt32)} AND snapshot_at = bound
) AS p ON p.chain_id = e.chain_id AND p.pool_address = e.pool_address
SETTINGS join_use_nulls = 1
