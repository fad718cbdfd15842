-- One row per vault interaction from the subgraph (history, written by the daily vault_history
-- asset): deposits and withdrawals (user, shares, amounts, amount_usd = the subgraph's amountUSD,
-- the USD value at the event's time), harvests (token, amount, amount_usd) and rebalances (old
-- and new tick range, pool tick). Columns that do not apply to a kind are NULL ('' for
-- strings). Re-reading a day replaces rows by (chain_id, vault_address, block_timestamp, id);
-- reads use FINAL.
CREATE TABLE IF NOT EXISTS vault_events
(
    chain_id          UInt32,
    vault_address     String,
    id                String,                      -- subgraph id
    kind              LowCardinality(String),      -- 'deposit' | 'withdrawal' | 'harvest' | 'rebalance'
    block_timestamp   DateTime64(3, 'UTC') CODEC(DoubleDelta, ZSTD),
    block_number      UInt64,
    transaction_hash  String,
    log_index         Nullable(UInt32),            -- deposits and withdrawals
    user              String,                      -- '' for harvest and rebalance
    shares_raw        Nullable(UInt256),
    amount0_raw       Nullable(UInt256),
    amount1_raw       Nullable(UInt256),
    amount_usd        Nullable(Float64),
    token_address     String,                      -- harvest token, else ''
    amount_raw        Nullable(UInt256),           -- harvest amount
    old_tick_lower    Nullable(Int32),
    old_tick_upper    Nullable(Int32),
    new_tick_lower    Nullable(Int32),
    new_tick_upper    Nullable(Int32),
    tick              Nullable(Int32),
    ingested_at       DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(ingested_at)
PARTITION BY toYYYYMM(block_timestamp)
ORDER BY (chain_id, vault_address, block_timestamp, id)
SETTINGS non_replicated_deduplication_window = 1000
