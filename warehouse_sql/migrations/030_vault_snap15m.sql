-- Per-vault state per 15-minute snapshot, read through JSON-RPC (Multicall3) at the snapshot
-- block: the vault's own views for its pool, gauge, strategy, tokens, totals and supply, the
-- strategy's pause and rebalance views, the factory's globalPause, the pool's slot0 tick (CL).
-- Token prices are the subgraph's Token.priceUSD at the same block (the token_snap15m source);
-- tvl_usd and share_price_usd are NULL when a price is unknown, never zero. Addresses are
-- lower-case; raw amounts are exact integers. Tick columns are NULL for v2 vaults.
-- Readers take the latest successful snapshot_at from snapshot_runs and read it with FINAL.
CREATE TABLE IF NOT EXISTS vault_snap15m
(
    chain_id          UInt32,
    snapshot_at       DateTime64(3, 'UTC') CODEC(DoubleDelta, ZSTD),
    block_number      UInt64,
    vault_address     String,
    vault_key         LowCardinality(String),      -- configuration key (core/vaults.py)
    kind              LowCardinality(String),      -- 'cl' | 'v2'
    pool_address      String,
    gauge_address     String,                      -- '' when the pool has no gauge at the block
    strategy_address  String,
    token0_address    String,
    token1_address    String,
    token0_symbol     LowCardinality(String),
    token1_symbol     LowCardinality(String),
    token0_decimals   UInt8,
    token1_decimals   UInt8,
    share_decimals    UInt8,                       -- vault decimals(): the share unit
    total_supply_raw  UInt256,
    amount0_raw       UInt256,                     -- getTotalAmounts(): position + idle
    amount1_raw       UInt256,
    token0_price_usd  Nullable(Float64),
    token1_price_usd  Nullable(Float64),
    tvl_usd           Nullable(Float64),           -- amount0*p0/10^d0 + amount1*p1/10^d1
    share_price_usd   Nullable(Float64),           -- tvl_usd / (total_supply_raw / 10^share_decimals)
    is_calm           Bool,
    strategy_paused   Bool,
    global_pause      Bool,
    slippage_bps      UInt16,
    tick              Nullable(Int32),             -- pool slot0 tick (CL)
    tick_lower        Nullable(Int32),
    tick_upper        Nullable(Int32),
    liquidity_raw     Nullable(UInt256),           -- getPosition() liquidity (CL)
    needs_rebalance   Nullable(Bool),              -- strategy needsRebalance(); NULL when the read reverts
    last_rebalance    Nullable(DateTime64(3, 'UTC')),  -- NULL for v2 and before the first rebalance
    last_harvest      Nullable(DateTime64(3, 'UTC')),  -- NULL before the first harvest
    ingested_at       DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(ingested_at)
PARTITION BY toYYYYMM(snapshot_at)
ORDER BY (chain_id, snapshot_at, vault_address)
SETTINGS non_replicated_deduplication_window = 1000
