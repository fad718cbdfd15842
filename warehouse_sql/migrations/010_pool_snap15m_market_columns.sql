-- Market metadata of pool_snap15m served by /api/stats/pools*: custom-fee flag, token decimals,
-- tick spacing (CL pools) and the pool's lifetime (cumulative) USD volume and fees at the
-- snapshot block. Rows written before this migration read the defaults (false / NULL: unknown).
ALTER TABLE pool_snap15m
    ADD COLUMN IF NOT EXISTS is_custom_fee        Bool DEFAULT false,
    ADD COLUMN IF NOT EXISTS token0_decimals      Nullable(UInt8),
    ADD COLUMN IF NOT EXISTS token1_decimals      Nullable(UInt8),
    ADD COLUMN IF NOT EXISTS tick_spacing         Nullable(Int32),
    ADD COLUMN IF NOT EXISTS volume_lifetime_usd  Nullable(Float64),
    ADD COLUMN IF NOT EXISTS fees_lifetime_usd    Nullable(Float64)
