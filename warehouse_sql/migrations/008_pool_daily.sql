-- Per-pool totals per UTC day, rolled up from pool_hourly; tvl_usd_close is the last bucket's.
CREATE TABLE IF NOT EXISTS pool_daily
(
    chain_id        UInt32,
    pool_address    String,
    day             Date,
    volume_usd      Float64,
    fees_usd        Float64,
    tvl_usd_close   Nullable(Float64),
    hours_covered   UInt8,
    ingested_at     DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(ingested_at)
ORDER BY (chain_id, pool_address, day)
SETTINGS non_replicated_deduplication_window = 1000
