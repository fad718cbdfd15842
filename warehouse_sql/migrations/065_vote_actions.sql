-- One row per Voter log (history, daily governance_events asset): Voted (weight put on a pool or
-- a system gauge's target) and Abstained (weight taken off), each of a transaction of kind
-- 'vote' (abstains from the veNFT's previous pools, then votes), 'reset' (abstains from all) or
-- 'poke' (recasts the same pools with the veNFT's current voting power). weight_raw is the 1e18-
-- scaled voting power of the log; pool_weight_raw and total_weight_raw the pool's and the Voter's
-- weight after it. vote_events (021) stays the per-epoch allocation; this is what changed it.
-- Replaced by (chain_id, epoch, id); reads use FINAL.
CREATE TABLE IF NOT EXISTS vote_actions
(
    chain_id          UInt32,
    epoch             DateTime64(3, 'UTC'),
    id                String,                          -- <tx hash>-<log index>
    kind              LowCardinality(String),          -- 'vote' | 'reset' | 'poke'
    event_name        LowCardinality(String),          -- 'Voted' | 'Abstained'
    block_timestamp   DateTime64(3, 'UTC') CODEC(DoubleDelta, ZSTD),
    block_number      UInt64,
    transaction_hash  String,
    log_index         UInt32,
    venft_id          UInt64,
    owner             String,
    gauge_address     String,
    pool_address      String,                          -- '' for a system gauge
    target            String,                          -- the pool, or the system gauge's target
    weight_raw        UInt256,
    pool_weight_raw   UInt256,
    total_weight_raw  UInt256,
    ingested_at       DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(ingested_at)
PARTITION BY toYYYYMM(epoch)
ORDER BY (chain_id, epoch, id)
SETTINGS non_replicated_deduplication_window = 1000
