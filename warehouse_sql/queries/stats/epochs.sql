-- /api/stats/epochs: one summary per epoch with bribes or votes up to the snapshot, newest first.
-- Parameters: {chain_id:UInt32}, {snapshot_at:DateTime64(3, 'UTC')}, {limit:UInt32}
-- Bribe figures sum USD values at deposit time (null when a part is unknown); vote figures sum
-- the epoch's vote allocations; gaugeCount counts gauges that received votes; topGauges are the
-- five most-voted gauges with token symbols from the snapshot's pool rows (null when the pool
-- has no row in it). Unmatched LEFT JOIN rows carry default values (0, '', []), handled below.
WITH
    bribes AS
    (
        SELECT
            epoch,
            count()                                                              AS bribe_count,
            if(countIf(amount_usd IS NULL) > 0, NULL, arraySum(arraySort(groupArray(amount_usd)))) AS bribes_usd,
            countIf(is_foundation)                                               AS f_count,
            if(countIf(is_foundation AND amount_usd IS NULL) > 0, NULL,
               arraySum(arraySort(groupArrayIf(amount_usd, is_foundation))))     AS f_usd
        FROM bribe_events FINAL
        WHERE chain_id = {chain_id:UInt32} AND block_timestamp <= {snapshot_at:DateTime64(3, 'UTC')}
        GROUP BY epoch
    ),
    per_gauge AS
    (
        SELECT epoch, gauge_address, pool_address, sum(weight_raw) AS w, sumIf(weight_raw, is_foundation) AS fw
        FROM vote_events FINAL
        WHERE chain_id = {chain_id:UInt32} AND block_timestamp <= {snapshot_at:DateTime64(3, 'UTC')}
        GROUP BY epoch, gauge_address, pool_address
    ),
    symbols AS
    (
        SELECT pool_address, any(token0_symbol) AS s0, any(token1_symbol) AS s1
        FROM pool_snap15m FINAL
        WHERE chain_id = {chain_id:UInt32} AND snapshot_at = {snapshot_at:DateTime64(3, 'UTC')}
        GROUP BY pool_address
    ),
    votes AS
    (
        SELECT
            epoch,
            sum(w)   AS total_w,
            sum(fw)  AS f_w,
            count()  AS gauge_count,
            arrayMap(x -> (x.1, x.2, x.3, x.4, toString(x.5), toFloat64(x.5) / 1e18),
                     arraySlice(arrayReverseSort(x -> x.5, groupArray((g.gauge_address, g.pool_address, if(s.pool_address = '', NULL, s.s0), if(s.pool_address = '', NULL, s.s1), g.w))), 1, 5)) AS top
        FROM per_gauge AS g
        LEFT JOIN symbols AS s ON s.pool_address = g.pool_address
        GROUP BY epoch
    ),
    epochs AS
    (
        SELECT epoch FROM bribes
        UNION DISTINCT
        SELECT epoch FROM votes
    )
SELECT
    toInt64(toUnixTimestamp(e.epoch))                                  AS epochStart,
    ifNull(b.bribe_count, 0)                                           AS bribeCount,
    if(b.bribe_count > 0, b.bribes_usd, 0)                             AS totalBribesUsd,
    ifNull(b.f_count, 0)                                               AS foundationBribeCount,
    if(b.f_count > 0, b.f_usd, 0)                                      AS foundationBribesUsd,
    toString(ifNull(v.total_w, 0))                                     AS totalVotesRaw,
    toFloat64(ifNull(v.total_w, 0)) / 1e18                             AS totalVotes,
    toString(ifNull(v.f_w, 0))                                         AS foundationVotesRaw,
    if(v.total_w > 0, toFloat64(v.f_w) / toFloat64(v.total_w), NULL) AS foundationVoteShare,
    ifNull(v.gauge_count, 0)                                           AS gaugeCount,
    v.top                                                              AS topGauges
FROM epochs AS e
LEFT JOIN bribes AS b ON b.epoch = e.epoch
LEFT JOIN votes AS v ON v.epoch = e.epoch
ORDER BY e.epoch DESC
LIMIT {limit:UInt32}
