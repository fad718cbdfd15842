-- /v1/bribes: notified funding records (bribe deposits) of the selected chains, newest first:
-- (block_timestamp DESC, chain_id, id), after the keyset position when {after} is 1. Each chain's
-- deposits before its published snapshot's time (a traversal pins the snapshots, so later
-- publications do not shift its pages). Filters with an empty value (or 0) select everything:
-- {epoch:Int64} (Unix seconds of an epoch start), {pool:String}, {gauge:String}, {token:String},
-- {briber:String} (lower-case addresses), each address filter limited to one chain by its
-- {<name>_chain:UInt32} when not 0.
-- Parameters: {chain_ids:Array(UInt32)}, {snapshot_ats:Array(DateTime64(3, 'UTC'))} (the i-th the
-- i-th chain's), the filters, {after:UInt8}, {c_at:Int64} (Unix milliseconds), {c_chain:UInt32},
-- {c_id:String}, {limit:UInt32} (a page and one more row, to tell whether another page follows).
SELECT
    chain_id,
    id,
    toInt64(toUnixTimestamp(epoch))              AS epoch_ts,
    toInt64(toUnixTimestamp64Milli(block_timestamp)) AS at_ms,
    block_number,
    transaction_hash,
    gauge_address,
    pool_address,
    token_address,
    token_symbol,
    token_decimals,
    toString(amount_raw)                         AS amount_raw,
    amount_usd,
    sender,
    is_foundation,
    gauge_kind
FROM bribe_events FINAL
WHERE chain_id IN {chain_ids:Array(UInt32)}
  AND block_timestamp < {snapshot_ats:Array(DateTime64(3, 'UTC'))}[indexOf({chain_ids:Array(UInt32)}, chain_id)]
  AND ({epoch:Int64} = 0 OR epoch = toDateTime64({epoch:Int64}, 3, 'UTC'))
  AND ({pool:String} = '' OR (pool_address = {pool:String} AND {pool_chain:UInt32} IN (0, chain_id)))
  AND ({gauge:String} = '' OR (gauge_address = {gauge:String} AND {gauge_chain:UInt32} IN (0, chain_id)))
  AND ({token:String} = '' OR (token_address = {token:String} AND {token_chain:UInt32} IN (0, chain_id)))
  AND ({briber:String} = '' OR sender = {briber:String})
  AND (NOT {after:UInt8}
       OR toUnixTimestamp64Milli(block_timestamp) < {c_at:Int64}
       OR (toUnixTimestamp64Milli(block_timestamp) = {c_at:Int64}
           AND (chain_id > {c_chain:UInt32} OR (chain_id = {c_chain:UInt32} AND id > {c_id:String}))))
ORDER BY block_timestamp DESC, chain_id ASC, id ASC
LIMIT {limit:UInt32}
