-- The foundation's vote-escrow position per 15-minute snapshot, read at the snapshot block from
-- the subgraph's VeNFT entities flagged isFoundation and the epoch's votes of those veNFTs.
-- Raw 1e18 integers; the wallet is the owner of the foundation veNFTs.
CREATE TABLE IF NOT EXISTS foundation_snap15m
(
    chain_id              UInt32,
    snapshot_at           DateTime64(3, 'UTC') CODEC(DoubleDelta, ZSTD),
    block_number          UInt64,
    epoch_start           DateTime64(3, 'UTC'),
    wallet                String,
    venft_ids             Array(UInt64),
    locked_raw            UInt256,              -- core token locked in the foundation's veNFTs
    voting_power_raw      UInt256,
    votes_epoch_raw       UInt256,              -- votes cast this epoch by the foundation's veNFTs
    vote_count            UInt32,               -- (veNFT, pool) allocations this epoch
    voted_pool_count      UInt32,
    ingested_at           DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(ingested_at)
PARTITION BY toYYYYMM(snapshot_at)
ORDER BY (chain_id, snapshot_at)
SETTINGS non_replicated_deduplication_window = 1000
