-- What /v1/auto-manage reads of a vault's events (ADR 0018), raw integers. A harvest's reward fee
-- (fee_amount_raw in core-token units, fee_amount_usd at harvest time; amount_raw stays the gross
-- claim). A range reset's total amounts (position + idle) just before and after, the trading fees
-- the burnt position collected, the pool's sqrtPriceX96 and the surplus swap (amount in of token0
-- when swap_zero_for_one, else of token1; amount out of the other). NULL for the other kinds and in
-- rows written before this migration; log_index is now set for harvests and range resets too.
ALTER TABLE vault_events
    ADD COLUMN IF NOT EXISTS fee_amount_raw Nullable(UInt256),
    ADD COLUMN IF NOT EXISTS fee_amount_usd Nullable(Float64),
    ADD COLUMN IF NOT EXISTS amount0_before_raw Nullable(UInt256),
    ADD COLUMN IF NOT EXISTS amount1_before_raw Nullable(UInt256),
    ADD COLUMN IF NOT EXISTS amount0_after_raw Nullable(UInt256),
    ADD COLUMN IF NOT EXISTS amount1_after_raw Nullable(UInt256),
    ADD COLUMN IF NOT EXISTS fees0_raw Nullable(UInt256),
    ADD COLUMN IF NOT EXISTS fees1_raw Nullable(UInt256),
    ADD COLUMN IF NOT EXISTS sqrt_price_x96 Nullable(UInt256),
    ADD COLUMN IF NOT EXISTS swap_zero_for_one Nullable(Bool),
    ADD COLUMN IF NOT EXISTS swap_amount_in_raw Nullable(UInt256),
    ADD COLUMN IF NOT EXISTS swap_amount_out_raw Nullable(UInt256)
