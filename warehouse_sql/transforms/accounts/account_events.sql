-- account_events of one chain's records with from_ts <= block time < to_ts, from the event tables
-- of the domains in {domains} ('governance': vote_actions, escrow_events, claim_events, rebase_claims; 'vaults':
-- vault_events; 'xcore': xcore_events; 'liquidity': liquidity_events, whose kinds become lpAdd (v2Add,
-- clMint), lpRemove (v2Remove, clBurn), lpStake, lpUnstake, lpCollect and lpClaim, the position's kind
-- and the event's own name in the detail). The fields of each kind are those /v1/accounts/{address}/
-- activity serves (see migration 080): Voter transactions one record per transaction and veNFT
-- (id <tx>-<first log>, the Voted and Abstained logs), VotingEscrow logs one record per owner on
-- either side, a claim's log index its id's suffix (the subgraph's <tx>-<log>).
-- Parameters: {chain_id:UInt32}, {from_ts:Int64}, {to_ts:Int64} (Unix seconds), {domains:Array(String)}.
INSERT INTO account_events (account, chain_id, block_timestamp, block_number, log_index, kind, id, transaction_hash,
                            detail)
SELECT owner, chain_id, any(block_timestamp), any(block_number), min(log_index) AS first_log, any(kind),
       concat(transaction_hash, '-', toString(first_log)), transaction_hash,
       formatRowNoNewline('JSONEachRow', toString(venft_id) AS tokenId,
           arraySort(groupArrayIf((target, gauge_address, pool_address, toString(weight_raw)), event_name = 'Voted'))
               AS voted,
           arraySort(groupArrayIf((target, gauge_address, pool_address, toString(weight_raw)), event_name = 'Abstained'))
               AS abstained)
FROM vote_actions FINAL
WHERE has({domains:Array(String)}, 'governance') AND chain_id = {chain_id:UInt32} AND owner != ''
  AND block_timestamp >= toDateTime64({from_ts:Int64}, 3, 'UTC')
  AND block_timestamp < toDateTime64({to_ts:Int64}, 3, 'UTC')
GROUP BY owner, chain_id, transaction_hash, venft_id

UNION ALL
SELECT sides.2, chain_id, toDateTime64(block_timestamp, 3, 'UTC'), block_number, log_index,
       multiIf(kind = 'transfer', if(sides.1 = 'to', 'veTransferIn', 'veTransferOut'), kind = 'merge', 'veMerge', kind = 'split', 'veSplit',
               concat('lock', upper(substring(kind, 1, 1)), substring(kind, 2))),  -- lockDepositFor: a rebase claimed into it
       id, transaction_hash,
       formatRowNoNewline('JSONEachRow', toString(venft_id) AS tokenId, from_address AS `from`, to_address AS `to`,
           toString(amount_raw) AS amount, toInt64(toUnixTimestamp(unlock_time)) AS unlockTime, permanent,
           merged_into AS mergedInto, split_from AS splitFrom)
FROM escrow_events FINAL
ARRAY JOIN [('from', from_address), ('to', to_address)] AS sides  -- the owner before the log, and after it
WHERE has({domains:Array(String)}, 'governance') AND chain_id = {chain_id:UInt32}
  AND block_timestamp >= toDateTime64({from_ts:Int64}, 3, 'UTC')
  AND block_timestamp < toDateTime64({to_ts:Int64}, 3, 'UTC')
  AND sides.2 != '0x0000000000000000000000000000000000000000'
  AND (sides.1 = 'from' OR from_address != to_address)  -- an owner acting on its own veNFT: one record

UNION ALL
SELECT owner, chain_id, block_timestamp, block_number, toUInt32OrZero(splitByChar('-', id)[-1]), 'claim', id,
       transaction_hash,
       formatRowNoNewline('JSONEachRow', toString(venft_id) AS tokenId, kind AS rewardKind,
           toInt64(toUnixTimestamp(epoch)) AS epoch, gauge_address AS gauge, pool_address AS pool,
           token_address AS token, token_symbol AS symbol, token_decimals AS decimals,
           toString(amount_raw) AS amount, amount_usd AS amountUsd)
FROM claim_events FINAL
WHERE has({domains:Array(String)}, 'governance') AND chain_id = {chain_id:UInt32} AND owner != ''
  AND block_timestamp >= toDateTime64({from_ts:Int64}, 3, 'UTC')
  AND block_timestamp < toDateTime64({to_ts:Int64}, 3, 'UTC')

UNION ALL
SELECT owner, chain_id, toDateTime64(block_timestamp, 3, 'UTC'), block_number, log_index, 'rebaseClaim', id,
       transaction_hash,
       formatRowNoNewline('JSONEachRow', toString(venft_id) AS tokenId, toInt64(toUnixTimestamp(from_epoch)) AS fromEpoch,
           toInt64(toUnixTimestamp(to_epoch)) AS toEpoch, to_lock AS toLock, token_address AS token,
           token_symbol AS symbol, token_decimals AS decimals, toString(amount_raw) AS amount, amount_usd AS amountUsd)
FROM rebase_claims FINAL
WHERE has({domains:Array(String)}, 'governance') AND chain_id = {chain_id:UInt32} AND owner != ''
  AND block_timestamp >= toDateTime({from_ts:Int64}, 'UTC') AND block_timestamp < toDateTime({to_ts:Int64}, 'UTC')

UNION ALL
SELECT user, chain_id, block_timestamp, block_number, ifNull(log_index, 0),
       if(kind = 'deposit', 'vaultDeposit', 'vaultRedemption'), id, transaction_hash,
       formatRowNoNewline('JSONEachRow', vault_address AS vault, toString(shares_raw) AS shares,
           toString(amount0_raw) AS amount0, toString(amount1_raw) AS amount1, amount_usd AS amountUsd)
FROM vault_events FINAL
WHERE has({domains:Array(String)}, 'vaults') AND chain_id = {chain_id:UInt32} AND user != ''
  AND kind IN ('deposit', 'withdrawal') AND block_timestamp >= toDateTime64({from_ts:Int64}, 3, 'UTC')
  AND block_timestamp < toDateTime64({to_ts:Int64}, 3, 'UTC')

UNION ALL
SELECT account, chain_id, toDateTime64(block_timestamp, 3, 'UTC'), block_number, log_index,
       concat('xcore', upper(substring(kind, 1, 1)), substring(kind, 2)), id, transaction_hash,
       formatRowNoNewline('JSONEachRow', toString(shares_raw) AS shares, toString(amount_raw) AS amount,
           toString(penalty_raw) AS penalty, guid, src_chain_id AS srcChainId, dst_chain_id AS dstChainId)
FROM xcore_events FINAL
WHERE has({domains:Array(String)}, 'xcore') AND chain_id = {chain_id:UInt32} AND account != ''
  AND kind IN ('deposit', 'exit', 'bridgeOut', 'bridgeIn') AND block_timestamp >= toDateTime64({from_ts:Int64}, 3, 'UTC')
  AND block_timestamp < toDateTime64({to_ts:Int64}, 3, 'UTC')

UNION ALL
SELECT owner, chain_id, toDateTime64(block_timestamp, 3, 'UTC'), block_number, log_index,
       multiIf(kind IN ('v2Add', 'clMint'), 'lpAdd', kind IN ('v2Remove', 'clBurn'), 'lpRemove',
               kind IN ('v2Stake', 'clStake'), 'lpStake', kind IN ('v2Unstake', 'clUnstake'), 'lpUnstake',
               kind = 'clCollect', 'lpCollect', 'lpClaim'),
       id, transaction_hash,
       formatRowNoNewline('JSONEachRow', kind AS event, position_id AS positionId, pool_address AS pool,
           toString(token_id) AS tokenId, token0_address AS token0, token0_symbol AS symbol0,
           token0_decimals AS decimals0, token1_address AS token1, token1_symbol AS symbol1,
           token1_decimals AS decimals1, toString(lp_raw) AS lp, toString(liquidity_raw) AS liquidity,
           tick_lower AS tickLower, tick_upper AS tickUpper, toString(amount0_raw) AS amount0,
           toString(amount1_raw) AS amount1, toString(fees0_raw) AS fees0, toString(fees1_raw) AS fees1,
           toString(emissions_raw) AS emissions, emissions_token AS emissionsToken,
           emissions_symbol AS emissionsSymbol, emissions_decimals AS emissionsDecimals, staked)
FROM liquidity_events FINAL
WHERE has({domains:Array(String)}, 'liquidity') AND chain_id = {chain_id:UInt32} AND owner != ''
  AND block_timestamp >= toDateTime64({from_ts:Int64}, 3, 'UTC')
  AND block_timestamp < toDateTime64({to_ts:Int64}, 3, 'UTC')
