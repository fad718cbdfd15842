-- The 15-minute snapshots each chain is missing within its snapshot window, as ranges.
-- A chain's window runs from its snapshot depth before the boundary at {now_ts} (not before the
-- first 15-minute boundary at or after its first market activity) to the boundary at
-- {now_ts} - {grace_seconds} (a boundary younger than that may still be in its run); a boundary
-- is missing when no successful snapshot_runs row exists for it. The ranges are the gaps between
-- consecutive published times in the window, plus a missing head (before the first published
-- time) and tail (after the last one); a window without any published time is one range.
-- Parameters: {chain_ids:Array(UInt32)}, {depth_days:Array(UInt32)} (each chain's depth, same
--   order), {now_ts:Int64}, {grace_seconds:Int64} (Unix seconds), {max_ranges:UInt32}
-- One row per chain with a known first market activity (chains without have no window), by chain
-- id: the window, the total number of ranges and of missing snapshots, and at most max_ranges
-- ranges, newest first, as arrays of (first missing, last missing, count) in Unix seconds.
WITH windows AS (
    SELECT
        c.1 AS chain_id,
        greatest(intDiv({now_ts:Int64}, 900) * 900 - toInt64(c.2) * 86400 + 900,
                 intDiv(m.first_ts + 899, 900) * 900) AS from_ts,
        intDiv({now_ts:Int64} - {grace_seconds:Int64}, 900) * 900 AS to_ts
    FROM (SELECT arrayJoin(arrayZip({chain_ids:Array(UInt32)}, {depth_days:Array(UInt32)})) AS c) AS cd
    INNER JOIN (
        SELECT chain_id, toInt64(toUnixTimestamp(min(first_at))) AS first_ts
        FROM chain_coverage
        WHERE chain_id IN {chain_ids:Array(UInt32)} AND dataset = 'market_activity'
        GROUP BY chain_id
    ) AS m ON m.chain_id = cd.c.1
),
published AS (
    SELECT chain_id, groupUniqArray(toInt64(toUnixTimestamp(snapshot_at))) AS times
    FROM snapshot_runs FINAL
    WHERE chain_id IN {chain_ids:Array(UInt32)} AND status = 'success'
    GROUP BY chain_id
),
edges AS (
    -- sentinels one step outside the window make a missing head and tail gaps like the others
    SELECT w.chain_id AS chain_id, w.from_ts AS from_ts, w.to_ts AS to_ts,
           arrayConcat([w.from_ts - 900],
                        arraySort(arrayFilter(t -> t >= w.from_ts AND t <= w.to_ts AND t % 900 = 0, p.times)),
                        [greatest(w.to_ts, w.from_ts - 900) + 900]) AS e
    FROM windows AS w
    LEFT JOIN published AS p ON p.chain_id = w.chain_id
),
gaps AS (
    SELECT chain_id, from_ts, to_ts,
           arrayMap(g -> (g.1 + 900, g.2 - 900, intDiv(g.2 - g.1, 900) - 1),
                    arrayFilter(g -> g.2 - g.1 > 900, arrayZip(arrayPopBack(e), arrayPopFront(e)))) AS holes
    FROM edges
)
SELECT
    chain_id,
    from_ts AS window_from_ts,
    to_ts AS window_to_ts,
    length(holes) AS range_count,
    toInt64(arraySum(h -> h.3, holes)) AS missing_count,
    arraySlice(arrayReverse(holes), 1, {max_ranges:UInt32}) AS ranges
FROM gaps
ORDER BY chain_id
