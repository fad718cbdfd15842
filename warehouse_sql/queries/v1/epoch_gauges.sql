-- /v1/epochs/{chainId}/{epochStart} and /v1/markets/bribes: every gauge's aggregate of the epoch
-- {epoch:Int64} (Unix seconds of its start) on the selected chains as last read (gauge_epochs):
-- votes in effect, the weight that split its emissions, emissions, reward rate, emitted, trading
-- fees accrued to its fee reward (USD at each swap's time), notified bribes (USD at deposit time;
-- null when a deposit had no price), whether read before the epoch ended and when, with its pool's
-- tokens at the chain's published snapshot (pool_snap15m; none for a system gauge or a pool not
-- in it). Most votes first.
-- Parameters: {chain_ids:Array(UInt32)}, {snapshot_ats:Array(DateTime64(3, 'UTC'))} (the i-th the
-- i-th chain's), {epoch:Int64}.
WITH {snapshot_ats:Array(DateTime64(3, 'UTC'))}[indexOf({chain_ids:Array(UInt32)}, chain_id)] AS bound
SELECT
    e.chain_id                                      AS chain_id,
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
    WHERE chain_id IN {chain_ids:Array(UInt32)} AND epoch = toDateTime64({epoch:Int64}, 3, 'UTC')
) AS e
LEFT JOIN
(
    SELECT chain_id, pool_address, token0_symbol, token1_symbol FROM pool_snap15m FINAL
    WHERE chain_id IN {chain_ids:Array(UInt32)} AND snapshot_at = bound
          AND snapshot_at IN {snapshot_ats:Array(DateTime64(3, 'UTC'))}
) AS p ON p.chain_id = e.chain_id AND p.pool_address = e.pool_address
ORDER BY e.votes_raw DESC, e.chain_id, e.gauge_address
SETTINGS join_use_nulls = 1
