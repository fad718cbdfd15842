-- /v1/pools/{chainId}/{poolAddress}/history and /daily: the historical valuation of the pool's two
-- tokens at each period's closing hour boundary (v1_price_observations, migration 057: only hours
-- whose day is valued; price NULL where the hour has no safe price), as
-- (token, boundary, price, generation, revision). Parameters: {chain_id:UInt32}, {pinned:Int64} (the
-- chain's published snapshot, Unix seconds), {tokens:Array(String)} ('<chainId>:<address>'),
-- {boundaries:Array(Int64)} (ascending), each the end of a period's last hour.
SELECT token_address, sampled_at, price, generation, revision
FROM v1_price_observations(chain_ids = [{chain_id:UInt32}], pinned = [{pinned:Int64}], tokens = {tokens:Array(String)},
                           from_ts = arrayMin({boundaries:Array(Int64)}), to_ts = arrayMax({boundaries:Array(Int64)}))
WHERE source = 'historical-valuation' AND sampled_at IN {boundaries:Array(Int64)}
