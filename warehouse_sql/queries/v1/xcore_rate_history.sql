-- /v1/xcore/rate-history: per period of a page, the canonical chain's last xCORE event in it (the
-- rate, supply and backing in effect at the period's close) and how many of its events changed the
-- rate; row i = 0 is the last event before the page (the state the page starts from). Periods are
-- [start, end) with {ends} ascending and the first starting at {page_from}; events after
-- {through} (the traversal's indexed boundary, inclusive) are not shown. Periods without an
-- event have no row: they carry the state before them.
-- Parameters: {canonical:UInt32}, {ends:Array(Int64)}, {page_from:Int64}, {through:Int64}.
SELECT i,
       toString(argMax(new_ratio_raw, (block_number, log_index))) AS ratio_raw,
       toString(argMax(supply_raw, (block_number, log_index))) AS supply_raw,
       toString(argMax(backing_raw, (block_number, log_index))) AS backing_raw,
       argMax(id, (block_number, log_index)) AS event_id,
       argMax(ts, (block_number, log_index)) AS event_at,
       max(block_number) AS last_block,
       countIf(new_ratio_raw != old_ratio_raw) AS rate_changes,
       count() AS events
FROM
(
    SELECT toInt64(toUnixTimestamp(block_timestamp)) AS ts,
           if(ts < {page_from:Int64}, 0, arrayFirstIndex(e -> ts < e, {ends:Array(Int64)})) AS i,
           new_ratio_raw, old_ratio_raw, supply_raw, backing_raw, id, block_number, log_index
    FROM xcore_events FINAL
    WHERE chain_id = {canonical:UInt32}
      AND block_timestamp < toDateTime({ends:Array(Int64)}[-1], 'UTC')
      AND block_timestamp <= toDateTime({through:Int64}, 'UTC')
)
GROUP BY i
ORDER BY i
