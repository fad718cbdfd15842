-- /v1/accounts/{address}/voting-positions: the veNFTs {address:String} owns at each selected chain's
-- published snapshot (venft_snap15m: the lock read at the snapshot block, so ownership follows
-- whatever moved the veNFT before it), in (chain_id, venft_id) order after the keyset position
-- when {after} is 1, each with the allocation in effect at the snapshot (the Voter's logs before the
-- snapshot's time replayed: `held` is vote_allocations.sql's, keep the two alike) and its last Voter
-- transaction and last vote.
-- Parameters: {address:String} (lower case), {chain_ids:Array(UInt32)},
-- {snapshot_ats:Array(DateTime64(3, 'UTC'))}, {after:UInt8}, {c_chain:UInt32}, {c_token:UInt64},
-- {limit:UInt32} (a page and one more row).
WITH locks AS (
    SELECT chain_id, venft_id, locked_raw, unlock_time, permanent, voting_power_raw, block_number,
           toInt64(toUnixTimestamp64Milli(block_timestamp)) AS power_at_ms
    FROM venft_snap15m FINAL
    WHERE chain_id IN {chain_ids:Array(UInt32)}
      AND snapshot_at = {snapshot_ats:Array(DateTime64(3, 'UTC'))}[indexOf({chain_ids:Array(UInt32)}, chain_id)]
      AND snapshot_at IN {snapshot_ats:Array(DateTime64(3, 'UTC'))}  -- the key's range (the pair above is exact)
      AND owner = {address:String}
      AND (NOT {after:UInt8} OR (chain_id, venft_id) > ({c_chain:UInt32}, {c_token:UInt64}))
    ORDER BY chain_id, venft_id
    LIMIT {limit:UInt32}
),
logs AS (
    SELECT chain_id, venft_id, target, gauge_address, pool_address, kind, event_name, weight_raw,
           block_timestamp, block_number, log_index, transaction_hash
    FROM vote_actions FINAL
    WHERE chain_id IN {chain_ids:Array(UInt32)}
      AND block_timestamp < {snapshot_ats:Array(DateTime64(3, 'UTC'))}[indexOf({chain_ids:Array(UInt32)}, chain_id)]
      AND (chain_id, venft_id) IN (SELECT chain_id, venft_id FROM locks)
),
held AS (
    SELECT chain_id, venft_id, target,
           toInt256(sumIf(weight_raw, event_name = 'Voted')) - toInt256(sumIf(weight_raw, event_name = 'Abstained'))
                                                              AS weight,
           argMax(gauge_address, (block_number, log_index))   AS gauge_address,
           argMax(pool_address, (block_number, log_index))    AS pool_address
    FROM logs
    GROUP BY chain_id, venft_id, target
    HAVING weight > 0
),
allocated AS (
    SELECT chain_id, venft_id, 1 AS present,
           arraySort(groupArray((target, gauge_address, pool_address, toString(weight)))) AS allocation,
           toString(sum(weight))                              AS used_weight_raw
    FROM held
    GROUP BY chain_id, venft_id
),
acted AS (
    SELECT chain_id, venft_id, 1 AS present,
           argMax((kind, toInt64(toUnixTimestamp64Milli(block_timestamp)), block_number, transaction_hash),
                  (block_number, log_index))                  AS last_action,
           maxIf(toInt64(toUnixTimestamp64Milli(block_timestamp)), kind = 'vote') AS last_voted_ms
    FROM logs
    GROUP BY chain_id, venft_id
)
SELECT
    l.chain_id AS chain_id, l.venft_id AS venft_id,
    toString(l.locked_raw) AS locked_raw, toInt64(toUnixTimestamp(l.unlock_time)) AS unlock_ts,
    l.permanent AS permanent, toString(l.voting_power_raw) AS voting_power_raw,
    l.block_number AS power_block, l.power_at_ms AS power_at_ms,
    a.allocation AS allocation, if(a.present = 1, a.used_weight_raw, '0') AS used_weight_raw,
    v.present AS acted,
    v.last_action.1 AS last_kind, v.last_action.2 AS last_at_ms, v.last_action.3 AS last_block,
    v.last_action.4 AS last_tx, v.last_voted_ms AS last_voted_ms
FROM locks AS l
LEFT JOIN allocated AS a ON a.chain_id = l.chain_id AND a.venft_id = l.venft_id
LEFT JOIN acted AS v ON v.chain_id = l.chain_id AND v.venft_id = l.venft_id
ORDER BY l.chain_id, l.venft_id
