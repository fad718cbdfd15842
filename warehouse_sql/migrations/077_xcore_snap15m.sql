-- xCORE per chain per 15-minute snapshot, read through JSON-RPC (Multicall3) at the snapshot
-- block. Canonical chain: the token's totalSupply (the adapter's locked shares included: the
-- canonical supply, counted once), totalAssets (the backing, in core token), convertToAssets(1e18)
-- (the ratio, CORE per xCORE x 1e18), exitPenaltyBps and the adapter's lockedAmount. A chain with
-- a bridged representation: its totalSupply only (the other columns NULL). A chain whose contract
-- has no code at the block (not deployed yet) has no row. Raw integers; addresses lower-case.
-- Readers take the latest successful snapshot_at from snapshot_runs and read it with FINAL.
CREATE TABLE IF NOT EXISTS xcore_snap15m
(
    chain_id            UInt32,
    snapshot_at         DateTime64(3, 'UTC') CODEC(DoubleDelta, ZSTD),
    block_number        UInt64,
    block_timestamp     DateTime('UTC'),
    role                LowCardinality(String),        -- 'canonical' | 'representation'
    token_address       String,
    token_name          String,
    token_symbol        LowCardinality(String),
    token_decimals      UInt8,
    asset_address       String,                        -- canonical: asset(), the core token ('' elsewhere)
    adapter_address     String,                        -- canonical: the OFT adapter ('' elsewhere)
    supply_raw          UInt256,
    backing_raw         Nullable(UInt256),
    ratio_raw           Nullable(UInt256),
    adapter_locked_raw  Nullable(UInt256),
    exit_penalty_bps    Nullable(UInt32),
    ingested_at         DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(ingested_at)
ORDER BY (chain_id, snapshot_at)
SETTINGS non_replicated_deduplication_window = 1000
