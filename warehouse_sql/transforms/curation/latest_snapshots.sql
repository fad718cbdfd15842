-- Each chain's latest published snapshot: the one a curation publication is validated against.
-- No parameters. One row per chain with a successful snapshot run.
SELECT chain_id, toInt64(toUnixTimestamp(max(snapshot_at))) AS snapshot_ts
FROM snapshot_runs FINAL
WHERE status = 'success'
GROUP BY chain_id
ORDER BY chain_id
