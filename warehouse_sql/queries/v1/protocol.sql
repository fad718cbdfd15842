-- /v1/protocol and the anchors of every /v1/protocol route: each covered chain's protocol
-- observation at its published snapshot, the end of its latest completed hourly bucket
-- (flow_window_end: where its rolling windows end) and the hour of its first market activity.
-- Parameters: {chain_ids:Array(UInt32)}, {snapshot_ats:Array(DateTime64(3, 'UTC'))}: equal
-- lengths, the i-th snapshot the i-th chain's (the coverage's usable chains).
-- One row per chain that has a protocol row at its snapshot; times as Unix seconds.
SELECT
    p.chain_id                                               AS chain_id,
    p.block_number                                           AS block_number,
    p.tvl_usd                                                AS tvl_usd,
    p.tvl_v2_usd                                             AS tvl_v2_usd,
    p.tvl_cl_usd                                             AS tvl_cl_usd,
    p.pool_count                                             AS pool_count,
    p.active_gauge_count                                     AS active_gauge_count,
    toInt64(toUnixTimestamp(p.flow_window_end))              AS flow_end,
    toInt64(toUnixTimestamp(toStartOfHour(m.first_at)))      AS first_hour
FROM
(
    SELECT *
    FROM protocol_snap15m FINAL
    WHERE chain_id IN {chain_ids:Array(UInt32)}
      AND snapshot_at IN {snapshot_ats:Array(DateTime64(3, 'UTC'))}
) AS p
LEFT JOIN
(
    SELECT chain_id, toNullable(min(first_at)) AS first_at
    FROM chain_coverage
    WHERE chain_id IN {chain_ids:Array(UInt32)} AND dataset = 'market_activity'
    GROUP BY chain_id
) AS m ON m.chain_id = p.chain_id
WHERE has(arrayZip({chain_ids:Array(UInt32)}, {snapshot_ats:Array(DateTime64(3, 'UTC'))}), (p.chain_id, p.snapshot_at))
ORDER BY chain_id
