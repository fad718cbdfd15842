-- Each open liquidity position of each provider at a 15-minute snapshot (the
-- liquidity_position_snapshots asset): the owners from the subgraph's LiquidityPosition entities at
-- the snapshot block, then each owner's positions from the chain's LpSugar.positions(limit, offset,
-- account) at that block (Velodrome's Sugar): a v2 pool's LP in the wallet and in the gauge (one row,
-- kept apart in liquidity_raw and staked_raw), a CL NFT's liquidity, range and staked flag; token
-- amounts at the block (unstaked in amount*, staked in staked*), trading fees not yet collected
-- (fees*), gauge emissions not yet claimed (emissions_raw, in the chain's core token).
-- Ordered by account first: /v1/accounts/{address}/liquidity-positions reads one account's rows at
-- each chain's served snapshot. Kept for the recent snapshots alone, as venft_snap15m is (2 days
-- before the chain's newest; older day partitions are dropped by the asset).
CREATE TABLE IF NOT EXISTS liquidity_position_snap15m
(
    account           String,
    chain_id          UInt32,
    snapshot_at       DateTime64(3, 'UTC') CODEC(DoubleDelta, ZSTD),
    position_id       String,                 -- 'cl:<tokenId>' or 'v2:<pool>'
    block_number      UInt64,
    block_timestamp   DateTime64(3, 'UTC'),
    kind              LowCardinality(String), -- 'v2' | 'cl'
    pool_address      String,
    token_id          Nullable(UInt256),      -- the NFT (CL); NULL for v2
    liquidity_raw     UInt256,                -- CL liquidity; v2 LP in the wallet
    staked_raw        UInt256,                -- CL 1 or 0; v2 LP staked in the gauge
    amount0_raw       UInt256,
    amount1_raw       UInt256,
    staked0_raw       UInt256,
    staked1_raw       UInt256,
    fees0_raw         UInt256,
    fees1_raw         UInt256,
    emissions_raw     UInt256,
    tick_lower        Nullable(Int32),
    tick_upper        Nullable(Int32),
    ingested_at       DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(ingested_at)
PARTITION BY (chain_id, toYYYYMMDD(snapshot_at))
ORDER BY (account, chain_id, snapshot_at, position_id)
SETTINGS non_replicated_deduplication_window = 1000
