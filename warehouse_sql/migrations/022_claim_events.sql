-- One row per reward claim (bribe or fee reward) of a veNFT for an epoch (history, daily
-- governance_events asset). epoch is the epoch the reward was earned in (the claim happens later);
-- amount_usd is the subgraph's amountUSD at claim time. Replaced by (chain_id, epoch, id).
CREATE TABLE IF NOT EXISTS claim_events
(
    chain_id          UInt32,
    epoch             DateTime64(3, 'UTC'),
    id                String,
    block_timestamp   DateTime64(3, 'UTC') CODEC(DoubleDelta, ZSTD),
    block_number      UInt64,
    transaction_hash  String,
    venft_id          UInt64,
    is_foundation     Bool,
    kind              LowCardinality(String),          -- 'bribe' | 'fee'
    gauge_address     String,
    pool_address      String,
    token_address     String,
    token_symbol      LowCardinality(String),
    token_decimals    UInt8,
    amount_raw        UInt256,
    amount_usd        Nullable(Float64),
    ingested_at       DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(ingested_at)
PARTITION BY toYYYYMM(epoch)
ORDER BY (chain_id, epoch, id)
SETTINGS non_replicated_deduplication_window = 1000
