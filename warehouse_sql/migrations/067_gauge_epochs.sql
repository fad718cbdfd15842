-- One row per (chain, epoch, gauge): the gauge's epoch as the subgraph aggregates it (history,
-- daily governance_events asset, for every epoch its days touch): votes in effect, emissions
-- directed and the reward rate, trading fees accrued to its fee reward (raw per pool token and
-- USD), notified bribes (USD at deposit time, null when a deposit had no price; counts).
-- is_partial: read before the epoch ended. Rows are versioned by the block they were read at, so
-- a re-run of an older day (read at an older block) never replaces a later reading.
CREATE TABLE IF NOT EXISTS gauge_epochs
(
    chain_id              UInt32,
    epoch                 DateTime64(3, 'UTC'),
    gauge_address         String,
    gauge_kind            LowCardinality(String),      -- 'pool' | 'system'
    target                String,
    pool_address          String,                      -- '' for a system gauge
    is_alive              Bool,
    is_partial            Bool,
    votes_raw             UInt256,
    votes_at_start_raw    UInt256,
    emissions_raw         UInt256,
    reward_rate_raw       UInt256,                     -- core token per second, 1e18-scaled
    emitted_raw           UInt256,
    token0_address        String,
    token1_address        String,
    fees0_raw             UInt256,
    fees1_raw             UInt256,
    fees_usd              Nullable(Float64),
    bribes_usd            Nullable(Float64),
    bribe_count           UInt32,
    unpriced_bribe_count  UInt32,
    read_block            UInt64,
    read_at               DateTime64(3, 'UTC'),
    ingested_at           DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(read_block)
PARTITION BY toYYYYMM(epoch)
ORDER BY (chain_id, epoch, gauge_address)
SETTINGS non_replicated_deduplication_window = 1000
