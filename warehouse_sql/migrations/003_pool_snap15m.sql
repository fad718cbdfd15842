-- Per-pool observation per 15-minute snapshot.
CREATE TABLE IF NOT EXISTS pool_snap15m
(
    chain_id         UInt32,
    snapshot_at      DateTime64(3, 'UTC') CODEC(DoubleDelta, ZSTD),
    pool_address     String,                       -- lower-case 0x hex
    pool_type        LowCardinality(String),       -- 'v2-volatile' | 'v2-stable' | 'cl'
    token0_address   String,
    token1_address   String,
    token0_symbol    LowCardinality(String),
    token1_symbol    LowCardinality(String),
    fee_pips         UInt32,
    is_dynamic_fee   Bool,
    reserve0         Float64,
    reserve1         Float64,
    tvl_usd          Nullable(Float64),
    volume_24h_usd   Nullable(Float64),
    fees_24h_usd     Nullable(Float64),
    hours_24h        UInt16,
    gauge_address    Nullable(String),
    gauge_alive      Nullable(Bool),
    ingested_at      DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(ingested_at)
PARTITION BY toYYYYMM(snapshot_at)
ORDER BY (chain_id, snapshot_at, pool_address)
SETTINGS non_replicated_deduplication_window = 1000
