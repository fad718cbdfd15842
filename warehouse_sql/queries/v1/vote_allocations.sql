-- /v1/votes?view=current: every veNFT's allocation in effect at each selected chain's published
-- snapshot, by replaying the Voter's logs before the snapshot's time (vote_actions: a target's
-- weight is its Voted weights minus its Abstained weights; allocations persist across epochs
-- until the veNFT votes again, pokes or resets), with the veNFT's lock and voting power at the
-- snapshot (venft_snap15m; NULL when not read). One row per (chain, veNFT, target) with weight,
-- ordered by (chain_id, venft_id, target), after the keyset position when {after} is 1.
-- Filters with an empty value (or -1 for token_id) select everything: {pool:String} (a pool or a
-- system gauge's target) and {gauge:String} with their {<name>_chain:UInt32}, {voter:String} (the
-- owner at the snapshot), {token_id:Int64}.
-- Parameters: {chain_ids:Array(UInt32)}, {snapshot_ats:Array(DateTime64(3, 'UTC'))}, the filters,
-- {after:UInt8}, {c_chain:UInt32}, {c_token:UInt64}, {c_target:String}, {limit:UInt32}.
WITH logs AS (
    SELECT chain_id, venft_id, target, gauge_address, pool_address, kind, event_name, weight_raw,
           block_timestamp, block_number, log_index, transaction_hash
    FROM vote_actions FINAL
    WHERE chain_id IN {chain_ids:Array(UInt32)}
      AND block_timestamp < {snapshot_ats:Array(DateTime64(3, 'UTC'))}[indexOf({chain_ids:Array(UInt32)}, chain_id)]
      AND ({token_id:Int64} = -1 OR venft_id = {token_id:Int64})
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
held_used AS (
    SELECT *, sum(weight) OVER (PARTITION BY chain_id, venft_id) AS used_weight FROM held
),
per_venft AS (
    SELECT chain_id, venft_id,
           argMax((kind, toInt64(toUnixTimestamp64Milli(block_timestamp)), block_number, transaction_hash),
                  (block_number, log_index))                  AS last_action,
           maxIf(toInt64(toUnixTimestamp64Milli(block_timestamp)), kind = 'vote') AS last_voted_ms
    FROM logs
    GROUP BY chain_id, venft_id
),
locks AS (
    SELECT 1 AS present, chain_id, venft_id, owner, locked_raw, unlock_time, permanent, voting_power_raw, block_number,
           toInt64(toUnixTimestamp64Milli(block_timestamp)) AS power_at_ms
    FROM venft_snap15m FINAL
    WHERE chain_id IN {chain_ids:Array(UInt32)}
      AND snapshot_at = {snapshot_ats:Array(DateTime64(3, 'UTC'))}[indexOf({chain_ids:Array(UInt32)}, chain_id)]
      AND snapshot_at IN {snapshot_ats:Array(DateTime64(3, 'UTC'))}  -- the key's range (the pair above is exact)
      AND ({token_id:Int64} = -1 OR venft_id = {token_id:Int64})
)
SELECT
    h.chain_id AS chain_id, h.venft_id AS venft_id, h.target AS target, h.gauge_address AS gauge_address,
    h.pool_address AS pool_address,
    toString(h.weight)                                        AS weight_raw,
    toString(h.used_weight)                                   AS used_weight_raw,
    v.last_action.1 AS last_kind, v.last_action.2 AS last_at_ms, v.last_action.3 AS last_block,
    v.last_action.4 AS last_tx, v.last_voted_ms AS last_voted_ms,
    l.present                                                 AS lock_read,
    l.owner AS owner, toString(l.locked_raw) AS locked_raw,
    toInt64(toUnixTimestamp(l.unlock_time))                   AS unlock_ts,
    l.permanent AS permanent, toString(l.voting_power_raw) AS voting_power_raw,
    l.block_number AS power_block, l.power_at_ms AS power_at_ms
FROM held_used AS h
INNER JOIN per_venft AS v ON v.chain_id = h.chain_id AND v.venft_id = h.venft_id
LEFT JOIN locks AS l ON l.chain_id = h.chain_id AND l.venft_id = h.venft_id
WHERE ({pool:String} = '' OR (h.target = {pool:String} AND {pool_chain:UInt32} IN (0, h.chain_id)))
  AND ({gauge:String} = '' OR (h.gauge_address = {gauge:String} AND {gauge_chain:UInt32} IN (0, h.chain_id)))
  AND ({voter:String} = '' OR l.owner = {voter:String})
  AND (NOT {after:UInt8}
       OR (h.chain_id, h.venft_id, h.target) > ({c_chain:UInt32}, {c_token:UInt64}, {c_target:String}))
ORDER BY h.chain_id, h.venft_id, h.target
LIMIT {limit:UInt32}
