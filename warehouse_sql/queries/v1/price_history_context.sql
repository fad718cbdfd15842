-- /v1/tokens/{chainId}/{tokenAddress}/price-history: what one page needs besides its periods
-- (ADR 0011), one row:
--   first_at        the chain's first market activity (chain_coverage), Unix seconds; NULL: none
--   listed, blocked the token is in a published snapshot at or before the pinned one or has a
--                   valuation; its status in the curation publication is 'blocked' (both 0 unless
--                   {check_token:UInt8}: only a traversal's first page asks)
--   valued_from, valued_through  the chain's valued hour boundaries from price_valuation_runs: the
--                   close of its first valued hour, and the end of the valued hours contiguous
--                   from there (NULL: no valuation run)
--   days            (day, valued_until, generation, revision) of each UTC day overlapping the
--                   range that has a valuation run, in order: which hours are valued
--   snapshots       (snapshot time, successful runs) of each published snapshot in the range at or
--                   before the pinned one, in order; with `days`, the evidence a traversal's cursor
--                   binds to (a rerun that republishes a snapshot is its revision 2)
-- The range is [{from_ts:Int64}, {to_ts:Int64}), its start the first market activity when
-- {earliest:UInt8}. A day's valuation is its latest run (argMax by written_at), as the view
-- v1_price_observations (057) reads it.
SELECT
    m.first_at                                                    AS first_at,
    t.listed                                                      AS listed,
    b.blocked                                                     AS blocked,
    v.valued_from                                                 AS valued_from,
    v.valued_through                                              AS valued_through,
    if({earliest:UInt8} = 1, ifNull(m.first_at, {to_ts:Int64}), {from_ts:Int64}) AS range_from,
    arrayFilter(d -> d.1 + 86400 > range_from AND d.1 < {to_ts:Int64}, v.days) AS days,
    arrayFilter(r -> r.1 >= range_from, s.runs)                   AS snapshots
FROM
(
    SELECT if(count() = 0, NULL, toInt64(toUnixTimestamp(min(first_at)))) AS first_at
    FROM chain_coverage
    WHERE chain_id = {chain_id:UInt32} AND dataset = 'market_activity'
) AS m
CROSS JOIN
(
    SELECT toUInt8(
        (SELECT count() FROM token_hourly
         WHERE {check_token:UInt8} = 1 AND chain_id = {chain_id:UInt32} AND token_address = {address:String}) > 0
        OR (SELECT count() FROM token_snap15m
            WHERE {check_token:UInt8} = 1 AND chain_id = {chain_id:UInt32} AND token_address = {address:String}
              AND snapshot_at <= fromUnixTimestamp64Milli({pinned:Int64} * 1000)
              AND snapshot_at IN (SELECT snapshot_at FROM snapshot_runs
                                  WHERE chain_id = {chain_id:UInt32} AND status = 'success')) > 0
    ) AS listed
) AS t
CROSS JOIN
(
    SELECT toUInt8(count() > 0) AS blocked
    FROM curation_entities FINAL
    WHERE {check_token:UInt8} = 1 AND digest = {curation:String} AND chain_id = {chain_id:UInt32}
      AND kind = 'token' AND address = {address:String} AND status = 'blocked'
) AS b
CROSS JOIN
(
    SELECT
        arraySort(groupArray((day, until, generation, revision)))                   AS days,
        -- the first day that is not full (valued to its end) or not the next of the one before
        arrayFirstIndex((d, i) -> d.1 != days[1].1 + (i - 1) * 86400 OR d.2 < d.1 + 86400,
                        days, arrayEnumerate(days))                                 AS broken,
        if(empty(days), NULL, days[1].1 + 3600)                                      AS first_close,
        multiIf(empty(days), NULL,
                broken = 0, least(days[-1].2, days[-1].1 + 86400),
                days[broken].1 != days[1].1 + (broken - 1) * 86400, days[broken - 1].1 + 86400,
                days[broken].2)                                                      AS last_close,
        if(last_close >= first_close, first_close, NULL)                             AS valued_from,
        if(last_close >= first_close, last_close, NULL)                              AS valued_through
    FROM
    (
        SELECT toInt64(toUnixTimestamp(toStartOfDay(day_start)))             AS day,
               toInt64(toUnixTimestamp(argMax(valued_until, written_at)))    AS until,
               argMax(generation, written_at)                                AS generation,
               argMax(revision, written_at)                                  AS revision
        FROM price_valuation_runs
        WHERE chain_id = {chain_id:UInt32}
        GROUP BY day_start
    )
) AS v
CROSS JOIN
(
    SELECT arraySort(groupArray((at, runs))) AS runs
    FROM
    (
        SELECT toInt64(toUnixTimestamp(snapshot_at)) AS at, toUInt32(uniqExact(run_id)) AS runs
        FROM snapshot_runs
        WHERE chain_id = {chain_id:UInt32} AND status = 'success'
          AND snapshot_at < fromUnixTimestamp64Milli({to_ts:Int64} * 1000)
          AND snapshot_at <= fromUnixTimestamp64Milli({pinned:Int64} * 1000)
        GROUP BY snapshot_at
    )
) AS s
