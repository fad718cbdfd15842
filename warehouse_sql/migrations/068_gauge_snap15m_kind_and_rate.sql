-- What a gauge is, how much weight it holds and how fast it emits, at each snapshot: gauge_kind
-- 'pool' (a user pool's gauge) or 'system' (no user pool: pool_address is then its target, which
-- the Voter keeps in the pool's place), weight_raw (the Voter's weight on it: the allocations in
-- effect, persisting across epochs; votes_raw is the epoch's allocation rows so far) and
-- reward_rate_raw (core token per second, 1e18-scaled; 0 while killed). Rows written before this
-- migration: kind 'pool', weight and rate NULL.
ALTER TABLE gauge_snap15m
    ADD COLUMN IF NOT EXISTS gauge_kind       LowCardinality(String) DEFAULT 'pool',
    ADD COLUMN IF NOT EXISTS weight_raw       Nullable(UInt256),
    ADD COLUMN IF NOT EXISTS reward_rate_raw  Nullable(UInt256)
