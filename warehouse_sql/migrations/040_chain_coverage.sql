-- What each chain's data covers, per dataset: the observation range written so far, widened by
-- every asset run (min of first_at, max of last_at when parts merge; read with GROUP BY or FINAL).
-- Datasets: market_activity (first pool creation .. newest hour with a pool), hourly (buckets
-- written), events (governance events read up to), snapshots (published 15-minute snapshots),
-- subgraph (first_at .. the block time the subgraph has indexed), chain_head (the RPC head's time).
-- The subgraph and chain_head rows say whether a chain's indexer lags its chain; the API reports it.
CREATE TABLE IF NOT EXISTS chain_coverage
(
    chain_id   UInt32,
    dataset    LowCardinality(String),
    first_at   SimpleAggregateFunction(min, DateTime64(3, 'UTC')),
    last_at    SimpleAggregateFunction(max, DateTime64(3, 'UTC')),
    updated_at SimpleAggregateFunction(max, DateTime64(3, 'UTC'))
)
ENGINE = AggregatingMergeTree
ORDER BY (chain_id, dataset)
