-- The pool's state at the close of each hourly bucket, as the subgraph's PoolHourData carries it:
-- exact raw holdings (reserve0 / reserve1 BigDecimal times 10^decimals), active liquidity, sqrt
-- price (Q64.96) and tick (concentrated liquidity; NULL for V2). NULL where the hour had no
-- PoolHourData (no activity: the state is carried from the pool's previous bucket), where the
-- token's decimals are unknown, and for rows written before this migration.
ALTER TABLE pool_hourly
    ADD COLUMN IF NOT EXISTS reserve0_raw   Nullable(UInt256),
    ADD COLUMN IF NOT EXISTS reserve1_raw   Nullable(UInt256),
    ADD COLUMN IF NOT EXISTS liquidity_raw  Nullable(UInt256),
    ADD COLUMN IF NOT EXISTS sqrt_price_x96 Nullable(UInt256),
    ADD COLUMN IF NOT EXISTS tick           Nullable(Int32)
