-- VotingEscrow's logs (history, daily governance_events asset, from the subgraph's EscrowEvent):
-- lock operations (kind 'create' | 'increase' | 'extend' | 'permanent' | 'withdraw'), transfers
-- ('transfer') and merges ('merge': the source burnt into merged_into). from_address holds the
-- veNFT before the log and to_address after it (the zero address before a create, after a
-- withdraw and for a merge's burnt source); amount_raw is what it locked, added, moved or withdrew
-- (18 decimals); unlock_time and permanent describe the lock after it (unlock_time NULL: permanent).
-- Ordered by chain and block for the replays; an account's logs are read with from_address or
-- to_address within the chain's range.
CREATE TABLE IF NOT EXISTS escrow_events
(
    chain_id          UInt32,
    id                String,                          -- <tx hash>-<log index>
    kind              LowCardinality(String),
    venft_id          UInt64,
    from_address      String,
    to_address        String,
    amount_raw        UInt256,
    unlock_time       Nullable(DateTime('UTC')),
    permanent         Bool,
    merged_into       Nullable(UInt64),
    block_timestamp   DateTime('UTC') CODEC(DoubleDelta, ZSTD),
    block_number      UInt64,
    transaction_hash  String,
    log_index         UInt32,
    ingested_at       DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(ingested_at)
PARTITION BY toYYYYMM(block_timestamp)
ORDER BY (chain_id, block_number, log_index)
SETTINGS non_replicated_deduplication_window = 1000
