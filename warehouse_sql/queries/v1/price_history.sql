-- /v1/tokens/{chainId}/{tokenAddress}/price-history: the sample evidence of each period of one
-- page (ADR 0011), one row per period i (1-based, oldest first):
--   c_*        its latest canonical observation with a price (start <= snapshotAt < end, at or
--              before the chain's pinned snapshot); c_source '' when none
--   h_*        the historical valuation at its closing hour boundary (the hour is valued; h_price
--              NULL: valued without a price); h_source '' when none
--   snapshots  how many published snapshots (at or before the pinned one) lie in it, the token
--              listed or not
-- Periods (core.prices.periods, {step:Int64} seconds long): their exclusive ends
-- {ends:Array(Int64)} and closing hour boundaries {boundaries:Array(Int64)} (0: none);
-- {page_from:Int64} is the first one's start and {page_to:Int64} the last one's end. The
-- observations are those of the parameterized view v1_price_observations (057) of the token
-- '<chainId>:<address>' {token:String}, read at the chain's pinned snapshot {pinned:Int64} (Unix seconds).
SELECT
    p.i                                                               AS i,
    o.c_source                                                        AS c_source,
    o.c.1                                                             AS c_price,
    o.c.2                                                             AS c_sampled_at,
    o.c.3                                                             AS c_generation,
    o.c.4                                                             AS c_revision,
    o.c.5                                                             AS c_block,
    o.h_source                                                        AS h_source,
    o.h.1                                                             AS h_price,
    o.h.2                                                             AS h_sampled_at,
    o.h.3                                                             AS h_generation,
    o.h.4                                                             AS h_revision,
    o.h.5                                                             AS h_block,
    s.snapshots                                                       AS snapshots
FROM
(
    SELECT arrayJoin(arrayEnumerate({ends:Array(Int64)})) AS i
) AS p
LEFT JOIN
(
    SELECT
        -- the period of the page holding the observation: periods are {step:Int64} long and anchored
        -- at the page's end (only the first may be clipped); a canonical one lies in [start, end),
        -- a historical one closes (start, end] and counts only at the period's closing boundary
        length({ends:Array(Int64)}) - intDiv({page_to:Int64} - sampled_at - (source = 'canonical-observation'),
                                              {step:Int64})                                     AS i,
        if(countIf(source = 'canonical-observation') > 0, 'canonical-observation', '')          AS c_source,
        argMaxIf((price, sampled_at, generation, revision, block), sampled_at,
                 source = 'canonical-observation')                                              AS c,
        if(countIf(source = 'historical-valuation') > 0, 'historical-valuation', '')            AS h_source,
        argMaxIf((price, sampled_at, generation, revision, block), sampled_at,
                 source = 'historical-valuation')                                               AS h
    FROM v1_price_observations(chain_ids = [{chain_id:UInt32}], pinned = [{pinned:Int64}], tokens = [{token:String}],
                               from_ts = {page_from:Int64}, to_ts = {page_to:Int64})
    -- canonical: only priced ones sample a period (one at the page's end belongs to the next)
    WHERE i > 0
      AND ((source = 'canonical-observation' AND price IS NOT NULL AND sampled_at < {page_to:Int64})
           OR (source = 'historical-valuation' AND {boundaries:Array(Int64)}[i] = sampled_at))
    GROUP BY i
) AS o ON o.i = p.i
LEFT JOIN
(
    SELECT length({ends:Array(Int64)}) - intDiv({page_to:Int64} - 1 - at, {step:Int64}) AS i, count() AS snapshots
    FROM
    (
        SELECT DISTINCT toInt64(toUnixTimestamp(snapshot_at)) AS at
        FROM snapshot_runs
        WHERE chain_id = {chain_id:UInt32} AND status = 'success'
          AND snapshot_at >= fromUnixTimestamp64Milli({page_from:Int64} * 1000)
          AND snapshot_at < fromUnixTimestamp64Milli({page_to:Int64} * 1000)
          AND snapshot_at <= fromUnixTimestamp64Milli({pinned:Int64} * 1000)
    )
    GROUP BY i
) AS s ON s.i = p.i
ORDER BY i
