-- When each chain's price evidence last changed: its newest price_valuation_runs row, and the
-- number and newest finish of its successful snapshot runs (ADR 0011), read by each API worker's
-- snapshot pointer in its background refresh. The price routes' cache key and ETag hold it, so a
-- valuation written or revised between two snapshots, or an older snapshot republished (a rerun,
-- a filled hole), is a new answer: a cached first page never hands out a cursor bound to evidence
-- that has changed since. One row per chain with valuation or successful snapshot runs.
-- No parameters.
SELECT chain_id, arrayStringConcat(arraySort(groupArray(part)), ' ') AS changed
FROM
(
    SELECT chain_id, concat('valued:', toString(max(written_at))) AS part
    FROM price_valuation_runs
    GROUP BY chain_id
    UNION ALL
    SELECT chain_id, concat('runs:', toString(uniqExact(run_id)), '@', toString(max(finished_at))) AS part
    FROM snapshot_runs
    WHERE status = 'success'
    GROUP BY chain_id
)
GROUP BY chain_id
ORDER BY chain_id
