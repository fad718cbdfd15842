-- One row per gauge lifecycle event (history, daily governance_events asset): 'created',
-- 'killed' or 'revived', with its block, transaction and epoch. gauge_kind is 'pool' (a user
-- pool's gauge) or 'system' (a gauge without a user pool; target is what it pays). A gauge's
-- timeline is its rows in time order. Replaced by (chain_id, gauge_address, id); reads use FINAL.
CREATE TABLE IF NOT EXISTS gauge_events
(
    chain_id          UInt32,
    gauge_address     String,
    id                String,                          -- <tx hash>-<log index>
    kind              LowCardinality(String),          -- 'created' | 'killed' | 'revived'
    gauge_kind        LowCardinality(String),          -- 'pool' | 'system'
    target            String,
    pool_address      String,                          -- '' for a system gauge
    epoch             DateTime64(3, 'UTC'),
    block_timestamp   DateTime64(3, 'UTC'),
    block_number      UInt64,
    transaction_hash  String,
    log_index         UInt32,
    ingested_at       DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(ingested_at)
ORDER BY (chain_id, gauge_address, id)
SETTINGS non_replicated_deduplication_window = 1000
