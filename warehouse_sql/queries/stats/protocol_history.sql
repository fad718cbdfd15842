-- /api/stats/protocol/history: one point per successful snapshot with snapshot_at in
-- (snapshot_at - days * 86400 s, snapshot_at], oldest first (HistoryPoint).
-- Parameters: {chain_id:UInt32}, {snapshot_at:DateTime64(3, 'UTC')}, {days:UInt16}
-- Failed or partial runs are excluded by the join to snapshot_runs; a successful snapshot
-- without a protocol row keeps its point with NULL values (unknown is not zero).
SELECT
    toDateTime(runs.snapshot_at, 'UTC') AS snapshotAt,
    p.tvl_usd             AS tvlUsd,
    p.volume_24h_usd      AS volume24hUsd,
    p.fees_24h_usd        AS fees24hUsd,
    p.core_price_usd      AS corePriceUsd
FROM
(
    SELECT DISTINCT snapshot_at
    FROM snapshot_runs FINAL
    WHERE chain_id = {chain_id:UInt32}
      AND status = 'success'
      AND snapshot_at > {snapshot_at:DateTime64(3, 'UTC')} - toIntervalSecond({days:UInt16} * 86400)
      AND snapshot_at <= {snapshot_at:DateTime64(3, 'UTC')}
) AS runs
LEFT JOIN
(
    SELECT snapshot_at, tvl_usd, volume_24h_usd, fees_24h_usd, core_price_usd
    FROM protocol_snap15m FINAL
    WHERE chain_id = {chain_id:UInt32}
      AND snapshot_at > {snapshot_at:DateTime64(3, 'UTC')} - toIntervalSecond({days:UInt16} * 86400)
      AND snapshot_at <= {snapshot_at:DateTime64(3, 'UTC')}
) AS p ON p.snapshot_at = runs.snapshot_at
ORDER BY runs.snapshot_at
