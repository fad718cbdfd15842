-- /api/stats/foundation: the foundation's position at the snapshot (foundation_snap15m and its
-- vote rows) with its lifetime and recent (the 30 days up to the snapshot) bribe spend and
-- reward claims from the event tables. Always one row; hasSnapshotRow = 0 when the snapshot
-- has no foundation row (the handler then serves the position as null).
-- Parameters: {chain_id:UInt32}, {snapshot_at:DateTime64(3, 'UTC')}
-- USD sums add in ascending order (the same bits every run); with no row they stay NULL, as
-- sum() of a Nullable column does.
SELECT
    f.has_row                                      AS hasSnapshotRow,
    f.wallet                                       AS wallet,
    f.venft_ids                                    AS veNftIds,
    toString(f.locked_raw)                         AS totalLockedRaw,
    toFloat64(f.locked_raw) / 1e18                 AS totalLocked,
    toString(f.voting_power_raw)                   AS votingPowerRaw,
    toFloat64(f.voting_power_raw) / 1e18           AS votingPower,
    toInt64(toUnixTimestamp(f.epoch_start))        AS epochStart,
    toString(f.votes_epoch_raw)                    AS votesThisEpochRaw,
    toFloat64(f.votes_epoch_raw) / 1e18            AS votesThisEpoch,
    f.vote_count                                   AS voteCount,
    f.voted_pool_count                             AS votedPoolCount,
    a.allocation                                   AS allocation,
    b.n                                            AS bribesLifetimeCount,
    if(b.unknown > 0, NULL, b.usd)                 AS bribesLifetimeUsd,
    b.n_recent                                     AS bribesRecentCount,
    if(b.unknown_recent > 0, NULL, b.usd_recent)   AS bribesRecentUsd,
    c.n                                            AS claimsLifetimeCount,
    if(c.unknown > 0, NULL, c.usd)                 AS claimsLifetimeUsd,
    c.n_recent                                     AS claimsRecentCount,
    if(c.unknown_recent > 0, NULL, c.usd_recent)   AS claimsRecentUsd
FROM
(
    SELECT count() AS has_row, any(wallet) AS wallet, any(venft_ids) AS venft_ids, any(locked_raw) AS locked_raw,
           any(voting_power_raw) AS voting_power_raw, any(epoch_start) AS epoch_start,
           any(votes_epoch_raw) AS votes_epoch_raw, any(vote_count) AS vote_count,
           any(voted_pool_count) AS voted_pool_count
    FROM foundation_snap15m FINAL
    WHERE chain_id = {chain_id:UInt32} AND snapshot_at = {snapshot_at:DateTime64(3, 'UTC')}
) AS f
CROSS JOIN
(
    SELECT groupArray((pool_address, toString(w), toFloat64(w) / 1e18)) AS allocation
    FROM
    (
        SELECT pool_address, sum(weight_raw) AS w
        FROM foundation_vote_snap15m FINAL
        WHERE chain_id = {chain_id:UInt32} AND snapshot_at = {snapshot_at:DateTime64(3, 'UTC')}
        GROUP BY pool_address
        ORDER BY w DESC, pool_address ASC
    )
) AS a
CROSS JOIN
(
    SELECT count() AS n, if(count(amount_usd) = 0, NULL, arraySum(arraySort(groupArray(amount_usd)))) AS usd,
           countIf(amount_usd IS NULL) AS unknown, countIf(recent) AS n_recent,
           if(countIf(recent AND amount_usd IS NOT NULL) = 0, NULL,
              arraySum(arraySort(groupArrayIf(amount_usd, recent)))) AS usd_recent,
           countIf(recent AND amount_usd IS NULL) AS unknown_recent
    FROM
    (
        SELECT amount_usd, block_timestamp > {snapshot_at:DateTime64(3, 'UTC')} - toIntervalDay(30) AS recent
        FROM bribe_events FINAL
        WHERE chain_id = {chain_id:UInt32} AND is_foundation AND block_timestamp <= {snapshot_at:DateTime64(3, 'UTC')}
    )
) AS b
CROSS JOIN
(
    SELECT count() AS n, if(count(amount_usd) = 0, NULL, arraySum(arraySort(groupArray(amount_usd)))) AS usd,
           countIf(amount_usd IS NULL) AS unknown, countIf(recent) AS n_recent,
           if(countIf(recent AND amount_usd IS NOT NULL) = 0, NULL,
              arraySum(arraySort(groupArrayIf(amount_usd, recent)))) AS usd_recent,
           countIf(recent AND amount_usd IS NULL) AS unknown_recent
    FROM
    (
        SELECT amount_usd, block_timestamp > {snapshot_at:DateTime64(3, 'UTC')} - toIntervalDay(30) AS recent
        FROM claim_events FINAL
        WHERE chain_id = {chain_id:UInt32} AND is_foundation AND block_timestamp <= {snapshot_at:DateTime64(3, 'UTC')}
    )
) AS c
