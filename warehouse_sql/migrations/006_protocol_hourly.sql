-- Protocol totals per completed hour (sum over pools of pool_hourly), ordered for time scans.
CREATE TABLE IF NOT EXISTS protocol_hourly
(
    chain_id        UInt32,
    hour_start      DateTime64(3, 'UTC') CODEC(DoubleDelta, ZSTD),
    volume_usd      Float64,
    fees_usd        Float64,
    pool_count      UInt32,
    ingested_at     DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(ingested_at)
PARTITION BY toYYYYMM(hour_start)
ORDER BY (chain_id, hour_start)
SETTINGS non_replicated_deduplication_window = 1000
