-- /v1/accounts/{address}/xcore: per selected xCORE chain, its row of its published snapshot
-- (xcore_snap15m: the token read by RPC at the snapshot block; the canonical chain's rate) and the
-- address's xCORE balance there: the sum of its indexed moves at or before the snapshot's time
-- (deposit and bridgeIn add shares, exit and bridgeOut take them; compounds and distributions move
-- none), their count and the last one (meaningless without moves). A chain without a row at its snapshot (token not deployed
-- yet) is absent. Raw integers as text (UInt256 exceeds JSON's safe integers).
-- {observed} for the i-th of {chain_ids}: its published snapshot's time, Unix seconds.
-- Parameters: {address:String} (lower case), {chain_ids:Array(UInt32)}, {observed:Array(Int64)}.
SELECT s.chain_id AS chain_id,
       s.role AS role,
       s.token_address AS token_address,
       s.block_number AS block_number,
       toInt64(toUnixTimestamp(s.block_timestamp)) AS observed_at,
       toString(s.ratio_raw) AS ratio_raw,
       s.exit_penalty_bps AS exit_penalty_bps,
       toString(ifNull(m.balance, 0)) AS balance_raw,
       ifNull(m.moves, 0) AS moves,
       m.last.1 AS last_kind,
       m.last.2 AS last_at,
       m.last.3 AS last_block,
       m.last.4 AS last_tx
FROM xcore_snap15m AS s FINAL
LEFT JOIN
(
    SELECT chain_id AS m_chain,
           toNullable(sum(multiIf(kind IN ('deposit', 'bridgeIn'), toInt256(shares_raw),
                                  kind IN ('exit', 'bridgeOut'), -toInt256(shares_raw), toInt256(0)))) AS balance,
           toNullable(count()) AS moves,
           argMax((kind, toInt64(toUnixTimestamp(block_timestamp)), block_number, transaction_hash),
                  (block_number, log_index)) AS last
    FROM xcore_events FINAL
    WHERE chain_id IN {chain_ids:Array(UInt32)}
      AND account = {address:String}
      AND kind IN ('deposit', 'exit', 'bridgeOut', 'bridgeIn')
      AND toInt64(toUnixTimestamp(block_timestamp))
          <= {observed:Array(Int64)}[indexOf({chain_ids:Array(UInt32)}, chain_id)]
    GROUP BY chain_id
) AS m ON m.m_chain = s.chain_id
WHERE s.chain_id IN {chain_ids:Array(UInt32)}
  AND toInt64(toUnixTimestamp(s.snapshot_at)) = {observed:Array(Int64)}[indexOf({chain_ids:Array(UInt32)}, s.chain_id)]
ORDER BY s.chain_id
