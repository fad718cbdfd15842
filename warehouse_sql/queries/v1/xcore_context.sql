-- /v1/xcore/rate-history and /epochs: the canonical chain's first xCORE event (the token's start;
-- NULL: none indexed) and how far its events are indexed (the chain_coverage dataset 'xcore',
-- inclusive; NULL: never).
-- Parameters: {canonical:UInt32}.
SELECT
    (SELECT toNullable(toInt64(toUnixTimestamp(min(block_timestamp)))) FROM xcore_events
     WHERE chain_id = {canonical:UInt32} HAVING count() > 0) AS first_at,
    (SELECT toNullable(toInt64(toUnixTimestamp(max(last_at)))) FROM chain_coverage
     WHERE chain_id = {canonical:UInt32} AND dataset = 'xcore' HAVING count() > 0) AS events_through
