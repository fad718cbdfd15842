-- Governance snapshot rows of published snapshots in [from_ts, to_ts], each table against itself
-- and its neighbours:
--   ve: one row per snapshot; permanent + decaying locked = locked; the lock counts add up;
--   venft: where a snapshot has per-lock rows, they sum to the ve row's locked amount (the chain's
--          VotingEscrow.supply(): an independent read) and their count is its lock count;
--   foundation: one row per snapshot; its epoch votes and vote count equal its vote rows;
--   gauges: at least one row per snapshot; total APR = emission + fee + bribe (1e-9 relative)
--           wherever all four are known;
--   kpi: classification in the methodology's set, rows stamped with a version of
--        {methodology:String}'s major (a minor bump adds figures: older rows stay valid).
-- Parameters: {chain_id:UInt32}, {from_ts:Int64}, {to_ts:Int64} (Unix seconds, inclusive),
--             {rel_tol:Float64}, {methodology:String}
WITH published AS
(
    SELECT DISTINCT snapshot_at
    FROM snapshot_runs FINAL
    WHERE chain_id = {chain_id:UInt32}
      AND status = 'success'
      AND snapshot_at >= toDateTime64({from_ts:Int64}, 3, 'UTC')
      AND snapshot_at <= toDateTime64({to_ts:Int64}, 3, 'UTC')
)
SELECT
    (SELECT count() FROM published)                                                       AS published,
    (
        SELECT countIf(ifNull(v.rows, 0) != 1
                       OR v.permanent + v.decaying != v.locked
                       OR v.locks != v.permanent_locks + v.decaying_locks + v.expired_locks)
        FROM published AS p
        LEFT JOIN
        (
            SELECT snapshot_at, count() AS rows, any(locked_raw) AS locked,
                   any(permanent_locked_raw) AS permanent, any(decaying_locked_raw) AS decaying,
                   any(lock_count) AS locks, any(permanent_lock_count) AS permanent_locks,
                   any(decaying_lock_count) AS decaying_locks, any(expired_lock_count) AS expired_locks
            FROM ve_snap15m FINAL
            WHERE chain_id = {chain_id:UInt32}
              AND snapshot_at IN (SELECT snapshot_at FROM published)
            GROUP BY snapshot_at
        ) AS v ON v.snapshot_at = p.snapshot_at
    )                                                                                     AS bad_ve,
    (
        SELECT countIf(ifNull(f.rows, 0) != 1
                       OR f.votes != ifNull(fv.weight, toUInt256(0))
                       OR f.vote_count != ifNull(fv.allocations, 0))
        FROM published AS p
        LEFT JOIN
        (
            SELECT snapshot_at, count() AS rows, any(votes_epoch_raw) AS votes, any(vote_count) AS vote_count
            FROM foundation_snap15m FINAL
            WHERE chain_id = {chain_id:UInt32}
              AND snapshot_at IN (SELECT snapshot_at FROM published)
            GROUP BY snapshot_at
        ) AS f ON f.snapshot_at = p.snapshot_at
        LEFT JOIN
        (
            SELECT snapshot_at, sum(weight_raw) AS weight, count() AS allocations
            FROM foundation_vote_snap15m FINAL
            WHERE chain_id = {chain_id:UInt32}
              AND snapshot_at IN (SELECT snapshot_at FROM published)
            GROUP BY snapshot_at
        ) AS fv ON fv.snapshot_at = p.snapshot_at
    )                                                                                     AS bad_foundation,
    (
        SELECT countIf(n.locked != v.locked_raw OR n.locks != v.lock_count)
        FROM
        (
            SELECT snapshot_at, sum(locked_raw) AS locked, count() AS locks
            FROM venft_snap15m FINAL
            WHERE chain_id = {chain_id:UInt32}
              AND snapshot_at IN (SELECT snapshot_at FROM published)
            GROUP BY snapshot_at
        ) AS n
        INNER JOIN (SELECT * FROM ve_snap15m FINAL WHERE chain_id = {chain_id:UInt32}) AS v
            ON v.snapshot_at = n.snapshot_at
    )                                                                                     AS bad_venft,
    (
        SELECT count()
        FROM published
        WHERE snapshot_at NOT IN
        (
            SELECT snapshot_at FROM gauge_snap15m FINAL
            WHERE chain_id = {chain_id:UInt32} AND snapshot_at IN (SELECT snapshot_at FROM published)
        )
    )                                                                                     AS snapshots_without_gauges,
    (
        SELECT countIf(abs(total_apr - (emission_apr + fee_apr + bribe_apr))
                       > {rel_tol:Float64} * greatest(abs(total_apr), 1e-12))
        FROM gauge_snap15m FINAL
        WHERE chain_id = {chain_id:UInt32}
          AND snapshot_at IN (SELECT snapshot_at FROM published)
          AND total_apr IS NOT NULL AND emission_apr IS NOT NULL AND fee_apr IS NOT NULL AND bribe_apr IS NOT NULL
    )                                                                                     AS bad_gauge_apr,
    (
        SELECT countIf(classification NOT IN ('scale', 'repeat', 'monitor', 'reduce', 'stop', 'insufficient_data')
                       OR splitByChar('.', methodology_version)[1] != splitByChar('.', {methodology:String})[1])
        FROM kpi_snap15m FINAL
        WHERE chain_id = {chain_id:UInt32}
          AND snapshot_at IN (SELECT snapshot_at FROM published)
    )                                                                                     AS bad_kpi
