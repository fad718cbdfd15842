-- /api/v1/gauges: every gauge of the latest successful stats snapshot with its pool, isAlive and
-- APR breakdown (fractions per year; null when the stats job could not value an input).
-- Parameters: {chain_id:UInt32}
WITH latest AS
(
    SELECT max(snapshot_at) AS at
    FROM snapshot_runs FINAL
    WHERE chain_id = {chain_id:UInt32} AND status = 'success'
)
SELECT
    lower(gauge_address) AS address,
    lower(pool_address)  AS pool,
    is_alive             AS isAlive,
    emission_apr         AS emission,
    fee_apr              AS fee,
    bribe_apr            AS bribe,
    total_apr            AS total,
    snapshot_at          AS snapshotAt
FROM gauge_snap15m FINAL
WHERE chain_id = {chain_id:UInt32}
  AND snapshot_at = (SELECT at FROM latest)
ORDER BY address
