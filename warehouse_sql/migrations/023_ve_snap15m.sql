-- Vote-escrow state per 15-minute snapshot. Totals come from VotingEscrow at the snapshot block
-- (supply, totalSupply, permanentLockBalance via Multicall3); lock counts and the average
-- remaining lock from the subgraph's VeNFT entities at the same block. Raw 1e18 integers.
CREATE TABLE IF NOT EXISTS ve_snap15m
(
    chain_id                   UInt32,
    snapshot_at                DateTime64(3, 'UTC') CODEC(DoubleDelta, ZSTD),
    block_number               UInt64,
    locked_raw                 UInt256,              -- VotingEscrow.supply()
    voting_power_raw           UInt256,              -- VotingEscrow.totalSupply()
    permanent_locked_raw       UInt256,              -- VotingEscrow.permanentLockBalance()
    decaying_locked_raw        UInt256,              -- locked_raw - permanent_locked_raw
    lock_count                 UInt32,               -- veNFTs with a non-zero locked amount
    permanent_lock_count       UInt32,
    decaying_lock_count        UInt32,               -- non-permanent, unlock time in the future
    expired_lock_count         UInt32,               -- non-permanent, unlock time passed, not withdrawn
    avg_remaining_lock_seconds Nullable(Float64),    -- mean over decaying locks of unlock - snapshot block time
    ingested_at                DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(ingested_at)
PARTITION BY toYYYYMM(snapshot_at)
ORDER BY (chain_id, snapshot_at)
SETTINGS non_replicated_deduplication_window = 1000
