-- Raw holdings of each pool at the snapshot block: the subgraph's Pool.reserve0 / reserve1
-- (BigDecimal, exact) times 10^decimals, exact integers (/v1/pools/{chainId}/{poolAddress}
-- liquidityState; reserve0 / reserve1 stay the doubles every other route reads). NULL where the
-- token's decimals are unknown or the reserve is not a whole number of raw units, and for rows
-- written before this migration.
ALTER TABLE pool_snap15m
    ADD COLUMN IF NOT EXISTS reserve0_raw Nullable(UInt256),
    ADD COLUMN IF NOT EXISTS reserve1_raw Nullable(UInt256)
