-- /api/stats/markets/bribes: the bribe market of one epoch, per gauge: bribes deposited (USD at
-- deposit time), the pool's fees over the epoch's hours ended by the snapshot (voter fee rewards),
-- the epoch's votes and dollarPerVote = (bribes + fees) / votes. Pools with bribes or votes in the
-- epoch; sorted by total reward USD descending (unknown totals last). A system gauge (no user pool:
-- its pool address is its target) has no trading fees: 0 over 0 hours, not unknown.
-- Parameters: {chain_id:UInt32}, {snapshot_at:DateTime64(3, 'UTC')}, {epoch:Int64} (-1 = the most
-- recent epoch with bribes up to the snapshot), {min_usd:Float64}, {limit:UInt32}
WITH
    (
        SELECT if({epoch:Int64} >= 0, toDateTime64({epoch:Int64}, 3, 'UTC'), newest)
        FROM
        (
            SELECT max(epoch) AS newest
            FROM bribe_events FINAL
            WHERE chain_id = {chain_id:UInt32} AND block_timestamp <= {snapshot_at:DateTime64(3, 'UTC')}
        )
    ) AS target,
    bribes AS
    (
        SELECT pool_address, any(gauge_address) AS gauge, count() AS n, arraySum(arraySort(groupArray(amount_usd))) AS usd,
               countIf(amount_usd IS NULL) AS unknown, max(gauge_kind = 'system') AS system
        FROM bribe_events FINAL
        WHERE chain_id = {chain_id:UInt32} AND block_timestamp <= {snapshot_at:DateTime64(3, 'UTC')} AND epoch = target
        GROUP BY pool_address
    ),
    votes AS
    (
        SELECT pool_address, any(gauge_address) AS gauge, sum(weight_raw) AS w, max(gauge_kind = 'system') AS system
        FROM vote_events FINAL
        WHERE chain_id = {chain_id:UInt32} AND block_timestamp <= {snapshot_at:DateTime64(3, 'UTC')} AND epoch = target
        GROUP BY pool_address
    ),
    fees AS
    (
        SELECT pool_address, arraySum(arraySort(groupArray(fees_usd))) AS usd, count() AS hours
        FROM pool_hourly FINAL
        WHERE chain_id = {chain_id:UInt32}
          AND hour_start >= target AND hour_start < target + toIntervalDay(7)
          AND hour_start + toIntervalHour(1) <= {snapshot_at:DateTime64(3, 'UTC')}
        GROUP BY pool_address
    ),
    symbols AS
    (
        SELECT pool_address, any(token0_symbol) AS s0, any(token1_symbol) AS s1
        FROM pool_snap15m FINAL
        WHERE chain_id = {chain_id:UInt32} AND snapshot_at = {snapshot_at:DateTime64(3, 'UTC')}
        GROUP BY pool_address
    ),
    pools AS
    (
        SELECT pool_address FROM bribes
        UNION DISTINCT
        SELECT pool_address FROM votes
    ),
    market AS
    (
        SELECT
            p.pool_address                                         AS pool_address,
            if(b.gauge != '', b.gauge, v.gauge)                    AS gauge,
            b.n                                                    AS n,
            if(b.n = 0, 0, if(b.unknown > 0, NULL, b.usd))         AS bribes_usd,
            if(f.hours = 0, if(b.system OR v.system, 0, NULL), f.usd) AS fees_usd,
            f.hours                                                AS hours,
            v.w                                                    AS w,
            if(s.pool_address = '', NULL, s.s0)                    AS s0,
            if(s.pool_address = '', NULL, s.s1)                    AS s1
        FROM pools AS p
        LEFT JOIN bribes AS b ON b.pool_address = p.pool_address
        LEFT JOIN votes AS v ON v.pool_address = p.pool_address
        LEFT JOIN fees AS f ON f.pool_address = p.pool_address
        LEFT JOIN symbols AS s ON s.pool_address = p.pool_address
    )
SELECT
    gauge                                                      AS gaugeAddress,
    pool_address                                               AS poolAddress,
    s0                                                         AS token0Symbol,
    s1                                                         AS token1Symbol,
    toInt64(toUnixTimestamp(target))                           AS epoch,
    n                                                          AS bribeCount,
    bribes_usd                                                 AS totalBribesUsd,
    fees_usd                                                   AS totalFeesUsd,
    hours                                                      AS feeHoursCovered,
    bribes_usd + fees_usd                                      AS totalRewardUsd,
    toString(w)                                                AS votesRaw,
    toFloat64(w) / 1e18                                        AS votes,
    if(w = 0, NULL, (bribes_usd + fees_usd) / (toFloat64(w) / 1e18)) AS dollarPerVote
FROM market
WHERE {min_usd:Float64} = 0 OR totalRewardUsd >= {min_usd:Float64}
ORDER BY totalRewardUsd DESC NULLS LAST, gaugeAddress ASC
LIMIT {limit:UInt32}
