-- The core (protocol) token per 15-minute snapshot: one row per snapshot, every figure read at
-- the snapshot's block so the /api/stats/core factsheet is one consistent observation.
-- - price_usd: the subgraph's Token.priceUSD at the block (price_source says so); the
--   reference pool is the deepest (highest TVL) pool containing the token at that block.
-- - total_supply_raw: ERC20 totalSupply() read through Multicall3 at the same block (raw
--   integer, 10^decimals scale); market_cap_usd = price_usd * total_supply_raw / 10^decimals.
-- - liquidity_usd: sum of the TVL of every pool containing the token (NULL if one is unknown).
-- - flows: hourly buckets of those pools over windows ending at flow_window_end (the snapshot's
--   protocol flow window end); *_day_* sums [UTC day start of the snapshot, flow_window_end);
--   lifetime = sum of the pools' cumulative subgraph volumeUSD / feesUSD at the block.
CREATE TABLE IF NOT EXISTS core_token_snap15m
(
    chain_id               UInt32,
    snapshot_at            DateTime64(3, 'UTC') CODEC(DoubleDelta, ZSTD),
    block_number           UInt64,
    token_address          String,
    symbol                 LowCardinality(String),
    decimals               UInt8,
    price_usd              Nullable(Float64),
    derived_eth            Nullable(Float64),
    price_source           LowCardinality(String),
    price_reference_pool   Nullable(String),
    total_supply_raw       Nullable(UInt256),
    market_cap_usd         Nullable(Float64),
    liquidity_usd          Nullable(Float64),
    pool_count             UInt32,
    flow_window_end        Nullable(DateTime64(3, 'UTC')),
    volume_24h_usd         Nullable(Float64),
    fees_24h_usd           Nullable(Float64),
    hours_24h              UInt16,
    volume_day_usd         Nullable(Float64),
    fees_day_usd           Nullable(Float64),
    hours_day              UInt16,
    volume_7d_usd          Nullable(Float64),
    fees_7d_usd            Nullable(Float64),
    hours_7d               UInt16,
    volume_30d_usd         Nullable(Float64),
    fees_30d_usd           Nullable(Float64),
    hours_30d              UInt16,
    volume_lifetime_usd    Nullable(Float64),
    fees_lifetime_usd      Nullable(Float64),
    ingested_at            DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(ingested_at)
PARTITION BY toYYYYMM(snapshot_at)
ORDER BY (chain_id, snapshot_at)
SETTINGS non_replicated_deduplication_window = 1000
