-- /v1/accounts/{address}/activity: one page of what {address:String} did on the selected chains,
-- newest first, each chain's records before its published snapshot's time:
--   Voter transactions (vote_actions by the veNFT's owner then: one record per transaction and
--   veNFT, kind 'vote' | 'poke' | 'reset', with its Voted and Abstained logs; id: <tx>-<first log>),
--   VotingEscrow logs (escrow_events with the address on either side: 'lockCreate' |
--   'lockIncrease' | 'lockExtend' | 'lockPermanent' | 'lockWithdraw' | 'veTransferIn' |
--   'veTransferOut' | 'veMerge'),
--   reward claims (claim_events by the owner paid: kind 'claim'),
--   vault deposits and redemptions (vault_events by user: 'vaultDeposit' | 'vaultRedemption',
--   with the vault's tokens as its latest vault_snap15m row by the snapshot holds them),
--   xCORE moves (xcore_events by account: 'xcoreDeposit' | 'xcoreExit' | 'xcoreBridgeOut' |
--   'xcoreBridgeIn').
-- Each record: chain_id, at_ms (Unix ms), block_number, log_index (a claim's: its id's suffix, the
-- subgraph's <tx>-<log>), kind, id, transaction_hash and `detail`, a JSON object of the kind's own
-- fields (raw integers as text). Order: at_ms DESC, chain_id, block_number DESC, log_index DESC,
-- kind, id; after the keyset position when {after} is 1.
-- Parameters: {address:String} (lower case), {chain_ids:Array(UInt32)},
-- {snapshot_ats:Array(DateTime64(3, 'UTC'))}, {kinds:Array(String)} (the kinds wanted),
-- {after:UInt8}, {c_at:Int64}, {c_chain:UInt32}, {c_block:UInt64}, {c_log:UInt32},
-- {c_kind:String}, {c_id:String}, {limit:UInt32} (a page and one more record).
WITH
    {snapshot_ats:Array(DateTime64(3, 'UTC'))} AS snapshot_ats,
    {chain_ids:Array(UInt32)} AS chain_ids,
    vault_tokens AS (
        SELECT chain_id, vault_address,
               argMax((token0_address, token0_decimals, token1_address, token1_decimals, share_decimals), snapshot_at)
                   AS tokens
        FROM vault_snap15m FINAL
        WHERE hasAny({kinds:Array(String)}, ['vaultDeposit', 'vaultRedemption'])
          AND chain_id IN chain_ids AND snapshot_at <= snapshot_ats[indexOf(chain_ids, chain_id)]
        GROUP BY chain_id, vault_address
    )
SELECT * FROM (
    SELECT chain_id, toInt64(toUnixTimestamp64Milli(any(block_timestamp))) AS at_ms, any(block_number) AS block_number,
           min(log_index) AS log_index, any(kind) AS kind, concat(transaction_hash, '-', toString(log_index)) AS id,
           transaction_hash,
           formatRowNoNewline('JSONEachRow', toString(venft_id) AS tokenId,
               arraySort(groupArrayIf((target, gauge_address, pool_address, toString(weight_raw)), event_name = 'Voted'))
                   AS voted,
               arraySort(groupArrayIf((target, gauge_address, pool_address, toString(weight_raw)),
                                      event_name = 'Abstained')) AS abstained) AS detail
    FROM vote_actions FINAL
    WHERE hasAny({kinds:Array(String)}, ['vote', 'poke', 'reset'])
      AND chain_id IN chain_ids AND owner = {address:String}
      AND block_timestamp < snapshot_ats[indexOf(chain_ids, chain_id)]
    GROUP BY chain_id, transaction_hash, venft_id
    HAVING has({kinds:Array(String)}, kind)

    UNION ALL
    SELECT chain_id, toInt64(toUnixTimestamp(block_timestamp)) * 1000, block_number, log_index,
           multiIf(kind = 'transfer', if(to_address = {address:String}, 'veTransferIn', 'veTransferOut'),
                   kind = 'merge', 'veMerge', concat('lock', upper(substring(kind, 1, 1)), substring(kind, 2))) AS k,
           id, transaction_hash,
           formatRowNoNewline('JSONEachRow', toString(venft_id) AS tokenId, from_address AS `from`, to_address AS `to`,
               toString(amount_raw) AS amount, toInt64(toUnixTimestamp(unlock_time)) AS unlockTime, permanent,
               merged_into AS mergedInto)
    FROM escrow_events FINAL
    WHERE hasAny({kinds:Array(String)}, ['lockCreate', 'lockIncrease', 'lockExtend', 'lockPermanent', 'lockWithdraw',
                                         'veTransferIn', 'veTransferOut', 'veMerge'])
      AND chain_id IN chain_ids AND (from_address = {address:String} OR to_address = {address:String})
      AND has({kinds:Array(String)}, k)
      AND block_timestamp < snapshot_ats[indexOf(chain_ids, chain_id)]

    UNION ALL
    SELECT chain_id, toInt64(toUnixTimestamp64Milli(block_timestamp)), block_number,
           toUInt32OrZero(splitByChar('-', id)[-1]), 'claim', id, transaction_hash,
           formatRowNoNewline('JSONEachRow', toString(venft_id) AS tokenId, kind AS rewardKind,
               toInt64(toUnixTimestamp(epoch)) AS epoch, gauge_address AS gauge, pool_address AS pool,
               token_address AS token, token_symbol AS symbol, token_decimals AS decimals,
               toString(amount_raw) AS amount, amount_usd AS amountUsd)
    FROM claim_events FINAL
    WHERE has({kinds:Array(String)}, 'claim')
      AND chain_id IN chain_ids AND owner = {address:String}
      AND block_timestamp < snapshot_ats[indexOf(chain_ids, chain_id)]

    UNION ALL
    SELECT e.chain_id, toInt64(toUnixTimestamp64Milli(e.block_timestamp)), e.block_number, ifNull(e.log_index, 0),
           if(e.kind = 'deposit', 'vaultDeposit', 'vaultRedemption'), e.id, e.transaction_hash,
           formatRowNoNewline('JSONEachRow', e.vault_address AS vault, toString(e.shares_raw) AS shares,
               toString(e.amount0_raw) AS amount0, toString(e.amount1_raw) AS amount1, e.amount_usd AS amountUsd,
               v.tokens.1 AS token0, v.tokens.2 AS decimals0, v.tokens.3 AS token1, v.tokens.4 AS decimals1,
               v.tokens.5 AS shareDecimals, v.vault_address != '' AS known)
    FROM vault_events AS e FINAL
    LEFT JOIN vault_tokens AS v ON v.chain_id = e.chain_id AND v.vault_address = e.vault_address
    WHERE hasAny({kinds:Array(String)}, ['vaultDeposit', 'vaultRedemption'])
      AND e.chain_id IN chain_ids AND e.user = {address:String} AND e.kind IN ('deposit', 'withdrawal')
      AND has({kinds:Array(String)}, if(e.kind = 'deposit', 'vaultDeposit', 'vaultRedemption'))
      AND e.block_timestamp < snapshot_ats[indexOf(chain_ids, e.chain_id)]

    UNION ALL
    SELECT chain_id, toInt64(toUnixTimestamp(block_timestamp)) * 1000, block_number, log_index,
           concat('xcore', upper(substring(kind, 1, 1)), substring(kind, 2)), id, transaction_hash,
           formatRowNoNewline('JSONEachRow', toString(shares_raw) AS shares, toString(amount_raw) AS amount,
               toString(penalty_raw) AS penalty, guid, src_chain_id AS srcChainId, dst_chain_id AS dstChainId)
    FROM xcore_events FINAL
    WHERE hasAny({kinds:Array(String)}, ['xcoreDeposit', 'xcoreExit', 'xcoreBridgeOut', 'xcoreBridgeIn'])
      AND chain_id IN chain_ids AND account = {address:String}
      AND kind IN ('deposit', 'exit', 'bridgeOut', 'bridgeIn')
      AND has({kinds:Array(String)}, concat('xcore', upper(substring(kind, 1, 1)), substring(kind, 2)))
      AND block_timestamp < snapshot_ats[indexOf(chain_ids, chain_id)]
)
WHERE NOT {after:UInt8}
   OR at_ms < {c_at:Int64}
   OR (at_ms = {c_at:Int64}
       AND (chain_id > {c_chain:UInt32}
            OR (chain_id = {c_chain:UInt32}
                AND ((block_number, log_index) < ({c_block:UInt64}, {c_log:UInt32})
                     OR ((block_number, log_index) = ({c_block:UInt64}, {c_log:UInt32})
                         AND (kind, id) > ({c_kind:String}, {c_id:String}))))))
ORDER BY at_ms DESC, chain_id ASC, block_number DESC, log_index DESC, kind ASC, id ASC
LIMIT {limit:UInt32}
