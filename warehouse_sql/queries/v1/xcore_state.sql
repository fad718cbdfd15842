-- /v1/xcore: each selected xCORE chain's row of its published snapshot (xcore_snap15m: the
-- canonical token's rate, supply, backing and adapter lock, or a representation's supply, read by
-- RPC at the snapshot block), with the time of the last event that changed the canonical rate at
-- or before that snapshot (NULL: none indexed). A chain without a row at its snapshot (token not
-- deployed yet) is absent. Raw integers as text (UInt256 exceeds JSON's safe integers).
-- {observed} for the i-th of {chain_ids}: its published snapshot's time, Unix seconds.
-- Parameters: {chain_ids:Array(UInt32)}, {observed:Array(Int64)}.
SELECT s.chain_id AS chain_id,
       s.role AS role,
       s.token_address AS token_address,
       s.token_name AS token_name,
       s.token_symbol AS token_symbol,
       s.token_decimals AS token_decimals,
       s.asset_address AS asset_address,
       s.adapter_address AS adapter_address,
       s.block_number AS block_number,
       toInt64(toUnixTimestamp(s.block_timestamp)) AS observed_at,
       toString(s.supply_raw) AS supply_raw,
       toString(s.backing_raw) AS backing_raw,
       toString(s.ratio_raw) AS ratio_raw,
       toString(s.adapter_locked_raw) AS adapter_locked_raw,
       s.exit_penalty_bps AS exit_penalty_bps,
       c.changed_at AS rate_changed_at
FROM xcore_snap15m AS s FINAL
LEFT JOIN
(
    SELECT chain_id AS c_chain, toNullable(toInt64(toUnixTimestamp(max(block_timestamp)))) AS changed_at
    FROM xcore_events FINAL
    WHERE chain_id IN {chain_ids:Array(UInt32)}
      AND new_ratio_raw IS NOT NULL AND new_ratio_raw != old_ratio_raw
      AND toInt64(toUnixTimestamp(block_timestamp))
          <= {observed:Array(Int64)}[indexOf({chain_ids:Array(UInt32)}, chain_id)]
    GROUP BY chain_id
) AS c ON c.c_chain = s.chain_id
WHERE s.chain_id IN {chain_ids:Array(UInt32)}
  AND toInt64(toUnixTimestamp(s.snapshot_at)) = {observed:Array(Int64)}[indexOf({chain_ids:Array(UInt32)}, s.chain_id)]
ORDER BY s.chain_id
