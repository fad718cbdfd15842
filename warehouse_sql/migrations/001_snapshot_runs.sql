-- One row per attempt to publish a 15-minute snapshot. Readers take the latest snapshot_at
-- whose attempt has status 'success'; a failed or partial run never has such a row.
CREATE TABLE IF NOT EXISTS snapshot_runs
(
    chain_id        UInt32,
    snapshot_at     DateTime64(3, 'UTC') CODEC(DoubleDelta, ZSTD),
    run_id          String,
    status          LowCardinality(String),          -- 'success' | 'failed'
    block_number    UInt64,
    block_timestamp DateTime64(3, 'UTC'),
    started_at      DateTime64(3, 'UTC'),
    finished_at     DateTime64(3, 'UTC'),
    rows_written    Map(LowCardinality(String), UInt32),
    sources         Array(LowCardinality(String)),
    error           String DEFAULT ''
)
ENGINE = ReplacingMergeTree(finished_at)
ORDER BY (chain_id, snapshot_at, run_id)
SETTINGS non_replicated_deduplication_window = 1000
