-- How each historical valuation was derived and how often its value changed (ADR 0011):
-- `generation` is core.prices.PRICE_GENERATION when written; `revision` is 1 when an hour is first
-- valued and grows by one each time a rewrite changes its value (an unchanged rewrite keeps it).
-- Rows written before this migration are generation 1, revision 1.
ALTER TABLE token_hourly
    ADD COLUMN IF NOT EXISTS generation UInt16 DEFAULT 1,
    ADD COLUMN IF NOT EXISTS revision   UInt32 DEFAULT 1
