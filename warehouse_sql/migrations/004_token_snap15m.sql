-- Per-token observation per 15-minute snapshot.
CREATE TABLE IF NOT EXISTS token_snap15m
(
    chain_id        UInt32,
    snapshot_at     DateTime64(3, 'UTC') CODEC(DoubleDelta, ZSTD),
    token_address   String,
    symbol          LowCardinality(String),
    name            String,
    decimals        UInt8,
    price_usd       Nullable(Float64),
    derived_eth     Nullable(Float64),
    tvl_usd         Nullable(Float64),
    ingested_at     DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(ingested_at)
PARTITION BY toYYYYMM(snapshot_at)
ORDER BY (chain_id, snapshot_at, token_address)
SETTINGS non_replicated_deduplication_window = 1000
