-- /api/stats/bribes, its alias /api/stats/pools/{poolId}/bribes, /foundation/bribes and
-- /gauges/{gaugeAddress}/bribes: bribe deposits known at the
-- snapshot (block_timestamp <= snapshot_at), newest first.
-- Parameters: {chain_id:UInt32}, {snapshot_at:DateTime64(3, 'UTC')}, {pool:String} ('' = every
-- pool), {gauge:String} ('' = every gauge), {epoch:Int64} (epoch start in Unix seconds; -1 =
-- every epoch), {foundation_only:Bool}, {limit:UInt32}
-- amountUsd is the USD value at deposit time (the subgraph's amountUSD); amount = raw / 10^decimals.
SELECT
    id                                        AS id,
    toInt64(toUnixTimestamp(epoch))           AS epoch,
    toDateTime(block_timestamp, 'UTC')        AS timestamp,
    block_number                              AS blockNumber,
    transaction_hash                          AS transactionHash,
    gauge_address                             AS gaugeAddress,
    pool_address                              AS poolAddress,
    token_address                             AS tokenAddress,
    token_symbol                              AS tokenSymbol,
    token_decimals                            AS tokenDecimals,
    toString(amount_raw)                      AS amountRaw,
    toFloat64(amount_raw) / pow(10, token_decimals) AS amount,
    amount_usd                                AS amountUsd,
    sender                                    AS sender,
    is_foundation                             AS isFoundation
FROM bribe_events FINAL
WHERE chain_id = {chain_id:UInt32}
  AND block_timestamp <= {snapshot_at:DateTime64(3, 'UTC')}
  AND ({pool:String} = '' OR pool_address = {pool:String})
  AND ({gauge:String} = '' OR gauge_address = {gauge:String})
  AND ({epoch:Int64} < 0 OR epoch = toDateTime64({epoch:Int64}, 3, 'UTC'))
  AND (NOT {foundation_only:Bool} OR is_foundation)
ORDER BY block_timestamp DESC, id DESC
LIMIT {limit:UInt32}
