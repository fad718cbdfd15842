-- /api/stats/ve: vote-escrow state of the snapshot (ve_snap15m); no row when the snapshot has
-- none (the handler then serves nulls: unknown is not zero).
-- Parameters: {chain_id:UInt32}, {snapshot_at:DateTime64(3, 'UTC')}
SELECT
    snapshot_at                                   AS snapshotAt,
    block_number                                  AS blockNumber,
    toFloat64(locked_raw) / 1e18                  AS totalLocked,
    toString(locked_raw)                          AS totalLockedRaw,
    toFloat64(voting_power_raw) / 1e18            AS totalVotingPower,
    toString(voting_power_raw)                    AS totalVotingPowerRaw,
    toFloat64(permanent_locked_raw) / 1e18        AS permanentLocked,
    toString(permanent_locked_raw)                AS permanentLockedRaw,
    toFloat64(decaying_locked_raw) / 1e18         AS decayingLocked,
    toString(decaying_locked_raw)                 AS decayingLockedRaw,
    lock_count                                    AS lockCount,
    permanent_lock_count                          AS permanentLockCount,
    decaying_lock_count                           AS decayingLockCount,
    expired_lock_count                            AS expiredLockCount,
    avg_remaining_lock_seconds                    AS averageLockDurationSeconds,
    avg_remaining_lock_seconds / 86400            AS averageLockDurationDays
FROM ve_snap15m FINAL
WHERE chain_id = {chain_id:UInt32}
  AND snapshot_at = {snapshot_at:DateTime64(3, 'UTC')}
LIMIT 1
