-- The foundation veNFTs' vote allocations of the current epoch as seen at each 15-minute snapshot:
-- one row per (snapshot, veNFT, pool). A snapshot before the foundation voted in its epoch has none.
CREATE TABLE IF NOT EXISTS foundation_vote_snap15m
(
    chain_id              UInt32,
    snapshot_at           DateTime64(3, 'UTC') CODEC(DoubleDelta, ZSTD),
    epoch_start           DateTime64(3, 'UTC'),
    venft_id              UInt64,
    pool_address          String,
    gauge_address         String,
    weight_raw            UInt256,
    voted_at              DateTime64(3, 'UTC'),
    ingested_at           DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(ingested_at)
PARTITION BY toYYYYMM(snapshot_at)
ORDER BY (chain_id, snapshot_at, venft_id, pool_address)
SETTINGS non_replicated_deduplication_window = 1000
