-- The rewards distributor's weekly rebases (the governance_events asset, from the subgraph's
-- RebaseCheckpoint entities): per ended epoch, what the minter sent at the flip and the distributor
-- checkpointed to that week (tokensPerWeek), the escrow's total voting power at the epoch's start
-- (veSupply), the token paid (the core token), and how many veNFTs had power then (`venfts`, the
-- rows venft_rebases holds for the epoch: read with the checkpoint, so an epoch here has them all).
CREATE TABLE IF NOT EXISTS rebase_epochs
(
    chain_id          UInt32,
    epoch             DateTime('UTC'),
    amount_raw        UInt256,
    ve_supply_raw     UInt256,
    token_address     String,
    token_symbol      String,
    token_decimals    UInt8,
    venfts            UInt32,
    block_timestamp   DateTime('UTC'),
    block_number      UInt64,
    transaction_hash  String,
    ingested_at       DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(ingested_at)
ORDER BY (chain_id, epoch)
