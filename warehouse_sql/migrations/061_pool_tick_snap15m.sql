-- Which tick table (pool_tick_sets) each concentrated-liquidity pool had at each 15-minute
-- snapshot, read through the chain book's tick lens at the snapshot block together with the
-- pool's slot0() and liquidity() (ADR 0014). A row is the marker that the table is materialized
-- for that snapshot; no row: not materialized (/v1/pools/.../ticks answers 503).
-- Invariants checked at capture, kept as read: net_sum (sum of liquidityNet, 0 for a whole
-- table), running_at_current (sum of liquidityNet over ticks <= current_tick: the active
-- liquidity a whole table implies) and min_running (the lowest running sum, never negative);
-- verified = 1 when they hold and running_at_current = liquidity_raw, else `problem` says which
-- did not.
CREATE TABLE IF NOT EXISTS pool_tick_snap15m
(
    chain_id            UInt32,
    snapshot_at         DateTime64(3, 'UTC') CODEC(DoubleDelta, ZSTD),
    pool_address        String,
    block_number        UInt64,
    set_id              UInt64,
    tick_count          UInt32,
    current_tick        Int32,
    liquidity_raw       UInt128,
    sqrt_price_x96      UInt256,
    net_sum             Int256,
    running_at_current  Int256,
    min_running         Int256,
    verified            UInt8,
    problem             String,
    ingested_at         DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(ingested_at)
PARTITION BY toYYYYMM(snapshot_at)
ORDER BY (chain_id, snapshot_at, pool_address)
SETTINGS non_replicated_deduplication_window = 1000
