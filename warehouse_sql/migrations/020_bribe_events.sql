-- One row per bribe deposit (history, written by the daily governance_events asset).
-- amount_raw is the exact on-chain integer; amount_usd is the subgraph's amountUSD, i.e. the USD
-- value at deposit time (Float64, docs/adr/0001-units-and-scales.md). Re-reading a day replaces
-- rows by (chain_id, epoch, id); reads use FINAL.
CREATE TABLE IF NOT EXISTS bribe_events
(
    chain_id          UInt32,
    epoch             DateTime64(3, 'UTC'),            -- epoch start of the deposit
    id                String,                          -- subgraph id (<tx hash>-<log index>)
    block_timestamp   DateTime64(3, 'UTC') CODEC(DoubleDelta, ZSTD),
    block_number      UInt64,
    transaction_hash  String,
    gauge_address     String,
    pool_address      String,
    token_address     String,
    token_symbol      LowCardinality(String),
    token_decimals    UInt8,
    amount_raw        UInt256,
    amount_usd        Nullable(Float64),
    sender            String,
    is_foundation     Bool,
    ingested_at       DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(ingested_at)
PARTITION BY toYYYYMM(epoch)
ORDER BY (chain_id, epoch, id)
SETTINGS non_replicated_deduplication_window = 1000
