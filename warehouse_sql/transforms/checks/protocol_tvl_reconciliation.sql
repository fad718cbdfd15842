-- Reconciliation of published snapshots in [from_ts, to_ts]: protocol tvl_usd equals the sum of
-- the snapshot's pool tvl_usd, and tvl_v2_usd + tvl_cl_usd equals tvl_usd, within {rel_tol}
-- relative. A NULL protocol TVL is consistent only when some pool's TVL is unknown.
-- Parameters: {chain_id:UInt32}, {from_ts:Int64}, {to_ts:Int64}, {rel_tol:Float64}
SELECT
    count()                                   AS checked,
    countIf(NOT ok)                           AS mismatched,
    max(rel_err)                              AS max_rel_err,
    arraySort(groupArrayIf(10)(snapshot_ts, NOT ok)) AS examples
FROM
(
    SELECT
        toInt64(toUnixTimestamp(p.snapshot_at)) AS snapshot_ts,
        abs(p.tvl_usd - pl.tvl_sum) / greatest(abs(p.tvl_usd), abs(pl.tvl_sum), 1e-12) AS rel_sum,
        abs(p.tvl_v2_usd + p.tvl_cl_usd - p.tvl_usd) / greatest(abs(p.tvl_usd), 1e-12) AS rel_split,
        ifNull(greatest(rel_sum, rel_split), 0)  AS rel_err,
        if(p.tvl_usd IS NULL, pl.unknown > 0, pl.unknown = 0 AND rel_sum <= {rel_tol:Float64} AND rel_split <= {rel_tol:Float64}) AS ok
    FROM
    (
        SELECT snapshot_at, tvl_usd, tvl_v2_usd, tvl_cl_usd
        FROM protocol_snap15m FINAL
        WHERE chain_id = {chain_id:UInt32}
          AND snapshot_at >= toDateTime64({from_ts:Int64}, 3, 'UTC')
          AND snapshot_at <= toDateTime64({to_ts:Int64}, 3, 'UTC')
          AND snapshot_at IN (
              SELECT snapshot_at FROM snapshot_runs FINAL
              WHERE chain_id = {chain_id:UInt32} AND status = 'success'
          )
    ) AS p
    LEFT JOIN
    (
        SELECT snapshot_at, sum(tvl_usd) AS tvl_sum, countIf(tvl_usd IS NULL) AS unknown
        FROM pool_snap15m FINAL
        WHERE chain_id = {chain_id:UInt32}
          AND snapshot_at >= toDateTime64({from_ts:Int64}, 3, 'UTC')
          AND snapshot_at <= toDateTime64({to_ts:Int64}, 3, 'UTC')
        GROUP BY snapshot_at
    ) AS pl ON pl.snapshot_at = p.snapshot_at
)
