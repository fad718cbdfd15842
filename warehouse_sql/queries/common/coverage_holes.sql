-- What each chain is missing, as ranges: its 15-minute snapshots within its snapshot window
-- (dataset 'snapshots': a boundary without a successful snapshot_runs row) and its hourly history
-- since its first market activity (dataset 'history': an hour without a protocol_hourly bucket).
-- Windows, per chain with a known first market activity (the others have none):
--   snapshots: from its snapshot depth before the boundary at {now_ts} (not before the first
--              boundary at or after its first market activity) to the boundary at
--              {now_ts} - {snapshot_grace_seconds} (a younger one may still be in its run);
--   history:   from the hour after its first market activity's hour (that hour's bucket may or
--              may not exist) to the last hour that had ended by {now_ts} - {history_grace_seconds}.
-- The ranges are the gaps between consecutive present times in the window, plus a missing head
-- (before the first present time) and tail (after the last); a window with none is one range.
-- Parameters: {chain_ids:Array(UInt32)}, {depth_days:Array(UInt32)} (each chain's snapshot depth,
--   same order), {now_ts:Int64}, {snapshot_grace_seconds:Int64}, {history_grace_seconds:Int64}
--   (Unix seconds), {max_ranges:UInt32}
-- One row per chain (with a window) and dataset, by chain and dataset: the window, the total
-- number of ranges and of missing times, and at most max_ranges ranges, newest first, as arrays
-- of (first missing, last missing, count) in Unix seconds.
WITH
market AS (
    SELECT chain_id, toInt64(toUnixTimestamp(min(first_at))) AS first_ts
    FROM chain_coverage
    WHERE chain_id IN {chain_ids:Array(UInt32)} AND dataset = 'market_activity'
    GROUP BY chain_id
),
depths AS (
    SELECT c.1 AS chain_id, toInt64(c.2) AS depth_days
    FROM (SELECT arrayJoin(arrayZip({chain_ids:Array(UInt32)}, {depth_days:Array(UInt32)})) AS c)
),
windows AS (
    SELECT m.chain_id AS chain_id, 'snapshots' AS dataset, toInt64(900) AS step,
           greatest(intDiv({now_ts:Int64}, 900) * 900 - d.depth_days * 86400 + 900,
                    intDiv(m.first_ts + 899, 900) * 900) AS from_ts,
           intDiv({now_ts:Int64} - {snapshot_grace_seconds:Int64}, 900) * 900 AS to_ts
    FROM market AS m INNER JOIN depths AS d ON d.chain_id = m.chain_id
    UNION ALL
    SELECT chain_id, 'history', toInt64(3600), intDiv(first_ts, 3600) * 3600 + 3600,
           intDiv({now_ts:Int64} - {history_grace_seconds:Int64}, 3600) * 3600 - 3600
    FROM market
),
present AS (
    SELECT chain_id, 'snapshots' AS dataset, groupUniqArray(toInt64(toUnixTimestamp(snapshot_at))) AS times
    FROM snapshot_runs FINAL
    WHERE chain_id IN {chain_ids:Array(UInt32)} AND status = 'success'
    GROUP BY chain_id
    UNION ALL
    -- presence only: any version of an hour's bucket will do, so no FINAL
    SELECT chain_id, 'history', groupUniqArray(toInt64(toUnixTimestamp(hour_start)))
    FROM protocol_hourly
    WHERE chain_id IN {chain_ids:Array(UInt32)}
    GROUP BY chain_id
),
edges AS (
    -- sentinels one step outside the window make a missing head and tail gaps like the others
    SELECT w.chain_id AS chain_id, w.dataset AS dataset, w.step AS step, w.from_ts AS from_ts, w.to_ts AS to_ts,
           arrayConcat([w.from_ts - w.step],
                        arraySort(arrayFilter(t -> t >= w.from_ts AND t <= w.to_ts AND t % w.step = 0, p.times)),
                        [greatest(w.to_ts, w.from_ts - w.step) + w.step]) AS e
    FROM windows AS w
    LEFT JOIN present AS p ON p.chain_id = w.chain_id AND p.dataset = w.dataset
),
gaps AS (
    SELECT chain_id, dataset, from_ts, to_ts,
           arrayMap(g -> (g.1 + step, g.2 - step, intDiv(g.2 - g.1, step) - 1),
                    arrayFilter(g -> g.2 - g.1 > step, arrayZip(arrayPopBack(e), arrayPopFront(e)))) AS holes
    FROM edges
)
SELECT
    chain_id,
    dataset,
    from_ts AS window_from_ts,
    to_ts AS window_to_ts,
    length(holes) AS range_count,
    toInt64(arraySum(h -> h.3, holes)) AS missing_count,
    arraySlice(arrayReverse(holes), 1, {max_ranges:UInt32}) AS ranges
FROM gaps
ORDER BY chain_id, dataset
