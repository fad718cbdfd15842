-- One row per UTC day a token_hourly run valued, written after its token rows (the day's success
-- row, ADR 0011): every hour ending at or before `valued_until` is valued, so a token without a
-- token_hourly row in such an hour had no safe price there, and an hour after it is still pending.
-- `revision` is the highest revision among the day's rows; a rerun replaces the day's row.
CREATE TABLE IF NOT EXISTS price_valuation_runs
(
    chain_id      UInt32,
    day_start     DateTime64(3, 'UTC'),
    valued_until  DateTime64(3, 'UTC'),
    generation    UInt16,
    revision      UInt32,
    tokens        UInt32,
    rows_written  UInt32,
    revised_rows  UInt32,
    read_block    UInt64,
    written_at    DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree(written_at)
ORDER BY (chain_id, day_start)
SETTINGS non_replicated_deduplication_window = 1000
