-- The initialized ticks of concentrated-liquidity pools, stored once per distinct tick table
-- (ADR 0014). A pool's table changes only when a position is minted or burnt at a new boundary, so
-- most 15-minute snapshots repeat the table before them: each snapshot's marker
-- (pool_tick_snap15m) names its table by `set_id`, a 64-bit BLAKE2b digest of the sorted
-- (tick, liquidityNet, liquidityGross) triples, and a table's rows are written once whichever
-- snapshot (or backfill order) first read it. An empty table has no rows (its marker counts 0).
-- Reads are ranges of the key: one pool's table from a tick on (/v1/pools/.../ticks pages).
CREATE TABLE IF NOT EXISTS pool_tick_sets
(
    chain_id         UInt32,
    pool_address     String,
    set_id           UInt64,
    tick             Int32 CODEC(Delta, ZSTD),
    liquidity_net    Int128 CODEC(ZSTD),
    liquidity_gross  UInt128 CODEC(ZSTD),
    ingested_at      DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(ingested_at)
ORDER BY (chain_id, pool_address, set_id, tick)
SETTINGS non_replicated_deduplication_window = 1000
