-- Per-gauge observation per 15-minute snapshot: votes, emissions and the APR breakdown.
-- APRs are fractions per year (0.25 = 25 %); null when an input (price, staked TVL, votes) is
-- unknown. total_apr = emission_apr + fee_apr + bribe_apr when all three are known.
CREATE TABLE IF NOT EXISTS gauge_snap15m
(
    chain_id                 UInt32,
    snapshot_at              DateTime64(3, 'UTC') CODEC(DoubleDelta, ZSTD),
    gauge_address            String,
    pool_address             String,
    is_alive                 Bool,
    epoch_start              DateTime64(3, 'UTC'),
    votes_raw                Nullable(UInt256),        -- pool weight this epoch (1e18 scale)
    foundation_votes_raw     Nullable(UInt256),
    foundation_vote_share    Nullable(Float64),        -- foundation votes / gauge votes
    emissions_epoch_raw      Nullable(UInt256),        -- core token directed to the gauge this epoch
    emission_apr             Nullable(Float64),
    fee_apr                  Nullable(Float64),
    bribe_apr                Nullable(Float64),
    total_apr                Nullable(Float64),
    bribes_epoch_usd         Nullable(Float64),
    fees_epoch_usd           Nullable(Float64),
    ingested_at              DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(ingested_at)
PARTITION BY toYYYYMM(snapshot_at)
ORDER BY (chain_id, snapshot_at, gauge_address)
SETTINGS non_replicated_deduplication_window = 1000
