-- /v1/accounts/{address}/activity: one page of what {address:String} did on the selected chains,
-- newest first, each chain's records before its published snapshot's time, from account_events
-- (its sort key starts with the account: the page reads that account's granules alone). Kinds:
-- Voter transactions 'vote' | 'poke' | 'reset'; VotingEscrow logs 'lockCreate' | 'lockIncrease'
-- | 'lockExtend' | 'lockPermanent' | 'lockWithdraw' | 'veTransferIn' | 'veTransferOut' |
-- 'veMerge' | 'veSplit'; 'claim'; 'vaultDeposit' | 'vaultRedemption' (with the vault's tokens as its latest
-- vault_snap15m row by the snapshot holds them); 'xcoreDeposit' | 'xcoreExit' | 'xcoreBridgeOut'
-- | 'xcoreBridgeIn'.
-- Each record: chain_id, at_ms (Unix ms), block_number, log_index, kind, id, transaction_hash,
-- `detail` (a JSON object of the kind's own fields) and, for vault records, `tokens`. Order:
-- at_ms DESC, chain_id, block_number DESC, log_index DESC, kind, id; after the keyset position
-- when {after} is 1.
-- Parameters: {address:String} (lower case), {chain_ids:Array(UInt32)},
-- {snapshot_ats:Array(DateTime64(3, 'UTC'))}, {kinds:Array(String)} (the kinds wanted),
-- {after:UInt8}, {c_at:Int64}, {c_chain:UInt32}, {c_block:UInt64}, {c_log:UInt32},
-- {c_kind:String}, {c_id:String}, {limit:UInt32} (a page and one more record).
WITH
    {snapshot_ats:Array(DateTime64(3, 'UTC'))} AS snapshot_ats,
    {chain_ids:Array(UInt32)} AS chain_ids,
    page AS (
        SELECT chain_id, toInt64(toUnixTimestamp64Milli(block_timestamp)) AS at_ms, block_number, log_index, kind, id,
               transaction_hash, detail
        FROM account_events FINAL
        WHERE account = {address:String} AND chain_id IN chain_ids
          AND block_timestamp < snapshot_ats[indexOf(chain_ids, chain_id)]
          AND kind IN {kinds:Array(String)}
          AND (NOT {after:UInt8}
               OR at_ms < {c_at:Int64}
               OR (at_ms = {c_at:Int64}
                   AND (chain_id > {c_chain:UInt32}
                        OR (chain_id = {c_chain:UInt32}
                            AND ((block_number, log_index) < ({c_block:UInt64}, {c_log:UInt32})
                                 OR ((block_number, log_index) = ({c_block:UInt64}, {c_log:UInt32})
                                     AND (kind, id) > ({c_kind:String}, {c_id:String})))))))
        ORDER BY at_ms DESC, chain_id ASC, block_number DESC, log_index DESC, kind ASC, id ASC
        LIMIT {limit:UInt32}
    ),
    vault_tokens AS (
        SELECT chain_id, vault_address,
               argMax((token0_address, token0_decimals, token1_address, token1_decimals, share_decimals), snapshot_at)
                   AS tokens
        FROM vault_snap15m FINAL
        WHERE (chain_id, vault_address) IN (SELECT chain_id, JSONExtractString(detail, 'vault') FROM page
                                            WHERE kind IN ('vaultDeposit', 'vaultRedemption'))  -- page is read once more
          AND snapshot_at <= snapshot_ats[indexOf(chain_ids, chain_id)]
        GROUP BY chain_id, vault_address
    )
SELECT p.chain_id AS chain_id, p.at_ms AS at_ms, p.block_number AS block_number, p.log_index AS log_index,
       p.kind AS kind, p.id AS id, p.transaction_hash AS transaction_hash, p.detail AS detail,
       formatRowNoNewline('JSONEachRow', v.tokens.1 AS token0, v.tokens.2 AS decimals0, v.tokens.3 AS token1,
                          v.tokens.4 AS decimals1, v.tokens.5 AS shareDecimals, v.vault_address != '' AS known)
           AS tokens
FROM page AS p
LEFT JOIN vault_tokens AS v
    ON v.chain_id = p.chain_id AND v.vault_address = JSONExtractString(p.detail, 'vault')
ORDER BY at_ms DESC, chain_id ASC, block_number DESC, log_index DESC, kind ASC, id ASC
