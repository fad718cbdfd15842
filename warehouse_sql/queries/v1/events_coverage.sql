-- How far each selected chain's indexed events of some kinds are read: the first and last second a
-- daily history asset has recorded for each chain_coverage dataset of {datasets} ('events':
-- governance events, bribes, votes and claims, of governance_events; 'bridge': bridge_events;
-- 'vault_events'; 'xcore'); a chain whose events of a dataset were never read has no row for it.
-- Parameters: {chain_ids:Array(UInt32)}, {datasets:Array(String)}.
SELECT chain_id, dataset,
       toInt64(toUnixTimestamp(min(first_at))) AS events_from,
       toInt64(toUnixTimestamp(max(last_at)))  AS events_through
FROM chain_coverage
WHERE chain_id IN {chain_ids:Array(UInt32)} AND dataset IN {datasets:Array(String)}
GROUP BY chain_id, dataset
