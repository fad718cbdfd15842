-- When each chain's hourly valuations last changed: the newest price_valuation_runs row (ADR 0011),
-- read by each API worker's snapshot pointer in its background refresh. The price routes' cache
-- key and ETag hold it, so a valuation written or revised between two snapshots is a new answer.
-- No parameters. One row per chain that has valuation runs.
SELECT chain_id, toString(max(written_at)) AS written_at
FROM price_valuation_runs
GROUP BY chain_id
ORDER BY chain_id
