-- The liquidity providers' events (the liquidity_events asset, from the subgraph's LiquidityEvent
-- entities of each day): adds and removals of v2 LP (v2Add, v2Remove), CL mints and burns (clMint,
-- clBurn), stakes and unstakes in gauges (v2Stake, v2Unstake, clStake, clUnstake), fee collects
-- (clCollect) and emission claims (claim), each with its owner, pool and position ('cl:<tokenId>' or
-- 'v2:<pool>'), the pool's tokens as the subgraph lists them, and the raw amounts it moved or paid:
-- the tokens added or removed, the trading fees collected (a removal, stake, collect or burn
-- collects them), the emissions claimed (an unstake or a claim) in `emissions_token`. NULL: the
-- event has no such amount. account_events derives the owners' activity records from it.
CREATE TABLE IF NOT EXISTS liquidity_events
(
    chain_id            UInt32,
    id                  String,                        -- <tx hash>-<log index>
    kind                LowCardinality(String),
    owner               String,
    pool_address        String,
    position_id         String,
    token_id            Nullable(UInt256),             -- CL only
    token0_address      String,
    token0_symbol       String,
    token0_decimals     Nullable(UInt8),
    token1_address      String,
    token1_symbol       String,
    token1_decimals     Nullable(UInt8),
    lp_raw              Nullable(UInt256),             -- v2 LP added, removed, staked or unstaked
    liquidity_raw       Nullable(UInt256),             -- CL liquidity minted or burnt
    tick_lower          Nullable(Int32),
    tick_upper          Nullable(Int32),
    amount0_raw         Nullable(UInt256),
    amount1_raw         Nullable(UInt256),
    fees0_raw           Nullable(UInt256),
    fees1_raw           Nullable(UInt256),
    emissions_raw       Nullable(UInt256),
    emissions_token     String,                        -- '' without emissions
    emissions_symbol    String,
    emissions_decimals  Nullable(UInt8),
    staked              Nullable(UInt8),               -- clMint: staked at once
    block_timestamp     DateTime('UTC'),
    block_number        UInt64,
    transaction_hash    String,
    log_index           UInt32,
    ingested_at         DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(ingested_at)
ORDER BY (chain_id, block_number, log_index, id)
SETTINGS non_replicated_deduplication_window = 1000
