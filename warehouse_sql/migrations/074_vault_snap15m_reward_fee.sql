-- What /v1/auto-manage reads of a vault at each snapshot beyond its state (ADR 0018): the
-- strategy's reward fee (rewardFee(), basis points of the harvested rewards) and its recipient
-- (feeRecipient()), NULL / '' where the strategy has no such view; the pool's sqrtPriceX96 at the
-- snapshot block (CL vaults; NULL for v2). All NULL / '' in rows written before this migration.
ALTER TABLE vault_snap15m
    ADD COLUMN IF NOT EXISTS reward_fee_bps Nullable(UInt16),
    ADD COLUMN IF NOT EXISTS fee_recipient String DEFAULT '',
    ADD COLUMN IF NOT EXISTS sqrt_price_x96 Nullable(UInt256)
