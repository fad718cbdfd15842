-- The price generation (core.prices.PRICE_GENERATION) each snapshot's token price was derived
-- with (ADR 0011); rows written before this migration are generation 1.
ALTER TABLE token_snap15m
    ADD COLUMN IF NOT EXISTS price_generation UInt16 DEFAULT 1
