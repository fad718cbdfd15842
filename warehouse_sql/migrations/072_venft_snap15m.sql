-- Each veNFT's lock at a 15-minute snapshot (the ve_snapshots asset, from the subgraph's VeNFT
-- entities at the snapshot block): owner, locked amount, unlock time, permanent or not, and its
-- voting power at the block's time, computed as VotingEscrow does (the amount if permanent, else
-- amount * (unlock - block time) / MAXTIME with MAXTIME = 4 * 365 days, integer division; 0 once
-- the unlock time has passed). Only veNFTs with a locked amount.
-- Kept for the recent snapshots alone (per-lock state is large and only the newest snapshots are
-- served): the asset writes a run's snapshots within 2 days of the chain's newest (the run's or one
-- stored before, so a backfill's runs of older snapshots write none) and drops the chain's day
-- partitions older than that: the retention follows the chain's data, not the wall clock.
-- /v1/votes?view=current reads the voting power of the served snapshot from here.
CREATE TABLE IF NOT EXISTS venft_snap15m
(
    chain_id          UInt32,
    snapshot_at       DateTime64(3, 'UTC') CODEC(DoubleDelta, ZSTD),
    block_number      UInt64,
    block_timestamp   DateTime64(3, 'UTC'),
    venft_id          UInt64,
    owner             String,
    locked_raw        UInt256,
    unlock_time       Nullable(DateTime('UTC')),       -- NULL for a permanent lock
    permanent         UInt8,
    voting_power_raw  UInt256,
    ingested_at       DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(ingested_at)
PARTITION BY (chain_id, toYYYYMMDD(snapshot_at))
ORDER BY (chain_id, snapshot_at, venft_id)
SETTINGS non_replicated_deduplication_window = 1000
