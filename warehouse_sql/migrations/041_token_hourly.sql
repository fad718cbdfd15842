-- Per-token hourly valuation: the token's USD price at the closing boundary of every ended hour
-- (the subgraph's TokenHourData, read at a block after the hour ended), and the hour's volume,
-- back to the chain's first market activity. The historical input of price history and price
-- changes; 15-minute snapshot prices (token_snap15m) are the canonical observations on top.
CREATE TABLE IF NOT EXISTS token_hourly
(
    chain_id        UInt32,
    token_address   String,
    hour_start      DateTime64(3, 'UTC') CODEC(DoubleDelta, ZSTD),
    price_usd_close Nullable(Float64),
    volume_usd      Nullable(Float64),
    source          LowCardinality(String),
    read_block      UInt64,
    ingested_at     DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(ingested_at)
PARTITION BY toYYYYMM(hour_start)
ORDER BY (chain_id, token_address, hour_start)
SETTINGS non_replicated_deduplication_window = 1000
