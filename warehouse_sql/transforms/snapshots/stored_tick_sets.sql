-- The tick tables (pool_tick_sets) already stored for some pools of a chain: a snapshot run writes
-- only the tables it read that are not among them.
-- Parameters: {chain_id:UInt32}, {pools:Array(String)}, {set_ids:Array(UInt64)}
SELECT DISTINCT pool_address, set_id
FROM pool_tick_sets
WHERE chain_id = {chain_id:UInt32}
  AND pool_address IN {pools:Array(String)}
  AND set_id IN {set_ids:Array(UInt64)}
