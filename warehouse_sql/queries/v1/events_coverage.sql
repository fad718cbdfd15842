-- How far each selected chain's indexed events of one kind are read: the first and last second a
-- daily history asset has recorded for the chain_coverage dataset {dataset} ('events': governance
-- events, bribes, votes and claims, of governance_events; 'bridge': bridge_events); a chain whose
-- events were never read has no row.
-- Parameters: {chain_ids:Array(UInt32)}, {dataset:String}.
SELECT chain_id,
       toInt64(toUnixTimestamp(min(first_at))) AS events_from,
       toInt64(toUnixTimestamp(max(last_at)))  AS events_through
FROM chain_coverage
WHERE chain_id IN {chain_ids:Array(UInt32)} AND dataset = {dataset:String}
GROUP BY chain_id
