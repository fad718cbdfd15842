-- Each veNFT's rebase of an ended epoch (the governance_events asset, read with the epoch's
-- checkpoint): its voting power at the epoch's start (VotingEscrow.balanceOfNFTAt, read at the
-- checkpoint's block: a past point never changes) and its rebase, power * tokensPerWeek / veSupply
-- rounded down as RewardsDistributor rounds. Ordered by veNFT, as an account's veNFTs are looked up.
CREATE TABLE IF NOT EXISTS venft_rebases
(
    chain_id          UInt32,
    venft_id          UInt64,
    epoch             DateTime('UTC'),
    power_raw         UInt256,
    rebase_raw        UInt256,
    ingested_at       DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(ingested_at)
ORDER BY (chain_id, venft_id, epoch)
