-- Rebase claims (RewardsDistributor's Claimed logs, the governance_events asset, from the subgraph's
-- RebaseClaim entities): the veNFT, its owner at the claim (who was paid), the epochs it took
-- ([from_epoch, to_epoch)), the amount, whether it was deposited into the lock (a live lock: a
-- depositFor in escrow_events) or paid to the owner (an expired one), and its USD at the claim.
CREATE TABLE IF NOT EXISTS rebase_claims
(
    chain_id          UInt32,
    id                String,                        -- <tx hash>-<log index>
    venft_id          UInt64,
    owner             String,
    from_epoch        DateTime('UTC'),
    to_epoch          DateTime('UTC'),
    amount_raw        UInt256,
    amount_usd        Nullable(Float64),
    to_lock           Bool,
    token_address     String,
    token_symbol      String,
    token_decimals    UInt8,
    block_timestamp   DateTime('UTC'),
    block_number      UInt64,
    transaction_hash  String,
    log_index         UInt32,
    ingested_at       DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(ingested_at)
ORDER BY (chain_id, venft_id, id)
SETTINGS non_replicated_deduplication_window = 1000
