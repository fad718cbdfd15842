-- /api/v1/gauges: the latest successful snapshot's APR breakdown of the given gauges.
-- Parameters: {chain_id:UInt32}, {addresses:Array(String)} (lower-case gauge addresses)
-- APRs are fractions per year; null when the stats job could not value an input.
WITH latest AS
(
    SELECT max(snapshot_at) AS at
    FROM snapshot_runs FINAL
    WHERE chain_id = {chain_id:UInt32} AND status = 'success'
)
SELECT
    lower(gauge_address) AS address,
    emission_apr         AS emission,
    fee_apr              AS fee,
    bribe_apr            AS bribe,
    total_apr            AS total,
    snapshot_at          AS snapshotAt
FROM gauge_snap15m FINAL
WHERE chain_id = {chain_id:UInt32}
  AND snapshot_at = (SELECT at FROM latest)
  AND lower(gauge_address) IN {addresses:Array(String)}
