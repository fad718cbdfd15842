-- How far each selected chain's governance events (bribes, votes, claims) are indexed: the first
-- and last second the daily governance_events asset has read (chain_coverage 'events'); a chain
-- whose events were never read has no row.
-- Parameters: {chain_ids:Array(UInt32)}.
SELECT chain_id,
       toInt64(toUnixTimestamp(min(first_at))) AS events_from,
       toInt64(toUnixTimestamp(max(last_at)))  AS events_through
FROM chain_coverage
WHERE chain_id IN {chain_ids:Array(UInt32)} AND dataset = 'events'
GROUP BY chain_id
