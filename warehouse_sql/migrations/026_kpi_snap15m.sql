-- Foundation KPI per 15-minute snapshot, epoch and gauge: every gauge the foundation voted for or
-- bribed in the snapshot's epoch, with the epoch-to-date figures and their change against the same
-- elapsed part of the previous epoch, and the classification of docs/methodology/kpi-classification.md
-- (methodology_version says which version classified the row).
CREATE TABLE IF NOT EXISTS kpi_snap15m
(
    chain_id                UInt32,
    snapshot_at             DateTime64(3, 'UTC') CODEC(DoubleDelta, ZSTD),
    epoch_start             DateTime64(3, 'UTC'),
    gauge_address           String,
    pool_address            String,
    foundation_votes_raw    UInt256,               -- the foundation's vote weight on the pool this epoch
    pool_votes_raw          UInt256,               -- all votes on the pool this epoch
    vote_share              Nullable(Float64),     -- foundation / all
    bribe_cost_usd          Nullable(Float64),     -- foundation bribes to the gauge this epoch, USD at deposit
    emissions_directed_raw  UInt256,               -- gauge emissions this epoch x vote_share (core token)
    emissions_directed_usd  Nullable(Float64),
    tvl_usd                 Nullable(Float64),
    tvl_prev_usd            Nullable(Float64),     -- pool TVL one epoch earlier (hourly close)
    volume_usd              Nullable(Float64),     -- epoch to date (ended hours)
    volume_prev_usd         Nullable(Float64),     -- the same elapsed hours of the previous epoch
    fees_usd                Nullable(Float64),
    fees_prev_usd           Nullable(Float64),
    tvl_delta               Nullable(Float64),     -- relative change (x / prev - 1)
    volume_delta            Nullable(Float64),
    fees_delta              Nullable(Float64),
    value_per_bribe_usd     Nullable(Float64),     -- (emissions directed + fee share) / bribe cost
    classification          LowCardinality(String),
    methodology_version     LowCardinality(String),
    ingested_at             DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(ingested_at)
PARTITION BY toYYYYMM(snapshot_at)
ORDER BY (chain_id, snapshot_at, epoch_start, gauge_address)
SETTINGS non_replicated_deduplication_window = 1000
