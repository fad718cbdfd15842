-- Protocol totals per UTC day, rolled up from protocol_hourly. hours_covered < 24 means the
-- day is in progress or missing buckets; the API derives `partial` from the snapshot time.
CREATE TABLE IF NOT EXISTS protocol_daily
(
    chain_id        UInt32,
    day             Date,
    volume_usd      Float64,
    fees_usd        Float64,
    hours_covered   UInt8,
    ingested_at     DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(ingested_at)
ORDER BY (chain_id, day)
SETTINGS non_replicated_deduplication_window = 1000
