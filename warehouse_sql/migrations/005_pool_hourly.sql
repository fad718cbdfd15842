-- Completed hourly buckets per pool, from the subgraph's hour data. A bucket is written only
-- once its hour has ended at the block read, so every row is final.
CREATE TABLE IF NOT EXISTS pool_hourly
(
    chain_id        UInt32,
    pool_address    String,
    hour_start      DateTime64(3, 'UTC') CODEC(DoubleDelta, ZSTD),
    volume_usd      Float64,
    fees_usd        Float64,
    tvl_usd_close   Nullable(Float64),
    tx_count        UInt32,
    ingested_at     DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(ingested_at)
PARTITION BY toYYYYMM(hour_start)
ORDER BY (chain_id, pool_address, hour_start)
SETTINGS non_replicated_deduplication_window = 1000
