-- Protocol-wide observation per 15-minute snapshot. USD values are Float64 (see docs/units.md);
-- token amounts are raw UInt256 integers (1e18 scale for the core token).
-- Flow totals sum protocol_hourly over windows ending at flow_window_end (exclusive); the
-- hours_* columns say how many of the window's hourly buckets were present.
CREATE TABLE IF NOT EXISTS protocol_snap15m
(
    chain_id               UInt32,
    snapshot_at            DateTime64(3, 'UTC') CODEC(DoubleDelta, ZSTD),
    block_number           UInt64,
    block_timestamp        DateTime64(3, 'UTC'),
    tvl_usd                Nullable(Float64),
    tvl_v2_usd             Nullable(Float64),
    tvl_cl_usd             Nullable(Float64),
    pool_count             UInt32,
    flow_window_end        Nullable(DateTime64(3, 'UTC')),
    volume_24h_usd         Nullable(Float64),
    fees_24h_usd           Nullable(Float64),
    hours_24h              UInt16,
    volume_7d_usd          Nullable(Float64),
    fees_7d_usd            Nullable(Float64),
    hours_7d               UInt16,
    volume_30d_usd         Nullable(Float64),
    fees_30d_usd           Nullable(Float64),
    hours_30d              UInt16,
    active_gauge_count     Nullable(UInt32),
    epoch_start            DateTime64(3, 'UTC'),
    emissions_epoch_raw    Nullable(UInt256),
    ve_locked_raw          Nullable(UInt256),
    ve_voting_power_raw    Nullable(UInt256),
    core_price_usd         Nullable(Float64),
    ingested_at            DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(ingested_at)
PARTITION BY toYYYYMM(snapshot_at)
ORDER BY (chain_id, snapshot_at)
SETTINGS non_replicated_deduplication_window = 1000
