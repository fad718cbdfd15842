-- /v1/votes?view=events: the Voter's logs (vote_actions: Voted and Abstained of vote, poke and reset
-- transactions) of the selected chains, newest first: (block_timestamp DESC, chain_id, block_number
-- DESC, log_index DESC), after the keyset position when {after} is 1. Each chain's logs before its
-- published snapshot's time. Filters with an empty value (or 0, or -1 for token_id) select
-- everything: {epoch:Int64} (Unix seconds of an epoch start), {pool:String} (a pool or a system
-- gauge's target) and {gauge:String} with their {<name>_chain:UInt32}, {voter:String} (the owner),
-- {token_id:Int64}, {kind:String} ('vote' | 'poke' | 'reset').
-- Parameters: {chain_ids:Array(UInt32)}, {snapshot_ats:Array(DateTime64(3, 'UTC'))}, the filters,
-- {after:UInt8}, {c_at:Int64} (Unix milliseconds), {c_chain:UInt32}, {c_block:UInt64},
-- {c_log:UInt32}, {limit:UInt32} (a page and one more row).
SELECT
    chain_id, id, kind, event_name, venft_id, owner, gauge_address, pool_address, target,
    toString(weight_raw)                              AS weight_raw,
    toString(pool_weight_raw)                         AS target_weight_raw,
    toString(total_weight_raw)                        AS total_weight_raw,
    toInt64(toUnixTimestamp(epoch))                   AS epoch_ts,
    toInt64(toUnixTimestamp64Milli(block_timestamp))  AS at_ms,
    block_number, transaction_hash, log_index
FROM vote_actions FINAL
WHERE chain_id IN {chain_ids:Array(UInt32)}
  AND block_timestamp < {snapshot_ats:Array(DateTime64(3, 'UTC'))}[indexOf({chain_ids:Array(UInt32)}, chain_id)]
  AND ({epoch:Int64} = 0 OR epoch = toDateTime64({epoch:Int64}, 3, 'UTC'))
  AND ({pool:String} = '' OR (target = {pool:String} AND {pool_chain:UInt32} IN (0, chain_id)))
  AND ({gauge:String} = '' OR (gauge_address = {gauge:String} AND {gauge_chain:UInt32} IN (0, chain_id)))
  AND ({voter:String} = '' OR owner = {voter:String})
  AND ({token_id:Int64} = -1 OR venft_id = {token_id:Int64})
  AND ({kind:String} = '' OR kind = {kind:String})
  AND (NOT {after:UInt8}
       OR toUnixTimestamp64Milli(block_timestamp) < {c_at:Int64}
       OR (toUnixTimestamp64Milli(block_timestamp) = {c_at:Int64}
           AND (chain_id > {c_chain:UInt32}
                OR (chain_id = {c_chain:UInt32} AND (block_number, log_index) < ({c_block:UInt64}, {c_log:UInt32})))))
ORDER BY block_timestamp DESC, chain_id ASC, block_number DESC, log_index DESC
LIMIT {limit:UInt32}
