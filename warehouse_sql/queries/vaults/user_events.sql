-- /api/v1/users/{address}/...: a wallet's deposits and withdrawals in the given vaults up to the
-- block the answer's live shares were read at, newest first. amount_usd is the subgraph's
-- amountUSD (the USD value at the event's time; null when it could not be valued).
-- Parameters: {chain_id:UInt32}, {user:String} (lower-case), {vaults:Array(String)}
-- (lower-case vault addresses), {block:UInt64}
SELECT
    vault_address                               AS vault,
    kind                                        AS type,
    toInt64(toUnixTimestamp(block_timestamp))   AS timestamp,
    block_number                                AS blockNumber,
    transaction_hash                            AS transactionHash,
    log_index                                   AS logIndex,
    toString(shares_raw)                        AS sharesRaw,
    toString(amount0_raw)                       AS amount0Raw,
    toString(amount1_raw)                       AS amount1Raw,
    amount_usd                                  AS amountUsd
FROM vault_events FINAL
WHERE chain_id = {chain_id:UInt32}
  AND user = {user:String}
  AND vault_address IN {vaults:Array(String)}
  AND kind IN ('deposit', 'withdrawal')
  AND block_number <= {block:UInt64}
ORDER BY block_timestamp DESC, block_number DESC, log_index DESC, id DESC
