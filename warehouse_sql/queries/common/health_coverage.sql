-- What each chain's data covers, per dataset: the chain_coverage rows of a chain and dataset
-- merged (the earliest first_at, the latest last_at), whether or not their parts have merged.
-- Parameters: {chain_ids:Array(UInt32)}
-- One row per (chain, dataset) with any row, by chain id and dataset.
SELECT
    chain_id,
    dataset,
    toDateTime64(min(first_at), 3, 'UTC') AS first_at,
    toDateTime64(max(last_at), 3, 'UTC')  AS last_at
FROM chain_coverage
WHERE chain_id IN {chain_ids:Array(UInt32)}
GROUP BY chain_id, dataset
ORDER BY chain_id, dataset
