-- One row per (epoch, veNFT, pool) vote allocation (history, daily governance_events asset).
-- weight_raw is 1e18-scaled voting power allocated to the pool. is_foundation is the veNFT's
-- flag at ingestion (the foundation's veNFTs). Replaced by (chain_id, epoch, id); reads use FINAL.
CREATE TABLE IF NOT EXISTS vote_events
(
    chain_id          UInt32,
    epoch             DateTime64(3, 'UTC'),
    id                String,                          -- subgraph id (<epoch>-<veNFT>-<pool>)
    block_timestamp   DateTime64(3, 'UTC') CODEC(DoubleDelta, ZSTD),
    block_number      UInt64,
    venft_id          UInt64,
    owner             String,
    is_foundation     Bool,
    gauge_address     String,
    pool_address      String,
    weight_raw        UInt256,
    ingested_at       DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(ingested_at)
PARTITION BY toYYYYMM(epoch)
ORDER BY (chain_id, epoch, id)
SETTINGS non_replicated_deduplication_window = 1000
