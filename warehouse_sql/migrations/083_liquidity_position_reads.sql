-- One row per snapshot whose positions were read (the same asset, the same points): how many owners
-- and positions it found. A chain's served snapshot without a row here was not read (its positions
-- are unknown, not none); with one, an account without rows has no open position there. Kept and
-- dropped with the positions (the same day partitions), so a marker never outlives its rows.
CREATE TABLE IF NOT EXISTS liquidity_position_reads
(
    chain_id          UInt32,
    snapshot_at       DateTime64(3, 'UTC'),
    block_number      UInt64,
    block_timestamp   DateTime64(3, 'UTC'),
    owners            UInt32,
    positions         UInt32,
    ingested_at       DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(ingested_at)
PARTITION BY (chain_id, toYYYYMMDD(snapshot_at))
ORDER BY (chain_id, snapshot_at)
SETTINGS non_replicated_deduplication_window = 1000
