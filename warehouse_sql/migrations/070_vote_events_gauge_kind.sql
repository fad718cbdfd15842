-- A system gauge (a gauge without a user pool) in vote_events: pool_address holds the Voter's pool
-- of the gauge, which for a system gauge is its target (Voter.poolForGauge answers it), so
-- per-pool reports keep every row; gauge_kind says which it is ('pool' | 'system'). Rows written
-- before this migration are 'pool'.
ALTER TABLE vote_events ADD COLUMN IF NOT EXISTS gauge_kind LowCardinality(String) DEFAULT 'pool'
